-- The admin support queue at 20,000+ tickets (issue 15, docs/adr/0154).
--
-- admin_list_tickets counted its total with count(*) over every ticket matching the filters on each call, planned
-- its whole seven-join statement anew on each call (dynamic SQL), and filtered "waiting on us / on the customer"
-- from the table rows although the queue indexes hold the answer. Now:
-- * the total of an unsearched queue is a sum over at most 40 rows of private.support_queue_counts, one count per
--   (status, priority, waiting_on), kept by statement-level triggers like private.admin_totals (ADR 0060);
-- * only the choice of the page's ids stays dynamic (private.support_queue_page: planned per filter and pattern),
--   the display join is static and cached; "waiting on us" is queue_rank = 0, "on the customer" queue_rank = 1, so
--   every filter is a range of one queue index; pages past the middle walk that index from the far end;
-- * a search counts and pages one set read from the search rows alone: each search row now carries its ticket's
--   status, priority, queue rank and "waiting since" (kept by the same triggers as the text), so matches are not
--   joined to their tickets (2,500 matches had cost a hash of all 20,000 tickets, 10x the trigram scan itself);
-- * the trigram index no longer keeps a pending list (fastupdate): PGlite has no autovacuum to merge it, so every
--   search read the whole unmerged list.
-- The functions are security definer and owned by the tables' owner, so row level security is not evaluated per
-- row; private.assert_admin() checks the caller once.

-- ---------------------------------------------------------------------------------------------------
-- Maintained counts.
create table private.support_queue_counts (
  status text not null,
  priority text not null,
  waiting_on text not null,
  n bigint not null default 0,
  primary key (status, priority, waiting_on)
);
-- No policies and no grants: only the security definer triggers write it and admin_list_tickets' helpers read it.
alter table private.support_queue_counts enable row level security;
revoke all on table private.support_queue_counts from public, anon, authenticated;
comment on table private.support_queue_counts is
  'Tickets per (status, priority, waiting_on): the admin queue''s totals without counting the tickets. Written by '
  'triggers on public.support_tickets (private.refresh_support_queue_counts() recomputes), read by '
  'private.support_queue_total. Not exposed to the API roles.';

