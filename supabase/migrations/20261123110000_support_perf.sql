-- Support desk search at 20,000+ tickets (issue 15, docs/adr/0121).
--
-- admin_list_tickets searched a union of four trigram index scans (subject, owner email, profiles.full_name,
-- businesses.name): 110-170 ms at 2,000 tickets on PGlite, because the name and business scans match rows of every
-- owner (most have no ticket) before the join narrows them. Now each ticket has one search text (subject, owner
-- email, owner name, business name) behind one trigram index, so a search is one index scan over tickets only.
--
-- The text lives in private.support_ticket_search, not on the ticket: refreshing it after a profile or business
-- rename must not touch support_tickets (its updated_at is "Last updated", which follows replies), and owners have
-- no reason to read it. Triggers keep it current; private.refresh_support_ticket_search() fills rows that were
-- written with triggers off (npm run seed:large loads in replica mode) and is idempotent.

create table private.support_ticket_search (
  ticket_id uuid primary key references public.support_tickets (id) on delete cascade,
  search_text text not null
);
-- No policies and no grants: only the security definer triggers and admin_list_tickets (table owner) use it.
alter table private.support_ticket_search enable row level security;
comment on table private.support_ticket_search is
  'One search text per support ticket (subject, owner email and name, business name) for the admin queue''s '
  'search; written by triggers, read by public.admin_list_tickets. Not exposed to the API roles.';
create index support_ticket_search_trgm_idx on private.support_ticket_search
  using gin (search_text extensions.gin_trgm_ops);

