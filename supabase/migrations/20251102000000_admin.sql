-- Storewise admin panel: the figures and lists of the admin area (spec section 2, "Admin area").
--
-- The panel must stay fast with 100,000 shops and a million billing rows, so:
-- * the overview reads one row of running totals (private.admin_totals) kept by statement-level triggers
--   with transition tables: a bulk insert of 100,000 rows updates the totals once, not 100,000 times;
-- * the lists are keyset-friendly index walks (created_at desc, id) and the user search uses the trigram
--   index on profiles.full_name;
-- * every admin function is security definer, calls private.assert_admin() first (SQLSTATE 42501 for
--   everyone else, which the data API answers with 403, or 401 for anon) and reads the tables as their
--   owner, so row level security is not evaluated per row. See docs/adr/0060-admin-totals-summary.md.

-- ---------------------------------------------------------------------------------------------------
-- Running totals: exactly one row.
create table private.admin_totals (
  id boolean primary key default true check (id),
  profiles bigint not null default 0 check (profiles >= 0),
  plans bigint not null default 0 check (plans >= 0),
  active_plans bigint not null default 0 check (active_plans >= 0),
  revenue numeric(14, 2) not null default 0,
  open_tickets bigint not null default 0 check (open_tickets >= 0),
  refreshed_at timestamptz not null default now()
);
alter table private.admin_totals enable row level security;
comment on table private.admin_totals is
  'Running admin totals (one row). Nobody reads or writes it through the API; triggers keep it, '
  'private.refresh_admin_totals() recomputes it, admin_overview() reads it as its owner.';
revoke all on table private.admin_totals from public, anon, authenticated;

-- Recomputes every total from the tables: after bulk loads that bypass triggers, or to repair drift.
create or replace function private.refresh_admin_totals()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.admin_totals as t (id, profiles, plans, active_plans, revenue, open_tickets, refreshed_at)
  select true,
         (select count(*) from public.profiles),
         (select count(*) from public.user_plans),
         (select count(*) from public.user_plans where auto_renew),
         (select coalesce(sum(amount), 0) from public.billing_history),
         (select count(*) from public.support_tickets where status = 'open'),
         now()
  on conflict (id) do update
    set profiles = excluded.profiles,
        plans = excluded.plans,
        active_plans = excluded.active_plans,
        revenue = excluded.revenue,
        open_tickets = excluded.open_tickets,
        refreshed_at = excluded.refreshed_at;
end;
$$;
revoke all on function private.refresh_admin_totals() from public, anon, authenticated;