-- Adds deltas, keys in order. A ticket's status change moves it between two keys, and one transaction may change
-- several keys in several statements; taking the admin totals' row lock first (every ticket insert and every change
-- to or from 'open' takes it already, ADR 0060) gives all these writers one queue, so two of them cannot deadlock.
create or replace function private.bump_support_queue_counts(_status text[], _priority text[], _waiting_on text[],
                                                             _delta bigint[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if coalesce(cardinality(_delta), 0) = 0 then
    return;
  end if;
  perform 1 from private.admin_totals a where a.id for update;
  insert into private.support_queue_counts as c (status, priority, waiting_on, n)
  select d.status, d.priority, d.waiting_on, d.delta
    from unnest(_status, _priority, _waiting_on, _delta) as d (status, priority, waiting_on, delta)
   order by 1, 2, 3
  on conflict (status, priority, waiting_on) do update set n = c.n + excluded.n;
end;
$$;

create or replace function private.refresh_support_queue_counts()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform 1 from private.admin_totals a where a.id for update;
  delete from private.support_queue_counts c where c.n is not null;
  insert into private.support_queue_counts (status, priority, waiting_on, n)
  select t.status, t.priority, t.waiting_on, count(*) from public.support_tickets t group by 1, 2, 3;
end;
$$;

-- One trigger function per event: transition tables exist only in single-event triggers. Each sums the
-- statement's rows per key and writes only keys whose count changed, so a reply that leaves the status as it is
-- (or a subject edit) writes nothing.
create or replace function private.support_queue_counts_ins() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_status text[]; v_priority text[]; v_waiting text[]; v_delta bigint[];
begin
  select array_agg(d.status), array_agg(d.priority), array_agg(d.waiting_on), array_agg(d.n)
    into v_status, v_priority, v_waiting, v_delta
    from (select r.status, r.priority, r.waiting_on, count(*) as n from new_rows r group by 1, 2, 3) d;
  perform private.bump_support_queue_counts(v_status, v_priority, v_waiting, v_delta);
  return null;
end;
$$;

create or replace function private.support_queue_counts_upd() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_status text[]; v_priority text[]; v_waiting text[]; v_delta bigint[];
begin
  select array_agg(d.status), array_agg(d.priority), array_agg(d.waiting_on), array_agg(d.n)
    into v_status, v_priority, v_waiting, v_delta
    from (select x.status, x.priority, x.waiting_on, sum(x.n)::bigint as n
            from (select r.status, r.priority, r.waiting_on, 1 as n from new_rows r
                  union all
                  select r.status, r.priority, r.waiting_on, -1 from old_rows r) x
           group by 1, 2, 3
          having sum(x.n) <> 0) d;
  perform private.bump_support_queue_counts(v_status, v_priority, v_waiting, v_delta);
  return null;
end;
$$;

create or replace function private.support_queue_counts_del() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_status text[]; v_priority text[]; v_waiting text[]; v_delta bigint[];
begin
  select array_agg(d.status), array_agg(d.priority), array_agg(d.waiting_on), array_agg(-d.n)
    into v_status, v_priority, v_waiting, v_delta
    from (select r.status, r.priority, r.waiting_on, count(*) as n from old_rows r group by 1, 2, 3) d;
  perform private.bump_support_queue_counts(v_status, v_priority, v_waiting, v_delta);
  return null;
end;
$$;

-- TRUNCATE has no transition table: recount (nothing to count, but cascades may truncate more than tickets).
create or replace function private.support_queue_counts_truncated() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.refresh_support_queue_counts();
  return null;
end;
$$;

create trigger support_queue_counts_ins after insert on public.support_tickets
  referencing new table as new_rows for each statement execute function private.support_queue_counts_ins();
create trigger support_queue_counts_upd after update on public.support_tickets
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.support_queue_counts_upd();
create trigger support_queue_counts_del after delete on public.support_tickets
  referencing old table as old_rows for each statement execute function private.support_queue_counts_del();
create trigger support_queue_counts_truncate after truncate on public.support_tickets
  for each statement execute function private.support_queue_counts_truncated();

select private.refresh_support_queue_counts();

-- The total of a queue without search: the same filters as admin_list_tickets, over the counts.
create or replace function private.support_queue_total(_status text, _priority text, _waiting_on text)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(sum(c.n), 0)::bigint
    from private.support_queue_counts c
   where (_status is null or c.status = _status
          or (_status = 'active' and c.status not in ('resolved', 'closed')))
     and (_priority is null or c.priority = _priority)
     and (_waiting_on is null or (c.waiting_on = _waiting_on and c.status not in ('resolved', 'closed')));
$$;

-- ---------------------------------------------------------------------------------------------------
-- The queue columns on the search rows (see the header). Same function as in 20261123110000_support_perf.sql,
-- writing the four columns too.
alter table private.support_ticket_search
  add column status text,
  add column priority text,
  add column queue_rank smallint,
  add column waiting_since timestamptz;

create or replace function private.refresh_support_ticket_search(_ticket_ids uuid[] default null)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_count bigint;
begin
  insert into private.support_ticket_search as s (ticket_id, search_text, status, priority, queue_rank, waiting_since)
  select t.id, private.support_ticket_search_text(t.subject, t.owner_email, t.user_id, t.business_id),
         t.status, t.priority, t.queue_rank, t.waiting_since
    from public.support_tickets t
   where (_ticket_ids is null and not exists (select 1 from private.support_ticket_search x where x.ticket_id = t.id))
      or t.id = any (_ticket_ids)
  on conflict (ticket_id) do update
    set search_text = excluded.search_text, status = excluded.status, priority = excluded.priority,
        queue_rank = excluded.queue_rank, waiting_since = excluded.waiting_since
    where (s.search_text, s.status, s.priority, s.queue_rank, s.waiting_since)
          is distinct from (excluded.search_text, excluded.status, excluded.priority, excluded.queue_rank,
                            excluded.waiting_since);
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
revoke all on function private.refresh_support_ticket_search(uuid[]) from public, anon, authenticated;

drop trigger support_ticket_search_update on public.support_tickets;
create trigger support_ticket_search_update
  after update of subject, owner_email, user_id, business_id, status, priority, waiting_on, waiting_since
  on public.support_tickets
  for each row execute function private.support_ticket_search_sync();

update private.support_ticket_search s
   set status = t.status, priority = t.priority, queue_rank = t.queue_rank, waiting_since = t.waiting_since
  from public.support_tickets t
 where t.id = s.ticket_id;

-- ---------------------------------------------------------------------------------------------------
-- The page's ticket ids and the total, for validated arguments (admin_list_tickets checks the caller and the
-- filters). Dynamic SQL so each filter and pattern gets its own plan (a generic plan cannot use the trigram index
-- for one pattern and a queue index for none).
create or replace function private.support_queue_page(
  _pattern text, _status text, _priority text, _waiting_on text, _limit int, _offset int, _ticket_id uuid
)
returns table (ticket_id uuid, total bigint)
language plpgsql
stable
security definer
set search_path = ''
rows 20
as $$
declare
  -- Whom a ticket waits on, as its queue rank: the queue indexes' second column, so the filter is an index range.
  v_rank smallint := case _waiting_on when 'us' then 0 when 'customer' then 1 end;
  v_filters text := concat_ws(' and ', 'true',
    case when _status = 'active' then 't.queue_rank < 2'
         when _status is not null then 't.status = $2' end,
    case when _priority is not null then 't.priority = $3' end,
    case when v_rank is not null then 't.queue_rank = $4' end);
  v_total bigint;
  v_reverse boolean;
begin
  if _pattern is not null or _ticket_id is not null then
    -- One set of matches, counted and paged. A search reads the search rows alone (the trigram index, then the
    -- queue columns beside each text); one ticket by id (the thread page's header) reads the ticket.
    return query execute format(
      'with matched as materialized (
         select t.%1$s as id, t.queue_rank, t.waiting_since
           from %2$s t
          where %3$s
       ),
       page as (
         select m.id from matched m order by m.queue_rank, m.waiting_since, m.id limit $5 offset $6
       )
       select page.id, (select count(*) from matched) from page',
      case when _pattern is not null then 'ticket_id' else 'id' end,
      case when _pattern is not null then 'private.support_ticket_search' else 'public.support_tickets' end,
      concat_ws(' and ', v_filters,
        case when _pattern is not null then 't.search_text like $1' end,
        case when _ticket_id is not null and _pattern is not null then 't.ticket_id = $7'
             when _ticket_id is not null then 't.id = $7' end))
    using _pattern, _status, _priority, v_rank, _limit, _offset, _ticket_id;
    return;
  end if;

  v_total := private.support_queue_total(_status, _priority, _waiting_on);
  if _offset >= v_total then
    return;
  end if;
  -- Past the middle, walk the index from the far end: the last page costs what the first costs.
  v_reverse := v_total - _offset < _offset + _limit;
  return query execute format(
    'select t.id, $8 from public.support_tickets t where %1$s
      order by t.queue_rank %2$s, t.waiting_since %2$s, t.id %2$s limit $5 offset $6',
    v_filters, case when v_reverse then 'desc' else 'asc' end)
  using _pattern, _status, _priority, v_rank,
        case when v_reverse then least(_limit::bigint, v_total - _offset) else _limit end,
        case when v_reverse then greatest(v_total - _offset - _limit, 0) else _offset end,
        _ticket_id, v_total;
end;
$$;

do $$
declare
  f text;
begin
  foreach f in array array['private.bump_support_queue_counts(text[], text[], text[], bigint[])',
    'private.refresh_support_queue_counts()', 'private.support_queue_counts_ins()',
    'private.support_queue_counts_upd()', 'private.support_queue_counts_del()',
    'private.support_queue_counts_truncated()', 'private.support_queue_total(text, text, text)',
    'private.support_queue_page(text, text, text, text, int, int, uuid)'] loop
    execute format('revoke all on function %s from public, anon, authenticated', f);
  end loop;
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- Searches read the index alone: no pending list to scan (merged now, none kept from here on).
alter index private.support_ticket_search_trgm_idx set (fastupdate = off);
select pg_catalog.gin_clean_pending_list('private.support_ticket_search_trgm_idx'::regclass);

-- Same signature, result and rules as in 20261123110000_support_perf.sql: the page comes from
-- private.support_queue_page; this statement is static, so its plan is cached.
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
  return query
    select t.id, t.subject, t.status, t.priority, t.waiting_on, t.waiting_since, t.created_at, t.updated_at,
           t.last_reply_at, (select count(*) from public.ticket_replies r where r.ticket_id = t.id),
           t.user_id, p.full_name, coalesce(u.email::text, t.owner_email), t.business_id, b.name::text,
           t.assigned_admin, coalesce(ap.full_name, au.email::text), page.total
      from private.support_queue_page(v_pattern, _status, _priority, _waiting_on, v_limit, v_offset, _ticket_id) page
      join public.support_tickets t on t.id = page.ticket_id
      left join public.profiles p on p.id = t.user_id
      left join auth.users u on u.id = t.user_id
      left join public.businesses b on b.id = t.business_id
      left join public.profiles ap on ap.id = t.assigned_admin
      left join auth.users au on au.id = t.assigned_admin
     order by t.queue_rank, t.waiting_since, t.id;
end;
$$;
comment on function public.admin_list_tickets(text, text, text, text, int, int, uuid) is
  'Admins only (42501): the support queue, oldest waiting on us first; filters, search (one trigram index over '
  'subject, owner email and name, business name), a page of 1..100; totals from private.support_queue_counts.';