-- One line per field, so a pattern cannot match across two fields' ends. Lower case, searched with LIKE on a
-- lower-cased pattern: ILIKE folds case row by row and was 7x slower than LIKE on PGlite (330 vs 44 ms over
-- 20,000 rows on the loaded bench machine); the trigram index serves both.
create or replace function private.support_ticket_search_text(_subject text, _owner_email text, _user_id uuid,
                                                              _business_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select lower(concat_ws(e'\n', _subject, _owner_email,
                         (select p.full_name from public.profiles p where p.id = _user_id),
                         (select b.name::text from public.businesses b where b.id = _business_id)));
$$;

-- Rows for the given tickets (null: every ticket without one), replacing stale texts.
create or replace function private.refresh_support_ticket_search(_ticket_ids uuid[] default null)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_count bigint;
begin
  insert into private.support_ticket_search (ticket_id, search_text)
  select t.id, private.support_ticket_search_text(t.subject, t.owner_email, t.user_id, t.business_id)
    from public.support_tickets t
   where (_ticket_ids is null and not exists (select 1 from private.support_ticket_search s where s.ticket_id = t.id))
      or t.id = any (_ticket_ids)
  on conflict (ticket_id) do update set search_text = excluded.search_text
    where private.support_ticket_search.search_text is distinct from excluded.search_text;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

create or replace function private.support_ticket_search_sync()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'support_tickets' then
    perform private.refresh_support_ticket_search(array[new.id]);
  elsif tg_table_name = 'profiles' then
    perform private.refresh_support_ticket_search(
      array(select t.id from public.support_tickets t where t.user_id = new.id));
  elsif tg_table_name = 'businesses' then
    perform private.refresh_support_ticket_search(
      array(select t.id from public.support_tickets t where t.business_id = new.id));
  end if;
  return null;
end;
$$;

do $$
declare
  f text;
begin
  foreach f in array array['private.support_ticket_search_text(text, text, uuid, uuid)',
    'private.refresh_support_ticket_search(uuid[])', 'private.support_ticket_search_sync()'] loop
    execute format('revoke all on function %s from public, anon, authenticated', f);
  end loop;
end;
$$;

-- After insert: the before-insert defaults (business, owner email) are in place by then.
create trigger support_ticket_search_insert after insert on public.support_tickets
  for each row execute function private.support_ticket_search_sync();
create trigger support_ticket_search_update after update of subject, owner_email, user_id, business_id
  on public.support_tickets
  for each row execute function private.support_ticket_search_sync();
create trigger support_ticket_search_owner_name after update of full_name on public.profiles
  for each row when (old.full_name is distinct from new.full_name)
  execute function private.support_ticket_search_sync();
create trigger support_ticket_search_business_name after update of name on public.businesses
  for each row when (old.name is distinct from new.name)
  execute function private.support_ticket_search_sync();

select private.refresh_support_ticket_search();

-- The former per-field trigram indexes only served the old union.
drop index public.support_tickets_subject_trgm_idx;
drop index public.support_tickets_owner_email_trgm_idx;

-- Same signature, result and rules as in 20261122130000_support_desk.sql; only the search changed: one set of
-- ids from the search index.
create or replace function public.admin_list_tickets(
  _search text default null, _status text default null, _priority text default null, _waiting_on text default null,
  _limit int default 20, _offset int default 0, _ticket_id uuid default null
)
returns table (
  id uuid, subject text, status text, priority text, waiting_on text, waiting_since timestamptz,
  created_at timestamptz, updated_at timestamptz, last_reply_at timestamptz, reply_count bigint,
  user_id uuid, owner_name text, owner_email text, business_id uuid, business_name text,
  assigned_admin uuid, assigned_name text, total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_search text := nullif(btrim(coalesce(_search, '')), '');
  v_limit int := least(greatest(coalesce(_limit, 20), 1), 100);
  v_offset int := greatest(coalesce(_offset, 0), 0);
  v_pattern text;
begin
  perform private.assert_admin();
  if char_length(v_search) > 100 then
    raise exception 'search text is too long (100 characters at most)' using errcode = '22023';
  end if;
  if _status is not null and _status not in ('open', 'in_progress', 'pending_customer', 'resolved', 'closed', 'active') then
    raise exception 'unknown status filter' using errcode = '22023';
  end if;
  if _priority is not null and _priority not in ('low', 'medium', 'high', 'urgent') then
    raise exception 'unknown priority filter' using errcode = '22023';
  end if;
  if _waiting_on is not null and _waiting_on not in ('us', 'customer') then
    raise exception 'waiting on must be us or customer' using errcode = '22023';
  end if;
  v_pattern := case when v_search is null then null
                    else '%' || replace(replace(replace(lower(v_search), '\', '\\'), '%', '\%'), '_', '\_') || '%' end;
  -- Dynamic SQL: each call is planned for its own filters and pattern (a generic plan cannot use the
  -- trigram index for one pattern and the queue index for none).
  return query execute format(
    'with matches as materialized (
       %2$s
     ),
     -- The total apart from the page: a window count would sort every match before the first 20 rows,
     -- while the page alone is a walk of the queue index that stops after limit + offset rows.
     total as (
       select count(*) as n from public.support_tickets t where %1$s
     ),
     page as materialized (
       select t.id, (select n from total) as total
         from public.support_tickets t
        where %1$s
        order by t.queue_rank, t.waiting_since, t.id
        limit $5 offset $6
     )
     select t.id, t.subject, t.status, t.priority, t.waiting_on, t.waiting_since, t.created_at, t.updated_at,
            t.last_reply_at, (select count(*) from public.ticket_replies r where r.ticket_id = t.id),
            t.user_id, p.full_name, coalesce(u.email::text, t.owner_email), t.business_id, b.name::text,
            t.assigned_admin, coalesce(ap.full_name, au.email::text), page.total
       from page
       join public.support_tickets t on t.id = page.id
       left join public.profiles p on p.id = t.user_id
       left join auth.users u on u.id = t.user_id
       left join public.businesses b on b.id = t.business_id
       left join public.profiles ap on ap.id = t.assigned_admin
       left join auth.users au on au.id = t.assigned_admin
      order by t.queue_rank, t.waiting_since, t.id',
    concat_ws(' and ', 'true',
      case when _ticket_id is not null then 't.id = $7' end,
      case when v_pattern is not null then 't.id in (select m.id from matches m)' end,
      case when _status = 'active' then 't.queue_rank < 2'
           when _status is not null then 't.status = $2' end,
      case when _priority is not null then 't.priority = $3' end,
      case when _waiting_on is not null then 't.waiting_on = $4 and t.queue_rank < 2' end),
    case when v_pattern is null then 'select null::uuid as id where false'
         else 'select s.ticket_id as id from private.support_ticket_search s where s.search_text like $1' end)
  using v_pattern, _status, _priority, _waiting_on, v_limit, v_offset, _ticket_id;
end;
$$;
comment on function public.admin_list_tickets(text, text, text, text, int, int, uuid) is
  'Admins only (42501): the support queue, oldest waiting on us first; filters, search (one trigram index over '
  'subject, owner email and name, business name), a page of 1..100.';
