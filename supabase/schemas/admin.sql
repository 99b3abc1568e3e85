-- Admin (shared/features/admin): the platform figures (private.admin_totals, kept by triggers on profiles,
-- plans, billing and tickets), the user, plan, business and billing lists, and the activity log.
-- Invariants: every admin_* function refuses a caller who is not an admin; admin_totals equals the counts it
-- summarises (kept by triggers, recomputed by private.refresh_admin_totals).
--
-- Written by scripts/schema-extract.ts from the migrations and kept equal to them by
-- tests/hosted/schema-files.test.ts: change an object here, then generate its migration (README, Contributing).

-- Function bodies are checked when they run, not when created: the files need no order among functions.
set check_function_bodies = off;

-- ==== Tables: columns, constraints, row level security, grants and comments ===============================

create table private.admin_totals (
  id boolean default true not null,
  profiles bigint default 0 not null,
  plans bigint default 0 not null,
  active_plans bigint default 0 not null,
  revenue numeric(14,2) default 0 not null,
  open_tickets bigint default 0 not null,
  refreshed_at timestamp with time zone default now() not null,
  constraint admin_totals_pkey primary key (id),
  constraint admin_totals_active_plans_check check ((active_plans >= 0)),
  constraint admin_totals_id_check check (id),
  constraint admin_totals_open_tickets_check check ((open_tickets >= 0)),
  constraint admin_totals_plans_check check ((plans >= 0)),
  constraint admin_totals_profiles_check check ((profiles >= 0))
);
alter table private.admin_totals enable row level security;
comment on table private.admin_totals is 'Running admin totals (one row). Nobody reads or writes it through the API; triggers keep it, private.refresh_admin_totals() recomputes it, admin_overview() reads it as its owner.';

-- ==== Functions ===========================================================================================

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
revoke all on function private.refresh_admin_totals() from public;

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
revoke all on function private.bump_admin_totals(bigint,bigint,bigint,numeric,bigint) from public;

-- profiles
create or replace function private.admin_totals_profiles_ins() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(_profiles => (select count(*) from new_rows));
  return null;
end;
$$;
revoke all on function private.admin_totals_profiles_ins() from public;

create or replace function private.admin_totals_profiles_del() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(_profiles => -(select count(*) from old_rows));
  return null;
end;
$$;
revoke all on function private.admin_totals_profiles_del() from public;

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
revoke all on function private.admin_totals_plans_ins() from public;

create or replace function private.admin_totals_plans_upd() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(
    _active_plans => (select count(*) from new_rows where auto_renew) - (select count(*) from old_rows where auto_renew)
  );
  return null;
end;
$$;
revoke all on function private.admin_totals_plans_upd() from public;

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
revoke all on function private.admin_totals_plans_del() from public;

-- billing_history
create or replace function private.admin_totals_billing_ins() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(_revenue => (select coalesce(sum(amount), 0) from new_rows));
  return null;
end;
$$;
revoke all on function private.admin_totals_billing_ins() from public;

create or replace function private.admin_totals_billing_upd() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(
    _revenue => (select coalesce(sum(amount), 0) from new_rows) - (select coalesce(sum(amount), 0) from old_rows)
  );
  return null;
end;
$$;
revoke all on function private.admin_totals_billing_upd() from public;

create or replace function private.admin_totals_billing_del() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(_revenue => -(select coalesce(sum(amount), 0) from old_rows));
  return null;
end;
$$;
revoke all on function private.admin_totals_billing_del() from public;

-- support_tickets
create or replace function private.admin_totals_tickets_ins() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(_open_tickets => (select count(*) from new_rows where status = 'open'));
  return null;
end;
$$;
revoke all on function private.admin_totals_tickets_ins() from public;

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
revoke all on function private.admin_totals_tickets_upd() from public;

create or replace function private.admin_totals_tickets_del() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_admin_totals(_open_tickets => -(select count(*) from old_rows where status = 'open'));
  return null;
end;
$$;
revoke all on function private.admin_totals_tickets_del() from public;

-- TRUNCATE has no transition tables; recomputing is simplest and correct (truncate ... cascade fires
-- this on every truncated table).
create or replace function private.admin_totals_truncated() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.refresh_admin_totals();
  return null;
