-- Billing: the customer's plan (user_plans), billing history and payment methods, the plan catalog and its
-- limits, trials and the plan events the admin panel lists.
-- Invariants: a user has at most one plan row; only the service role writes billing_history and payment_methods;
-- plan limits are enforced in the database (private.assert_plan_allows), not only in the screens.
--
-- Written by scripts/schema-extract.ts from the migrations and kept equal to them by
-- tests/hosted/schema-files.test.ts: change an object here, then generate its migration (README, Contributing).

-- Function bodies are checked when they run, not when created: the files need no order among functions.
set check_function_bodies = off;

-- ==== Tables: columns, constraints, row level security, grants and comments ===============================

create table public.user_plans (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  plan_name text not null,
  price numeric(12,2) default 0 not null,
  billing_cycle text default 'annual'::text not null,
  status text default 'trialing'::text not null,
  auto_renew boolean default true not null,
  started_at timestamp with time zone default now() not null,
  next_billing_date timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint user_plans_pkey primary key (id),
  constraint user_plans_user_id_key unique (user_id),
  constraint user_plans_billing_cycle_check check ((billing_cycle = any (array['monthly'::text, 'annual'::text]))),
  constraint user_plans_plan_name_check check ((plan_name = any (array['Free'::text, 'Starter'::text, 'Growth'::text, 'Pro'::text, 'Enterprise'::text]))),
  constraint user_plans_price_check check ((price >= (0)::numeric)),
  constraint user_plans_status_check check ((status = any (array['trialing'::text, 'active'::text, 'past_due'::text, 'canceled'::text, 'expired'::text]))),
  constraint user_plans_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table public.user_plans enable row level security;
comment on table public.user_plans is 'Owner reads own plan and updates auto_renew only; plans are chosen through choose_plan(); admins read all.';
grant delete, insert, select, update on table public.user_plans to service_role;
grant select on table public.user_plans to authenticated;
grant update (auto_renew) on table public.user_plans to authenticated;

create table public.billing_history (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  amount numeric(12,2) not null,
  date timestamp with time zone default now() not null,
  status text not null,
  description text default ''::text not null,
  invoice_url text,
  created_at timestamp with time zone default now() not null,
  constraint billing_history_pkey primary key (id),
  constraint billing_history_amount_check check ((amount >= (0)::numeric)),
  constraint billing_history_description_check check ((char_length(description) <= 500)),
  constraint billing_history_invoice_url_check check (((invoice_url is null) or (invoice_url ~ '^https?://'::text))),
  constraint billing_history_status_check check ((status = any (array['paid'::text, 'pending'::text, 'failed'::text, 'refunded'::text]))),
  constraint billing_history_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table public.billing_history enable row level security;
comment on table public.billing_history is 'Owner reads own rows; admins read all; only the service role writes.';
grant delete, insert, select, update on table public.billing_history to service_role;
grant select on table public.billing_history to authenticated;

create table public.payment_methods (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  type text not null,
  last_four text not null,
  expiry text,
  is_default boolean default false not null,
  created_at timestamp with time zone default now() not null,
  constraint payment_methods_pkey primary key (id),
  constraint payment_methods_expiry_check check (((expiry is null) or (expiry ~ '^(0[1-9]|1[0-2])/[0-9]{2}$'::text))),
  constraint payment_methods_last_four_check check ((last_four ~ '^[0-9]{4}$'::text)),
  constraint payment_methods_type_check check ((type = any (array['visa'::text, 'mastercard'::text, 'mobile'::text, 'wallet'::text, 'other'::text]))),
  constraint payment_methods_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table public.payment_methods enable row level security;
comment on table public.payment_methods is 'Owner reads own rows; only the service role writes.';
grant delete, insert, select, update on table public.payment_methods to service_role;
grant select on table public.payment_methods to authenticated;

create table private.plan_events (
  id bigint generated always as identity not null,
  user_id uuid not null,
  old_plan text,
  old_status text,
  new_plan text not null,
  new_status text not null,
  at timestamp with time zone default now() not null,
  constraint plan_events_pkey primary key (id),
  constraint plan_events_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table private.plan_events enable row level security;
comment on table private.plan_events is 'Plan history for the admin Activity Logs; written only by private.record_plan_event, read through public.admin_platform_events. Not exposed to the API roles.';

create table private.business_trials (
  business_id uuid not null,
  user_id uuid not null,
  started_at timestamp with time zone default now() not null,
  constraint business_trials_pkey primary key (business_id),
  constraint business_trials_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table private.business_trials enable row level security;
comment on table private.business_trials is 'One row per business that had its free trial, with the owner who started it. Read by plan_limits and choose_plan only (no API role has any grant); a trial never starts twice for a business.';

-- ==== Indexes =============================================================================================

create index user_plans_created_at_idx on public.user_plans (created_at desc, id);

create index billing_history_user_date_idx on public.billing_history (user_id, date desc);

create index payment_methods_user_created_idx on public.payment_methods (user_id, created_at desc);

create unique index payment_methods_one_default_idx on public.payment_methods (user_id) where is_default;

create index plan_events_at_idx on private.plan_events (at desc, id desc);

create index plan_events_user_idx on private.plan_events (user_id);

-- Trials ending soon: a range on next_billing_date among trialing rows only, so the list does not scan every plan.
create index if not exists user_plans_trial_end_idx on public.user_plans (next_billing_date)
  where status = 'trialing';

-- ==== Functions ===========================================================================================

-- Raises SW001 (HTTP 400) when the business cannot have one more of _what. Takes the business row lock
-- first, so two concurrent creations are counted one after the other and cannot both pass the limit.
create or replace function private.assert_plan_allows(_business_id uuid, _what text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_limits record;
  v_used bigint;
  v_max int;
begin
  perform 1 from public.businesses b where b.id = _business_id for update;
  select * into v_limits from private.plan_limits(_business_id);
  if _what = 'stores' then
    v_max := v_limits.max_stores;
    select count(*) into v_used from public.stores s where s.business_id = _business_id and s.archived_at is null;
  elsif _what = 'members' then
    v_max := v_limits.max_members;
    select count(*) into v_used from public.business_members m where m.business_id = _business_id;
  else
    raise exception 'unknown limit %', _what;
  end if;
  if v_max is not null and v_used >= v_max then
    raise exception 'plan limit reached: the % plan allows % %', v_limits.plan, v_max,
        case when _what = 'members' then 'person (the owner alone)' else _what end
      using errcode = 'SW001',
            detail = format('%s:%s/%s', _what, v_used, v_max),
            hint = case when _what = 'members' then 'Choose a paid plan to invite your team.'
                        else 'Archive a store or upgrade your plan to add another.' end;
  end if;
end;
$$;
revoke all on function private.assert_plan_allows(uuid,text) from public;

-- The account hears when its plan or its plan's status changes (billing back office, admin, trial end).
-- Only updates: the first plan row is the sign-up's own choice (and bulk seeds insert plans by the thousand).
create or replace function private.notify_plan_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.plan_name is not distinct from old.plan_name and new.status is not distinct from old.status then
    return new;
  end if;
  insert into public.notifications (user_id, kind, title, body, link)
  values (new.user_id, 'plan.changed',
          case when new.plan_name is distinct from old.plan_name
               then format('Your plan changed from %s to %s', old.plan_name, new.plan_name)
               else format('Your %s plan is now %s', new.plan_name, replace(new.status, '_', ' ')) end,
          case when new.status in ('canceled', 'expired')
               then 'Your business is on the Free plan''s limits now; nothing was deleted.'
               else 'Your limits follow the new plan from now on.' end,
          '/dashboard/billing');
  return new;
end;
$$;
revoke all on function private.notify_plan_changed() from public;

-- Trial ending soon: the caller's trial when it ends within 3 days (read by the bell; nothing is stored).
create or replace function public.my_trial_notice()
returns table (plan_name text, trial_ends_at timestamptz, days_left integer)
language sql
stable
security invoker
set search_path = ''
as $$
  select up.plan_name, up.next_billing_date,
         greatest(0, ceil(extract(epoch from (up.next_billing_date - now())) / 86400))::integer
    from public.user_plans up
   where up.user_id = (select auth.uid())
     and up.status = 'trialing'
     and up.next_billing_date is not null
     and up.next_billing_date > now()
     and up.next_billing_date <= now() + interval '3 days';
$$;
comment on function public.my_trial_notice() is 'The signed-in user''s trial when it ends within 3 days; reads user_plans under its own-row policy.';
revoke all on function public.my_trial_notice() from public;
grant execute on function public.my_trial_notice() to authenticated;
grant execute on function public.my_trial_notice() to service_role;

create or replace function private.record_plan_event()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.plan_name is not distinct from old.plan_name and new.status is not distinct from old.status then
    return null;
  end if;
  insert into private.plan_events (user_id, old_plan, old_status, new_plan, new_status)
  values (new.user_id, case when tg_op = 'UPDATE' then old.plan_name end, case when tg_op = 'UPDATE' then old.status end,
          new.plan_name, new.status);
  return null;
end;
$$;
revoke all on function private.record_plan_event() from public;

-- Limits of a plan by name. Null means unlimited. Free is also what no plan, canceled or expired means.
create or replace function private.plan_limits_of(_plan text)
returns table (max_stores int, max_products int, max_members int)
language sql
immutable
set search_path = ''
as $$
  select case _plan when 'Free' then 1 when 'Starter' then 1 when 'Growth' then 3 when 'Pro' then 10 end,
         case _plan when 'Free' then 25 when 'Starter' then 100 when 'Growth' then 300 end,
         case _plan when 'Free' then 1 end;
$$;
revoke all on function private.plan_limits_of(text) from public;
grant execute on function private.plan_limits_of(text) to authenticated;
grant execute on function private.plan_limits_of(text) to service_role;

-- The per-month price of a self-service plan (billed annually); null for any other name.
create or replace function private.plan_price(_plan text)
returns numeric(12, 2)
language sql
immutable
set search_path = ''
as $$
  select case _plan when 'Starter' then 9.99 when 'Growth' then 29.99 when 'Pro' then 99.99 end::numeric(12, 2);
$$;
revoke all on function private.plan_price(text) from public;
grant execute on function private.plan_price(text) to authenticated;
grant execute on function private.plan_price(text) to service_role;

-- Every plan with its price and limits, for the chooser. Reads no table; any signed-in user may ask.
create or replace function public.plan_catalog()
returns table (plan text, price numeric, max_stores int, max_products int, max_members int, self_service boolean)
language sql
stable
security invoker
set search_path = ''
as $$
  select n.plan, case when n.plan = 'Free' then 0 else private.plan_price(n.plan) end,
         l.max_stores, l.max_products, l.max_members, private.plan_price(n.plan) is not null
    from unnest(array['Free', 'Starter', 'Growth', 'Pro', 'Enterprise']) with ordinality as n (plan, position)
    cross join lateral private.plan_limits_of(n.plan) l
   order by n.position;
$$;
comment on function public.plan_catalog() is 'Plans with price per month and limits (null = unlimited), from the tables plan_limits and choose_plan use.';
revoke all on function public.plan_catalog() from public;
grant execute on function public.plan_catalog() to authenticated;
grant execute on function public.plan_catalog() to service_role;

-- A plan row that starts trialing marks the businesses its user owns as having had their trial.
create or replace function private.record_business_trial()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'trialing' and (tg_op = 'INSERT' or old.status is distinct from 'trialing') then
    insert into private.business_trials (business_id, user_id, started_at)
    select b.id, new.user_id, new.started_at from public.businesses b where b.owner_id = new.user_id
    on conflict (business_id) do nothing;
  end if;
  return null;
end;
$$;
comment on function private.record_business_trial() is 'Trigger on user_plans: a plan that starts trialing records the trial of each business its user owns.';
revoke all on function private.record_business_trial() from public;

-- Whether a plan row gives its plan to a business now: paid states always; a trial only before its end date and
-- only for the business whose owner started it (a trial does not follow its user to a business they take over).
create or replace function private.plan_is_live(_plan public.user_plans, _business_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select _plan.status in ('active', 'past_due')
      or (_plan.status = 'trialing' and _plan.next_billing_date > now()
          and exists (select 1 from private.business_trials t
                       where t.business_id = _business_id and t.user_id = _plan.user_id));
$$;
comment on function private.plan_is_live(public.user_plans,uuid) is 'True when the plan row applies to the business now (active or past due, or a trial before its end started for that business). The one rule behind plan_limits and my_plan.';
revoke all on function private.plan_is_live(public.user_plans,uuid) from public;

-- Same contract as 20261123100100_workspace_plan_chooser.sql; a trial counts only while private.plan_is_live.
create or replace function private.plan_limits(_business_id uuid)
returns table (plan text, max_stores int, max_products int, max_members int)
language sql
stable
security definer
set search_path = ''
as $$
  select p.plan, l.max_stores, l.max_products, l.max_members
    from (
      select coalesce((
        select up.plan_name
          from public.businesses b
          join public.user_plans up on up.user_id = b.owner_id
         where b.id = _business_id and private.plan_is_live(up, b.id)
      ), 'Free') as plan
    ) p
    cross join lateral private.plan_limits_of(p.plan) l;
$$;
comment on function private.plan_limits(uuid) is 'The plan in force for a business and its limits (null = unlimited; max_products counts sellable items). Free without a live plan: none, canceled, expired, or a trial past its end.';
revoke all on function private.plan_limits(uuid) from public;

-- The billing page's plan card: the caller's plan row as stored, except that a trial past its end (or one that
-- does not apply to the business they own) reads as expired, and effective_plan is the plan whose limits apply.
create or replace function public.my_plan()
returns table (plan_name text, price numeric, billing_cycle text, status text, auto_renew boolean,
               started_at timestamptz, next_billing_date timestamptz, effective_plan text)
language sql
stable
security definer
set search_path = ''
as $$
  select up.plan_name, up.price, up.billing_cycle,
         case when up.status = 'trialing' and not live.ok then 'expired' else up.status end,
         up.auto_renew, up.started_at, up.next_billing_date,
         case when live.ok then up.plan_name else 'Free' end
    from public.user_plans up
    cross join lateral (
      select case when up.status = 'trialing'
                  then coalesce((select bool_or(private.plan_is_live(up, b.id)) from public.businesses b
                                  where b.owner_id = up.user_id), up.next_billing_date > now())
                  else private.plan_is_live(up, null) end as ok
    ) live
   where up.user_id = (select auth.uid());
$$;
comment on function public.my_plan() is 'The signed-in user''s plan row for the billing page: an ended trial reads as expired; effective_plan is the plan whose limits apply (Free when none is live).';
revoke all on function public.my_plan() from public;
grant execute on function public.my_plan() to authenticated;

-- Raises SW001 when adding _adding sellable items (unarchived variants of unarchived products) would pass the
-- plan's max_products. Under the business row lock, so concurrent creations are counted one after the other.
create or replace function private.assert_items_allow(_business_id uuid, _adding bigint)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_limits record;
  v_used bigint;
begin
  select * into v_limits from private.plan_limits(_business_id);
  if v_limits.max_products is null or _adding <= 0 then
    return;
  end if;
  perform 1 from public.businesses b where b.id = _business_id for update;
  select count(*) into v_used
    from public.variants v join public.products p on p.id = v.product_id
   where v.business_id = _business_id and v.archived_at is null and p.archived_at is null;
  if v_used + _adding > v_limits.max_products then
    raise exception 'plan limit reached: the % plan allows % items (each size or colour you sell counts as one)',
        v_limits.plan, v_limits.max_products
      using errcode = 'SW001',
            detail = format('products:%s/%s', v_used, v_limits.max_products),
            hint = 'Archive an item or upgrade your plan to add another.';
  end if;
end;
$$;
comment on function private.assert_items_allow(uuid,bigint) is 'Plan limit on sellable items (variants): SW001 when adding _adding would pass private.plan_limits.max_products.';
revoke all on function private.assert_items_allow(uuid,bigint) from public;

-- Each new or restored variant of a product on sale is one more sellable item.
create or replace function private.variants_plan_limit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.archived_at is null and (tg_op = 'INSERT' or old.archived_at is not null)
     and exists (select 1 from public.products p where p.id = new.product_id and p.archived_at is null) then
    perform private.assert_items_allow(new.business_id, 1);
  end if;
  return new;
end;
$$;
comment on function private.variants_plan_limit() is 'Trigger on variants: creating or restoring a sellable variant is limited by the plan (SW001).';
revoke all on function private.variants_plan_limit() from public;

-- my_plan_usage (20261123100100): products_used now counts sellable items, as the limit does.
create or replace function public.my_plan_usage()
returns table (business_id uuid, business_name text, stores_used bigint, products_used bigint, members_used bigint)
language sql
stable
security definer
set search_path = ''
as $$
  select b.id, b.name::text,
         (select count(*) from public.stores s where s.business_id = b.id and s.archived_at is null),
         (select count(*) from public.variants v join public.products p on p.id = v.product_id
           where v.business_id = b.id and v.archived_at is null and p.archived_at is null),
         (select count(*) from public.business_members m where m.business_id = b.id)
    from public.businesses b
   where b.owner_id = (select auth.uid())
   order by b.name, b.id;
$$;
comment on function public.my_plan_usage() is 'The signed-in owner''s businesses with stores, sellable items (products_used) and members in use.';
revoke all on function public.my_plan_usage() from public;
grant execute on function public.my_plan_usage() to authenticated;
grant execute on function public.my_plan_usage() to service_role;

-- choose_plan (20261123100100): a first plan starts a 7-day trial, unless a business the caller owns already had
-- one (it was taken over from an owner who trialed it); switching plans keeps status and dates, as before.
-- Issue 26: a caller with an authenticator must have given its code in this session (docs/adr/0207).
create or replace function public.choose_plan(_plan_name text)
returns public.user_plans
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_price numeric(12, 2) := private.plan_price(_plan_name);
  v_plan public.user_plans;
begin
  perform private.assert_aal2_if_enrolled();
  if v_uid is null then
    raise exception 'sign in to choose a plan' using errcode = '42501';
  end if;
  if v_price is null then
    raise exception 'unknown plan: %', coalesce(_plan_name, 'null')
      using errcode = 'P0001', hint = 'Choose Starter, Growth or Pro; Enterprise is sold by our sales team.';
  end if;
  if not exists (select 1 from public.user_plans up where up.user_id = v_uid)
     and exists (select 1 from private.business_trials t join public.businesses b on b.id = t.business_id
                  where b.owner_id = v_uid) then
    raise exception 'your business already had its free trial, so choosing a plan cannot start another'
      using errcode = 'SW002',
            hint = 'Paid plans are not sold in the app yet: contact support to subscribe.';
  end if;
  insert into public.user_plans as p (user_id, plan_name, price, billing_cycle, status, auto_renew,
                                      started_at, next_billing_date)
  values (v_uid, _plan_name, v_price, 'annual', 'trialing', true, now(), now() + interval '7 days')
  on conflict (user_id) do update
    set plan_name = excluded.plan_name,
        price = excluded.price
  returning * into v_plan;
  return v_plan;
end;
$$;
comment on function public.choose_plan(text) is 'The signed-in user picks Starter, Growth or Pro: a first choice starts a 7-day trial (once per business, SW002 otherwise); later choices change plan and price only.';
revoke all on function public.choose_plan(text) from public;
grant execute on function public.choose_plan(text) to authenticated;

-- ==== Triggers ============================================================================================

create trigger user_plans_set_updated_at before update on public.user_plans
  for each row execute function public.set_updated_at();

create trigger user_plans_notify_changed after update of plan_name, status on public.user_plans
  for each row execute function private.notify_plan_changed();

create trigger user_plans_record_event after insert or update of plan_name, status on public.user_plans
  for each row execute function private.record_plan_event();

create trigger user_plans_record_trial after insert or update of status on public.user_plans
  for each row execute function private.record_business_trial();

-- ==== Policies ============================================================================================

create policy "user_plans: owner or admin reads" on public.user_plans
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin((select auth.uid()))));

create policy "user_plans: owner updates own" on public.user_plans
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy "billing_history: owner or admin reads" on public.billing_history
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin((select auth.uid()))));

create policy "payment_methods: owner reads" on public.payment_methods
  for select to authenticated
  using (user_id = (select auth.uid()));