-- Adds deltas to the totals. Skips the write (and the row lock) when nothing relevant changed, so
-- updates of unrelated columns (a profile's phone, a ticket's subject) do not serialize on this row.
create or replace function private.bump_admin_totals(
  _profiles bigint default 0,
  _plans bigint default 0,
  _active_plans bigint default 0,
  _revenue numeric default 0,
  _open_tickets bigint default 0
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if _profiles = 0 and _plans = 0 and _active_plans = 0 and _revenue = 0 and _open_tickets = 0 then
    return;
  end if;
  update private.admin_totals
     set profiles = profiles + _profiles,
         plans = plans + _plans,
         active_plans = active_plans + _active_plans,
         revenue = revenue + _revenue,
         open_tickets = open_tickets + _open_tickets
   where id;
end;
$$;
revoke all on function private.bump_admin_totals(bigint, bigint, bigint, numeric, bigint)
  from public, anon, authenticated;

-- One trigger function per table and event: PostgreSQL exposes transition tables only to triggers
-- declared for a single event. Security definer because owners write these tables (support tickets,
-- their own plan) but must not be able to touch private.admin_totals themselves.

-- profiles
create or replace function private.admin_totals_profiles_ins() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(_profiles => (select count(*) from new_rows));
  return null;
end;
$$;
create or replace function private.admin_totals_profiles_del() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(_profiles => -(select count(*) from old_rows));
  return null;
end;
$$;

-- user_plans
create or replace function private.admin_totals_plans_ins() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(
    _plans => (select count(*) from new_rows),
    _active_plans => (select count(*) from new_rows where auto_renew)
  );
  return null;
end;
$$;
create or replace function private.admin_totals_plans_upd() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(
    _active_plans => (select count(*) from new_rows where auto_renew) - (select count(*) from old_rows where auto_renew)
  );
  return null;
end;
$$;
create or replace function private.admin_totals_plans_del() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(
    _plans => -(select count(*) from old_rows),
    _active_plans => -(select count(*) from old_rows where auto_renew)
  );
  return null;
end;
$$;

-- billing_history
create or replace function private.admin_totals_billing_ins() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(_revenue => (select coalesce(sum(amount), 0) from new_rows));
  return null;
end;
$$;
create or replace function private.admin_totals_billing_upd() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(
    _revenue => (select coalesce(sum(amount), 0) from new_rows) - (select coalesce(sum(amount), 0) from old_rows)
  );
  return null;
end;
$$;
create or replace function private.admin_totals_billing_del() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(_revenue => -(select coalesce(sum(amount), 0) from old_rows));
  return null;
end;
$$;

-- support_tickets
create or replace function private.admin_totals_tickets_ins() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(_open_tickets => (select count(*) from new_rows where status = 'open'));
  return null;
end;
$$;
create or replace function private.admin_totals_tickets_upd() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(
    _open_tickets => (select count(*) from new_rows where status = 'open')
                   - (select count(*) from old_rows where status = 'open')
  );
  return null;
end;
$$;
create or replace function private.admin_totals_tickets_del() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(_open_tickets => -(select count(*) from old_rows where status = 'open'));
  return null;
end;
$$;

-- TRUNCATE has no transition tables; recomputing is simplest and correct (truncate ... cascade fires
-- this on every truncated table).
create or replace function private.admin_totals_truncated() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.refresh_admin_totals();
  return null;
end;
$$;

do $$
declare
  f text;
begin
  foreach f in array array[
    'admin_totals_profiles_ins', 'admin_totals_profiles_del',
    'admin_totals_plans_ins', 'admin_totals_plans_upd', 'admin_totals_plans_del',
    'admin_totals_billing_ins', 'admin_totals_billing_upd', 'admin_totals_billing_del',
    'admin_totals_tickets_ins', 'admin_totals_tickets_upd', 'admin_totals_tickets_del',
    'admin_totals_truncated'
  ] loop
    execute format('revoke all on function private.%I() from public, anon, authenticated', f);
  end loop;
end;
$$;

create trigger admin_totals_ins after insert on public.profiles
  referencing new table as new_rows for each statement execute function private.admin_totals_profiles_ins();
create trigger admin_totals_del after delete on public.profiles
  referencing old table as old_rows for each statement execute function private.admin_totals_profiles_del();
create trigger admin_totals_truncate after truncate on public.profiles
  for each statement execute function private.admin_totals_truncated();

create trigger admin_totals_ins after insert on public.user_plans
  referencing new table as new_rows for each statement execute function private.admin_totals_plans_ins();
create trigger admin_totals_upd after update on public.user_plans
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.admin_totals_plans_upd();
create trigger admin_totals_del after delete on public.user_plans
  referencing old table as old_rows for each statement execute function private.admin_totals_plans_del();
create trigger admin_totals_truncate after truncate on public.user_plans
  for each statement execute function private.admin_totals_truncated();

create trigger admin_totals_ins after insert on public.billing_history
  referencing new table as new_rows for each statement execute function private.admin_totals_billing_ins();
create trigger admin_totals_upd after update on public.billing_history
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.admin_totals_billing_upd();
create trigger admin_totals_del after delete on public.billing_history
  referencing old table as old_rows for each statement execute function private.admin_totals_billing_del();
create trigger admin_totals_truncate after truncate on public.billing_history
  for each statement execute function private.admin_totals_truncated();

create trigger admin_totals_ins after insert on public.support_tickets
  referencing new table as new_rows for each statement execute function private.admin_totals_tickets_ins();
create trigger admin_totals_upd after update on public.support_tickets
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.admin_totals_tickets_upd();
create trigger admin_totals_del after delete on public.support_tickets
  referencing old table as old_rows for each statement execute function private.admin_totals_tickets_del();
create trigger admin_totals_truncate after truncate on public.support_tickets
  for each statement execute function private.admin_totals_truncated();

-- Start from whatever rows exist when the migration runs.
select private.refresh_admin_totals();

-- ---------------------------------------------------------------------------------------------------
-- Admin overview: the four figures of the admin dashboard in one call, read from the running totals.
create or replace function public.admin_overview()
returns table (total_profiles bigint, active_users bigint, total_revenue numeric, open_tickets bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  return query
    select t.profiles, t.active_plans, t.revenue, t.open_tickets
      from private.admin_totals t
     where t.id;
end;
$$;
comment on function public.admin_overview() is
  'Admins only (42501 otherwise): total profiles, Active Users (plans with auto_renew), Total Revenue, open tickets.';

-- ---------------------------------------------------------------------------------------------------
-- Admin users list: profiles newest first, optional case-insensitive substring search on full_name.
-- total_count repeats on every row so one call gives a page and the size of the whole list.
create or replace function public.admin_list_users(_search text default null, _limit int default 20, _offset int default 0)
returns table (
  id uuid,
  full_name text,
  business_name text,
  business_type text,
  business_email text,
  phone text,
  created_at timestamptz,
  total_count bigint
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
  v_total bigint;
begin
  perform private.assert_admin();
  if char_length(v_search) > 100 then
    raise exception 'search text is too long (100 characters at most)' using errcode = '22023';
  end if;

  if v_search is null then
    -- No search: the running total is exact and costs nothing; a count over 100k rows is not.
    select t.profiles into v_total from private.admin_totals t where t.id;
    if v_offset >= v_total then
      return;
    elsif v_offset > v_total / 2 then
      -- The far half (the "last page" button): walk the index from its other end, so the deepest page
      -- skips as few rows as the first.
      return query
        select r.* from (
          select p.id, p.full_name, p.business_name, p.business_type, p.business_email, p.phone, p.created_at, v_total
            from public.profiles p
           order by p.created_at, p.id desc
           limit least(v_limit, v_total - v_offset) offset greatest(v_total - v_offset - v_limit, 0)
        ) r
        order by r.created_at desc, r.id;
    else
      return query
        select p.id, p.full_name, p.business_name, p.business_type, p.business_email, p.phone, p.created_at, v_total
          from public.profiles p
         order by p.created_at desc, p.id
         limit v_limit offset v_offset;
    end if;
    return;
  end if;

  -- % and _ are data here, not wildcards; backslash is ILIKE's default escape character.
  v_pattern := '%' || replace(replace(replace(v_search, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  -- Dynamic SQL so each search is planned with its own pattern (a cached generic plan cannot tell a rare
  -- fragment from a common one). Two shapes, measured at 100k profiles (docs/adr/0061):
  if char_length(v_search) >= 3 then
    -- The trigram index finds every match in one pass; the window count reuses that pass (a separate
    -- count(*) would scan the index and recheck the rows a second time). The materialized CTE keeps the
    -- planner on the trigram index: otherwise PostgreSQL 15 walks profiles_created_at_idx for the order and
    -- filters all 100k rows (270 ms instead of 14 ms for a fragment matching 2% of the names).
    return query execute
      'with matches as materialized (
         select p.id, p.full_name, p.business_name, p.business_type, p.business_email, p.phone, p.created_at
           from public.profiles p
          where p.full_name ilike $1
       )
       select m.id, m.full_name, m.business_name, m.business_type, m.business_email, m.phone, m.created_at,
              count(*) over ()
         from matches m
        order by m.created_at desc, m.id
        limit $2 offset $3'
      using v_pattern, v_limit, v_offset;
    return;
  end if;
  -- One or two characters have no trigram: matches are most rows. Walking profiles_created_at_idx stops
  -- after a page, and the count is a plain scan; a window count would sort every match (2-3x slower).
  -- Without an index, lower(x) like lower(pattern) is what ILIKE means in UTF-8 and runs 3.7x faster
  -- than ILIKE on PGlite (measured on the 100k count).
  execute 'select count(*) from public.profiles p where lower(p.full_name) like lower($1)'
    into v_total using v_pattern;
  if v_offset >= v_total then
    return;
  end if;
  return query execute
    'select p.id, p.full_name, p.business_name, p.business_type, p.business_email, p.phone, p.created_at, $4::bigint
       from public.profiles p
      where lower(p.full_name) like lower($1)
      order by p.created_at desc, p.id
      limit $2 offset $3'
    using v_pattern, v_limit, v_offset, v_total;
end;
$$;
comment on function public.admin_list_users(text, int, int) is
  'Admins only (42501 otherwise): profiles newest first, optional full-name substring search, '
  'limit 1..100, with the total count of the list on every row.';

-- ---------------------------------------------------------------------------------------------------
-- Admin plans list: user plans newest first with the owner's name, one call.
create or replace function public.admin_list_plans(_limit int default 20, _offset int default 0)
returns table (
  id uuid,
  user_id uuid,
  owner_name text,
  plan_name text,
  price numeric,
  billing_cycle text,
  status text,
  auto_renew boolean,
  next_billing_date timestamptz,
  created_at timestamptz,
  total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_limit int := least(greatest(coalesce(_limit, 20), 1), 100);
  v_offset int := greatest(coalesce(_offset, 0), 0);
  v_total bigint;
begin
  perform private.assert_admin();
  select t.plans into v_total from private.admin_totals t where t.id;
  if v_offset >= v_total then
    return;
  elsif v_offset > v_total / 2 then
    -- The far half: walk the index from its other end (see admin_list_users).
    return query
      select r.* from (
        select up.id, up.user_id, p.full_name, up.plan_name, up.price, up.billing_cycle, up.status, up.auto_renew,
               up.next_billing_date, up.created_at, v_total
          from public.user_plans up
          left join public.profiles p on p.id = up.user_id
         order by up.created_at, up.id desc
         limit least(v_limit, v_total - v_offset) offset greatest(v_total - v_offset - v_limit, 0)
      ) r
      order by r.created_at desc, r.id;
  else
    return query
      select up.id, up.user_id, p.full_name, up.plan_name, up.price, up.billing_cycle, up.status, up.auto_renew,
             up.next_billing_date, up.created_at, v_total
        from public.user_plans up
        left join public.profiles p on p.id = up.user_id
       order by up.created_at desc, up.id
       limit v_limit offset v_offset;
  end if;
end;
$$;
comment on function public.admin_list_plans(int, int) is
  'Admins only (42501 otherwise): user plans newest first with the owner''s full name, limit 1..100, '
  'with the total count on every row.';

revoke all on function public.admin_overview() from public, anon;
revoke all on function public.admin_list_users(text, int, int) from public, anon;
revoke all on function public.admin_list_plans(int, int) from public, anon;
grant execute on function public.admin_overview() to authenticated;
grant execute on function public.admin_list_users(text, int, int) to authenticated;
grant execute on function public.admin_list_plans(int, int) to authenticated;