end;
$$;
revoke all on function private.admin_totals_truncated() from public;

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
comment on function public.admin_overview() is 'Admins only (42501 otherwise): total profiles, Active Users (plans with auto_renew), Total Revenue, open tickets.';
revoke all on function public.admin_overview() from public;
grant execute on function public.admin_overview() to authenticated;

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
comment on function public.admin_list_users(text,integer,integer) is 'Admins only (42501 otherwise): profiles newest first, optional full-name substring search, limit 1..100, with the total count of the list on every row.';
revoke all on function public.admin_list_users(text,integer,integer) from public;
grant execute on function public.admin_list_users(text,integer,integer) to authenticated;

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
comment on function public.admin_list_plans(integer,integer) is 'Admins only (42501 otherwise): user plans newest first with the owner''s full name, limit 1..100, with the total count on every row.';
revoke all on function public.admin_list_plans(integer,integer) from public;
grant execute on function public.admin_list_plans(integer,integer) to authenticated;

-- Admin: suspend (with a reason the owner sees) or lift a suspension. The audit trigger records who.
create or replace function public.admin_set_business_suspension(_business_id uuid, _suspended boolean, _reason text default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_reason text := nullif(btrim(coalesce(_reason, '')), '');
begin
  perform private.assert_admin();
  if _suspended and (v_reason is null or char_length(v_reason) > 500) then
    raise exception 'give the owner a reason (1 to 500 characters)' using errcode = '22023';
  end if;
  update public.businesses b
     set suspended_at = case when _suspended then coalesce(b.suspended_at, now()) end,
         suspended_reason = case when _suspended then v_reason end
   where b.id = _business_id;
  if not found then
    raise exception 'no such business' using errcode = 'P0002';
  end if;
end;
$$;
revoke all on function public.admin_set_business_suspension(uuid,boolean,text) from public;
grant execute on function public.admin_set_business_suspension(uuid,boolean,text) to authenticated;

create or replace function public.admin_platform_events(
  _kind text default null,
  _before_at timestamptz default null,
  _before_id text default null,
  _limit integer default 50
)
returns table (event_id text, kind text, at timestamptz, user_id uuid, business_id uuid, subject text, detail text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_limit integer := least(greatest(coalesce(_limit, 50), 1), 200);
begin
  if not public.is_admin((select auth.uid())) then
    raise exception 'admins only' using errcode = '42501';
  end if;
  if _kind is not null and _kind not in ('signup', 'plan', 'suspension') then
    raise exception 'unknown event kind: %', _kind using errcode = '22023';
  end if;
  if (_before_at is null) <> (_before_id is null) then
    raise exception 'a page starts after both a time and an event id' using errcode = '22023';
  end if;
  -- One more row than asked: the screen knows there is a next page without counting the whole history.
  return query
  select e.event_id, e.kind, e.at, e.user_id, e.business_id, e.subject, e.detail
    from (
      (select 'signup:' || p.id::text as event_id, 'signup'::text as kind, p.created_at as at, p.id as user_id,
              null::uuid as business_id, coalesce(p.full_name, 'A new account') as subject,
              coalesce(p.business_name, '') as detail
         from public.profiles p
        where (_kind is null or _kind = 'signup')
          and (_before_at is null or (p.created_at, 'signup:' || p.id::text) < (_before_at, _before_id))
        order by p.created_at desc, p.id desc
        limit v_limit + 1)
      union all
      (select 'plan:' || lpad(pe.id::text, 20, '0'), 'plan', pe.at, pe.user_id, null::uuid,
              coalesce(p.full_name, 'An account'),
              case when pe.old_plan is null then format('%s (%s)', pe.new_plan, pe.new_status)
                   else format('%s (%s) -> %s (%s)', pe.old_plan, pe.old_status, pe.new_plan, pe.new_status) end
         from private.plan_events pe
         left join public.profiles p on p.id = pe.user_id
        where (_kind is null or _kind = 'plan')
          and (_before_at is null or (pe.at, 'plan:' || lpad(pe.id::text, 20, '0')) < (_before_at, _before_id))
        order by pe.at desc, pe.id desc
        limit v_limit + 1)
      union all
      (select 'suspension:' || lpad(a.id::text, 20, '0'), 'suspension', a.at, a.actor_id, a.business_id,
              coalesce(b.name::text, 'A business'),
              case when a.kind = 'business.suspended'
                   then 'Suspended: ' || coalesce(a.after ->> 'suspended_reason', 'no reason given')
                   else 'Suspension lifted' end
         from public.activity a
         left join public.businesses b on b.id = a.business_id
        where a.kind in ('business.suspended', 'business.unsuspended')
          and (_kind is null or _kind = 'suspension')
          and (_before_at is null or (a.at, 'suspension:' || lpad(a.id::text, 20, '0')) < (_before_at, _before_id))
        order by a.at desc, a.id desc
        limit v_limit + 1)
    ) e
   order by e.at desc, e.event_id desc
   limit v_limit + 1;
end;
$$;
comment on function public.admin_platform_events(text,timestamp with time zone,text,integer) is 'Admins only (42501 otherwise): sign-ups, plan changes and suspensions, newest first, keyset paged.';
revoke all on function public.admin_platform_events(text,timestamp with time zone,text,integer) from public;
grant execute on function public.admin_platform_events(text,timestamp with time zone,text,integer) to authenticated;
grant execute on function public.admin_platform_events(text,timestamp with time zone,text,integer) to service_role;

create or replace function public.admin_billing_overview(_days int default 7)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_days int := least(greatest(coalesce(_days, 7), 1), 90);
  v_now timestamptz := now();
  v_result jsonb;
begin
  perform private.assert_admin();

  with by_group as (
    select up.plan_name, up.status, up.billing_cycle,
           count(*) as subscriptions,
           coalesce(sum(up.price), 0)::numeric(14, 2) as monthly_value
      from public.user_plans up
     group by up.plan_name, up.status, up.billing_cycle
  ),
  ending as (
    select up.user_id, p.full_name as owner_name, up.plan_name, up.price, up.next_billing_date as trial_ends_at
      from public.user_plans up
      left join public.profiles p on p.id = up.user_id
     where up.status = 'trialing'
       and up.next_billing_date >= v_now
       and up.next_billing_date < v_now + make_interval(days => v_days)
  )
  select jsonb_build_object(
    'as_of', v_now,
    'days', v_days,
    'mrr', (select coalesce(sum(g.monthly_value), 0) from by_group g where g.status in ('active', 'past_due')),
    'at_risk_mrr', (select coalesce(sum(g.monthly_value), 0) from by_group g where g.status = 'past_due'),
    'trial_mrr', (select coalesce(sum(g.monthly_value), 0) from by_group g where g.status = 'trialing'),
    'paying_subscriptions', (select coalesce(sum(g.subscriptions), 0) from by_group g
                              where g.status in ('active', 'past_due')),
    'total_subscriptions', (select coalesce(sum(g.subscriptions), 0) from by_group g),
    'groups', coalesce((select jsonb_agg(jsonb_build_object(
                                 'plan_name', g.plan_name, 'status', g.status, 'billing_cycle', g.billing_cycle,
                                 'subscriptions', g.subscriptions, 'monthly_value', g.monthly_value)
                               order by g.plan_name, g.status, g.billing_cycle)
                          from by_group g), '[]'::jsonb),
    'trials_ending_count', (select count(*) from ending),
    'trials_ending', coalesce((select jsonb_agg(to_jsonb(e) order by e.trial_ends_at, e.user_id)
                                 from (select * from ending order by trial_ends_at, user_id limit 100) e), '[]'::jsonb)
  ) into v_result;
  return v_result;
end;
$$;
comment on function public.admin_billing_overview(integer) is 'Admins only (42501 otherwise): subscriptions by plan, status and cycle with their monthly value; MRR (active + past_due, price is per month), at-risk and trial MRR; trials ending within _days (1..90, default 7).';
revoke all on function public.admin_billing_overview(integer) from public;
grant execute on function public.admin_billing_overview(integer) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Admin: what billing collected over the last _days (1..366), from the provider's subscriptions and invoices
-- (the Billing Overview's second half; admin_billing_overview keeps the recurring revenue by plan). Admins only.
create or replace function public.admin_billing_collections(_days int default 30)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_since timestamptz := now() - make_interval(days => least(greatest(coalesce(_days, 30), 1), 366));
  v_result jsonb;
begin
  perform private.assert_admin();
  select jsonb_build_object(
    'days', least(greatest(coalesce(_days, 30), 1), 366),
    'trials_started', (select count(*) from public.billing_subscriptions s where s.trial_start >= v_since),
    -- A trial converted when its subscription went on to a paid status after the trial.
    'trials_converted', (select count(*) from public.billing_subscriptions s
                          where s.trial_start >= v_since and s.status in ('active', 'past_due')
                            and s.current_period_start >= s.trial_end),
    'trialing', (select count(*) from public.billing_subscriptions s where s.status = 'trialing'),
    'past_due', (select count(*) from public.billing_subscriptions s where s.status = 'past_due'),
    'churned', (select count(*) from public.billing_subscriptions s
                 where s.status in ('canceled', 'unpaid', 'incomplete_expired') and coalesce(s.ended_at, s.canceled_at, s.updated_at) >= v_since),
    'collected', (select coalesce(sum(h.amount), 0) from public.billing_history h
                   where h.provider_invoice_id is not null and h.status = 'paid' and h.date >= v_since),
    'failed_payments', (select count(*) from public.billing_history h
                         where h.provider_invoice_id is not null and h.status = 'failed' and h.date >= v_since),
    'failed_amount', (select coalesce(sum(h.amount), 0) from public.billing_history h
                       where h.provider_invoice_id is not null and h.status = 'failed' and h.date >= v_since),
    'refunds', (select count(*) from public.billing_history h
                 where h.provider_invoice_id is not null and h.status = 'refunded' and h.date >= v_since),
    'refunded_amount', (select coalesce(sum(h.amount), 0) from public.billing_history h
                         where h.provider_invoice_id is not null and h.status = 'refunded' and h.date >= v_since),
    'webhook_failures', (select count(*) from public.billing_events e where e.processed_at is null and e.last_error is not null),
    'signature_failures', (select coalesce(sum(f.failures), 0) from private.billing_signature_failures f
                            where f.day >= (now() - interval '1 day')::date),
    'last_signature_failure', (select max(f.last_at) from private.billing_signature_failures f))
  into v_result;
  return v_result;
end;
$$;
comment on function public.admin_billing_collections(integer) is 'Admins only (42501): trials and conversions, past due, churn, collected, failed and refunded payments over _days.';
revoke all on function public.admin_billing_collections(integer) from public;
grant execute on function public.admin_billing_collections(integer) to authenticated;

-- An administrator (with a second factor) removes a user's two-factor sign-in, e.g. after a lost phone with no
-- recovery codes left. Deleting auth.mfa_factors rows is Supabase's documented reset; written to the trail.
create or replace function public.admin_reset_two_factor(_user_id uuid)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_removed integer;
begin
  perform private.assert_admin();
  perform private.assert_aal2();
  if not exists (select 1 from auth.users u where u.id = _user_id) then
    raise exception 'no such user' using errcode = 'P0002';
  end if;
  delete from auth.mfa_factors f where f.user_id = _user_id;
  get diagnostics v_removed = row_count;
  delete from private.mfa_recovery_codes c where c.user_id = _user_id;
  insert into private.account_security_events (user_id, actor_id, kind)
  values (_user_id, (select auth.uid()), 'mfa.reset_by_admin');
  return v_removed;
end;
$$;
revoke all on function public.admin_reset_two_factor(uuid) from public;
grant execute on function public.admin_reset_two_factor(uuid) to authenticated;

create or replace function public.admin_list_businesses(_search text default null, _limit int default 20, _offset int default 0)
returns table (
  id uuid, name text, type text, owner_id uuid, owner_name text, owner_email text, plan text, plan_status text,
  stores bigint, members bigint, created_at timestamptz, suspended_at timestamptz, suspended_reason text,
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
begin
  perform private.assert_admin();
  if char_length(v_search) > 100 then
    raise exception 'search text is too long (100 characters at most)' using errcode = '22023';
  end if;
  v_pattern := case when v_search is null then null
                    else '%' || replace(replace(replace(v_search, '\', '\\'), '%', '\%'), '_', '\_') || '%' end;
  return query
    with page as materialized (
      select b.id, count(*) over () as total
        from public.businesses b
       where v_pattern is null or b.name ilike v_pattern
          or b.owner_id in (select p.id from public.profiles p where p.full_name ilike v_pattern)
       order by b.created_at desc, b.id
       limit v_limit offset v_offset
    )
    select b.id, b.name::text, b.type::text, b.owner_id, p.full_name, u.email::text,
           e.plan,
           case when e.plan = 'Free' and e.status = 'trialing' then 'expired' else nullif(e.status, 'none') end,
           (select count(*) from public.stores s where s.business_id = b.id and s.archived_at is null),
           (select count(*) from public.business_members m where m.business_id = b.id),
           b.created_at, b.suspended_at, b.suspended_reason::text, page.total
      from page
      join public.businesses b on b.id = page.id
      left join public.profiles p on p.id = b.owner_id
      left join auth.users u on u.id = b.owner_id
      cross join lateral private.business_entitlement(b.id) e
     order by b.created_at desc, b.id;
end;
$$;
revoke all on function public.admin_list_businesses(text,integer,integer) from public;
grant execute on function public.admin_list_businesses(text,integer,integer) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Admin: the latest report of every store PC seen in the last _days days, newest first, with the business name,
-- and how many devices run each version (the rollout at a glance) on every row.
create or replace function public.admin_desktop_versions(_days int default 30, _limit int default 50, _offset int default 0)
returns table (
  business_id uuid,
  business_name text,
  device_id uuid,
  app_version text,
  channel text,
  platform text,
  arch text,
  reported_at timestamptz,
  devices_on_version bigint,
  total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_days int := least(greatest(coalesce(_days, 30), 1), 365);
  v_limit int := least(greatest(coalesce(_limit, 50), 1), 200);
  v_offset int := greatest(coalesce(_offset, 0), 0);
begin
  perform private.assert_admin();
  return query
    with latest as (
      select distinct on (h.business_id, h.device_id)
             h.business_id, h.device_id, h.app_version, h.channel, h.platform, h.arch, h.reported_at
        from public.desktop_heartbeats h
       where h.reported_at >= now() - make_interval(days => v_days)
       order by h.business_id, h.device_id, h.reported_at desc
    )
    select l.business_id, b.name::text, l.device_id, l.app_version, l.channel, l.platform, l.arch, l.reported_at,
           count(*) over (partition by l.app_version), count(*) over ()
      from latest l
      join public.businesses b on b.id = l.business_id
     order by l.reported_at desc, l.device_id
     limit v_limit offset v_offset;
end;
$$;
comment on function public.admin_desktop_versions(integer,integer,integer) is 'Admins only (42501 otherwise): the latest heartbeat of each store PC seen in the last 1..365 days, newest first, with the count of devices per version and the total on every row.';
revoke all on function public.admin_desktop_versions(integer,integer,integer) from public;
grant execute on function public.admin_desktop_versions(integer,integer,integer) to authenticated;

create or replace function public.admin_business_deletions()
returns table (business_id uuid, business_name text, country text, state text, step text, requested_at timestamp with time zone,
               erase_after timestamp with time zone, legal_hold boolean, legal_hold_reason text,
               erased_at timestamp with time zone, retain_until timestamp with time zone, purged_at timestamp with time zone)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  return query
    select d.business_id, d.business_name, d.country, d.state, d.step, d.requested_at, d.erase_after, d.legal_hold,
           d.legal_hold_reason, d.erased_at, d.retain_until, d.purged_at
      from private.business_deletions d
     where d.state <> 'canceled'
     order by d.requested_at desc
     limit 500;
end;
$$;
revoke all on function public.admin_business_deletions() from public;
grant execute on function public.admin_business_deletions() to authenticated;

create or replace function public.admin_business_erasure_proofs(_business_id uuid)
returns table (what text, rows_affected integer, at timestamp with time zone)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  return query select p.what, p.rows_affected, p.at from private.business_erasure_proofs p
                where p.business_id = _business_id order by p.at, p.id;
end;
$$;
revoke all on function public.admin_business_erasure_proofs(uuid) from public;
grant execute on function public.admin_business_erasure_proofs(uuid) to authenticated;

-- A legal hold (litigation, an authority's request) stops the erasure and the purge until it is lifted.
create or replace function public.admin_set_legal_hold(_business_id uuid, _hold boolean, _reason text default null)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  perform private.assert_aal2_if_enrolled();
  if _hold and (_reason is null or char_length(btrim(_reason)) not between 3 and 500) then
    raise exception 'give the reason for the hold (3 to 500 characters)' using errcode = '22023';
  end if;
  update private.business_deletions d
     set legal_hold = _hold, legal_hold_reason = case when _hold then btrim(_reason) end, updated_at = now()
   where d.business_id = _business_id and d.state <> 'canceled';
  if not found then
    raise exception 'no deletion of this business' using errcode = 'P0002';
  end if;
  insert into private.business_erasure_proofs (business_id, what, rows_affected)
  values (_business_id, case when _hold then 'legal hold placed' else 'legal hold lifted' end, 0);
end;
$$;
revoke all on function public.admin_set_legal_hold(uuid,boolean,text) from public;
grant execute on function public.admin_set_legal_hold(uuid,boolean,text) to authenticated;

-- ==== Triggers ============================================================================================

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
