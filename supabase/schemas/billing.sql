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
  provider_invoice_id text,
  business_id uuid,
  provider_subscription_id text,
  synced_at timestamp with time zone,
  constraint billing_history_pkey primary key (id),
  constraint billing_history_provider_invoice_id_key unique (provider_invoice_id),
  constraint billing_history_amount_check check ((amount >= (0)::numeric)),
  constraint billing_history_description_check check ((char_length(description) <= 500)),
  constraint billing_history_invoice_url_check check (((invoice_url is null) or (invoice_url ~ '^https?://'::text))),
  constraint billing_history_provider_invoice_id_check check (((provider_invoice_id is null) or (char_length(provider_invoice_id) <= 255))),
  constraint billing_history_status_check check ((status = any (array['paid'::text, 'pending'::text, 'failed'::text, 'refunded'::text]))),
  constraint billing_history_business_id_fkey foreign key (business_id) references public.businesses(id) on delete set null,
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
  provider_payment_method_id text,
  business_id uuid,
  constraint payment_methods_pkey primary key (id),
  constraint payment_methods_provider_payment_method_id_key unique (provider_payment_method_id),
  constraint payment_methods_expiry_check check (((expiry is null) or (expiry ~ '^(0[1-9]|1[0-2])/[0-9]{2}$'::text))),
  constraint payment_methods_last_four_check check ((last_four ~ '^[0-9]{4}$'::text)),
  constraint payment_methods_provider_payment_method_id_check check (((provider_payment_method_id is null) or (char_length(provider_payment_method_id) <= 255))),
  constraint payment_methods_type_check check ((type = any (array['visa'::text, 'mastercard'::text, 'mobile'::text, 'wallet'::text, 'other'::text]))),
  constraint payment_methods_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
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

create table public.billing_customers (
  business_id uuid not null,
  provider text default 'stripe'::text not null,
  provider_customer_id text,
  trial_used boolean default false not null,
  checkout_claim uuid,
  checkout_plan text,
  checkout_until timestamp with time zone,
  test_clock text,
  clock_offset interval default '00:00:00'::interval not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint billing_customers_pkey primary key (business_id),
  constraint billing_customers_provider_customer_id_key unique (provider_customer_id),
  constraint billing_customers_checkout_plan_check check (((checkout_plan is null) or (checkout_plan = any (array['Starter'::text, 'Growth'::text, 'Pro'::text])))),
  constraint billing_customers_provider_check check ((provider = 'stripe'::text)),
  constraint billing_customers_provider_customer_id_check check (((provider_customer_id is null) or (char_length(provider_customer_id) <= 255))),
  constraint billing_customers_test_clock_check check (((test_clock is null) or (char_length(test_clock) <= 255))),
  constraint billing_customers_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table public.billing_customers enable row level security;
comment on table public.billing_customers is 'One payment-provider customer per business. The owner and admins read; only the service role writes.';
grant delete, insert, select, update on table public.billing_customers to service_role;
grant select on table public.billing_customers to authenticated;

create table public.billing_subscriptions (
  id text not null,
  business_id uuid not null,
  provider_customer_id text not null,
  plan text not null,
  status text not null,
  cancel_at_period_end boolean default false not null,
  amount_cents integer default 0 not null,
  currency text default 'usd'::text not null,
  billing_interval text default 'year'::text not null,
  current_period_start timestamp with time zone,
  current_period_end timestamp with time zone,
  trial_start timestamp with time zone,
  trial_end timestamp with time zone,
  canceled_at timestamp with time zone,
  ended_at timestamp with time zone,
  past_due_since timestamp with time zone,
  carry_plan text,
  carry_until timestamp with time zone,
  provider_created_at timestamp with time zone not null,
  synced_at timestamp with time zone not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint billing_subscriptions_pkey primary key (id),
  constraint billing_subscriptions_amount_cents_check check ((amount_cents >= 0)),
  constraint billing_subscriptions_billing_interval_check check ((billing_interval = any (array['month'::text, 'year'::text]))),
  constraint billing_subscriptions_carry_plan_check check (((carry_plan is null) or (carry_plan = any (array['Starter'::text, 'Growth'::text, 'Pro'::text])))),
  constraint billing_subscriptions_currency_check check ((char_length(currency) = 3)),
  constraint billing_subscriptions_id_check check ((char_length(id) <= 255)),
  constraint billing_subscriptions_plan_check check ((plan = any (array['Starter'::text, 'Growth'::text, 'Pro'::text]))),
  constraint billing_subscriptions_provider_customer_id_check check ((char_length(provider_customer_id) <= 255)),
  constraint billing_subscriptions_status_check check ((status = any (array['trialing'::text, 'active'::text, 'past_due'::text, 'unpaid'::text, 'canceled'::text, 'incomplete'::text, 'incomplete_expired'::text, 'paused'::text]))),
  constraint billing_subscriptions_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table public.billing_subscriptions enable row level security;
comment on table public.billing_subscriptions is 'The payment provider''s subscriptions of each business. Owner and admins read; only the service role writes.';
grant delete, insert, select, update on table public.billing_subscriptions to service_role;
grant select on table public.billing_subscriptions to authenticated;

create table public.billing_events (
  id text not null,
  provider text default 'stripe'::text not null,
  type text not null,
  object_id text,
  provider_created_at timestamp with time zone not null,
  received_at timestamp with time zone default now() not null,
  processed_at timestamp with time zone,
  attempts integer default 0 not null,
  last_error text,
  constraint billing_events_pkey primary key (id),
  constraint billing_events_id_check check ((char_length(id) <= 255)),
  constraint billing_events_last_error_check check (((last_error is null) or (char_length(last_error) <= 500))),
  constraint billing_events_object_id_check check (((object_id is null) or (char_length(object_id) <= 255))),
  constraint billing_events_type_check check ((char_length(type) <= 100))
);
alter table public.billing_events enable row level security;
comment on table public.billing_events is 'Webhook inbox (ids, types, times; no bodies). Admins read; only the service role writes.';
grant delete, insert, select, update on table public.billing_events to service_role;
grant select on table public.billing_events to authenticated;

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

create index billing_subscriptions_business_idx on public.billing_subscriptions (business_id, provider_created_at desc);

create index billing_subscriptions_status_idx on public.billing_subscriptions (status);

create index billing_events_pending_idx on public.billing_events (received_at) where processed_at is null;

create index billing_history_business_idx on public.billing_history (business_id);

create index payment_methods_business_idx on public.payment_methods (business_id);

create index billing_history_provider_date_idx on public.billing_history (date) where provider_invoice_id is not null;

create index billing_subscriptions_trial_start_idx on public.billing_subscriptions (trial_start) where trial_start is not null;

-- ==== Functions ===========================================================================================

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

-- Same contract as 20261123100100_workspace_plan_chooser.sql; the plan now comes from the entitlement.
create or replace function private.plan_limits(_business_id uuid)
returns table (plan text, max_stores int, max_products int, max_members int)
language sql
stable
security definer
set search_path = ''
as $$
  select e.plan, l.max_stores, l.max_products, l.max_members
    from private.business_entitlement(_business_id) e
    cross join lateral private.plan_limits_of(e.plan) l;
$$;
comment on function private.plan_limits(uuid) is 'The plan in force for a business and its limits (null = unlimited; max_products counts sellable items). Free without a live plan: none, canceled, expired, or a trial past its end.';
revoke all on function private.plan_limits(uuid) from public;

-- What the owner's billing page shows about a business (the plan in force, its grace date, the trial offer).
create or replace function public.my_billing(_business_id uuid default null)
returns table (business_id uuid, business_name text, plan text, status text, grace_until timestamptz,
               trial_available boolean, has_customer boolean)
language sql
stable
security definer
set search_path = ''
as $$
  select b.id, b.name::text, e.plan, e.status, e.grace_until,
         not coalesce(c.trial_used, false)
           and not exists (select 1 from public.billing_subscriptions s where s.business_id = b.id)
           and not exists (select 1 from public.user_plans up where up.user_id = b.owner_id),
         c.provider_customer_id is not null
    from public.businesses b
    left join public.billing_customers c on c.business_id = b.id
    cross join lateral private.business_entitlement(b.id) e
   where b.owner_id = (select auth.uid()) and (_business_id is null or b.id = _business_id)
   order by b.created_at, b.id
   limit 1;
$$;
comment on function public.my_billing(uuid) is 'The signed-in owner''s business billing summary (their oldest business when none is named).';
revoke all on function public.my_billing(uuid) from public;
grant execute on function public.my_billing(uuid) to authenticated;
grant execute on function public.my_billing(uuid) to service_role;

-- Records the provider customer made for a business; the first one stored wins and is returned.
create or replace function public.billing_save_customer(_business_id uuid, _customer_id text)
returns text
language sql
set search_path = ''
as $$
  insert into public.billing_customers as c (business_id, provider_customer_id)
  values (_business_id, _customer_id)
  on conflict (business_id) do update
    set provider_customer_id = coalesce(c.provider_customer_id, excluded.provider_customer_id)
  returning c.provider_customer_id;
$$;
revoke all on function public.billing_save_customer(uuid,text) from public;
grant execute on function public.billing_save_customer(uuid,text) to service_role;

-- The checkout claim two tabs share: same business and plan within 30 minutes -> the same claim id.
create or replace function public.billing_claim_checkout(_business_id uuid, _plan text)
returns uuid
language sql
set search_path = ''
as $$
  insert into public.billing_customers as c (business_id, checkout_claim, checkout_plan, checkout_until)
  values (_business_id, gen_random_uuid(), _plan, now() + interval '30 minutes')
  on conflict (business_id) do update
    set checkout_claim = case when c.checkout_plan = excluded.checkout_plan and c.checkout_until > now()
                              then c.checkout_claim else excluded.checkout_claim end,
        checkout_until = case when c.checkout_plan = excluded.checkout_plan and c.checkout_until > now()
                              then c.checkout_until else excluded.checkout_until end,
        checkout_plan = excluded.checkout_plan
  returning c.checkout_claim;
$$;
revoke all on function public.billing_claim_checkout(uuid,text) from public;
grant execute on function public.billing_claim_checkout(uuid,text) to service_role;

-- Stores a webhook event once. Returns true when it still needs applying (new, or an earlier try failed).
create or replace function public.billing_record_event(_id text, _type text, _object_id text, _created timestamptz)
returns boolean
language plpgsql
set search_path = ''
as $$
declare
  v_processed timestamptz;
begin
  insert into public.billing_events (id, type, object_id, provider_created_at)
  values (_id, _type, _object_id, _created)
  on conflict (id) do nothing;
  update public.billing_events e set attempts = e.attempts + 1 where e.id = _id
  returning e.processed_at into v_processed;
  return v_processed is null;
end;
$$;
revoke all on function public.billing_record_event(text,text,text,timestamp with time zone) from public;
grant execute on function public.billing_record_event(text,text,text,timestamp with time zone) to service_role;

create or replace function public.billing_finish_event(_id text, _error text default null)
returns void
language sql
set search_path = ''
as $$
  update public.billing_events e
     set processed_at = case when _error is null then now() end,
         last_error = left(_error, 500)
   where e.id = _id;
$$;
revoke all on function public.billing_finish_event(text,text) from public;
grant execute on function public.billing_finish_event(text,text) to service_role;

-- The customer's time (test clocks): the offset between the provider's clock and ours.
create or replace function public.billing_set_clock(_customer_id text, _test_clock text, _clock_now timestamptz)
returns void
language sql
set search_path = ''
as $$
  update public.billing_customers c
     set test_clock = _test_clock,
         clock_offset = case when _clock_now is null then interval '0' else _clock_now - now() end
   where c.provider_customer_id = _customer_id or (_test_clock is not null and c.test_clock = _test_clock);
$$;
revoke all on function public.billing_set_clock(text,text,timestamp with time zone) from public;
grant execute on function public.billing_set_clock(text,text,timestamp with time zone) to service_role;

-- Upserts a subscription (the billing module's provider-neutral shape) unless a newer state is stored, and
-- mirrors it onto the owner's plan card (user_plans). Returns whether it was written.
create or replace function public.billing_apply_subscription(_sub jsonb, _synced_at timestamptz)
returns boolean
language plpgsql
set search_path = ''
as $$
declare
  v_business uuid := private.billing_business_of(_sub ->> 'customer', _sub ->> 'business_id');
  v_row public.billing_subscriptions;
  v_owner uuid;
  v_live_other boolean;
begin
  insert into public.billing_subscriptions as s (
    id, business_id, provider_customer_id, plan, status, cancel_at_period_end, amount_cents, currency,
    billing_interval, current_period_start, current_period_end, trial_start, trial_end, canceled_at, ended_at,
    past_due_since, provider_created_at, synced_at)
  values (
    _sub ->> 'id', v_business, _sub ->> 'customer', _sub ->> 'plan', _sub ->> 'status',
    coalesce((_sub ->> 'cancel_at_period_end')::boolean, false), coalesce((_sub ->> 'amount_cents')::int, 0),
    coalesce(_sub ->> 'currency', 'usd'), coalesce(_sub ->> 'interval', 'year'),
    (_sub ->> 'current_period_start')::timestamptz, (_sub ->> 'current_period_end')::timestamptz,
    (_sub ->> 'trial_start')::timestamptz, (_sub ->> 'trial_end')::timestamptz,
    (_sub ->> 'canceled_at')::timestamptz, (_sub ->> 'ended_at')::timestamptz,
    case when _sub ->> 'status' = 'past_due' then (_sub ->> 'past_due_since')::timestamptz end,
    (_sub ->> 'created')::timestamptz, _synced_at)
  on conflict (id) do update
    set plan = excluded.plan, status = excluded.status, cancel_at_period_end = excluded.cancel_at_period_end,
        amount_cents = excluded.amount_cents, currency = excluded.currency, billing_interval = excluded.billing_interval,
        current_period_start = excluded.current_period_start, current_period_end = excluded.current_period_end,
        trial_start = excluded.trial_start, trial_end = excluded.trial_end, canceled_at = excluded.canceled_at,
        ended_at = excluded.ended_at,
        past_due_since = case when excluded.status <> 'past_due' then null
                              else coalesce(s.past_due_since, excluded.past_due_since) end,
        -- An upgrade ends a pending downgrade; a canceled subscription carries nothing.
        carry_plan = case when excluded.plan = s.plan and excluded.status in ('active', 'trialing') then s.carry_plan end,
        carry_until = case when excluded.plan = s.plan and excluded.status in ('active', 'trialing') then s.carry_until end,
        synced_at = excluded.synced_at
    where s.synced_at <= excluded.synced_at
  returning * into v_row;
  if v_row.id is null then
    return false;
  end if;
  if v_row.trial_start is not null then
    update public.billing_customers c set trial_used = true where c.business_id = v_business and not c.trial_used;
  end if;
  -- A finished checkout closes the business's open claim.
  update public.billing_customers c set checkout_claim = null, checkout_plan = null, checkout_until = null
   where c.business_id = v_business and c.checkout_claim is not null;
  -- The plan card shows the live subscription; an ended one only when nothing else is live.
  select exists (select 1 from public.billing_subscriptions o
                  where o.business_id = v_business and o.id <> v_row.id
                    and o.status in ('trialing', 'active', 'past_due')) into v_live_other;
  if v_row.status = 'incomplete' or (v_live_other and v_row.status not in ('trialing', 'active', 'past_due')) then
    return true;
  end if;
  select b.owner_id into v_owner from public.businesses b where b.id = v_business;
  insert into public.user_plans as p (user_id, plan_name, price, billing_cycle, status, auto_renew, started_at,
                                      next_billing_date)
  values (v_owner, v_row.plan,
          round(v_row.amount_cents / 100.0 / case when v_row.billing_interval = 'year' then 12 else 1 end, 2),
          case when v_row.billing_interval = 'year' then 'annual' else 'monthly' end,
          case when v_row.status in ('trialing', 'active', 'past_due', 'canceled') then v_row.status else 'expired' end,
          not v_row.cancel_at_period_end, v_row.provider_created_at,
          case when v_row.status = 'trialing' then v_row.trial_end
               when v_row.status in ('active', 'past_due') and not v_row.cancel_at_period_end then v_row.current_period_end end)
  on conflict (user_id) do update
    set plan_name = excluded.plan_name, price = excluded.price, billing_cycle = excluded.billing_cycle,
        status = excluded.status, auto_renew = excluded.auto_renew, started_at = excluded.started_at,
        next_billing_date = excluded.next_billing_date;
  return true;
end;
$$;
revoke all on function public.billing_apply_subscription(jsonb,timestamp with time zone) from public;
grant execute on function public.billing_apply_subscription(jsonb,timestamp with time zone) to service_role;

-- A downgrade at period end: the paid plan's limits stay until the period ends.
create or replace function public.billing_set_carry(_subscription_id text, _plan text, _until timestamptz)
returns void
language sql
set search_path = ''
as $$
  update public.billing_subscriptions s set carry_plan = _plan, carry_until = _until where s.id = _subscription_id;
$$;
revoke all on function public.billing_set_carry(text,text,timestamp with time zone) from public;
grant execute on function public.billing_set_carry(text,text,timestamp with time zone) to service_role;

-- Replaces a customer's payment methods with the provider's list (fetched whole, so order does not matter).
create or replace function public.billing_apply_payment_methods(_customer_id text, _methods jsonb)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_business uuid := private.billing_business_of(_customer_id, null);
  v_owner uuid;
  v_count integer;
begin
  select b.owner_id into v_owner from public.businesses b where b.id = v_business;
  delete from public.payment_methods pm
   where pm.business_id = v_business
     and pm.provider_payment_method_id not in (select m ->> 'id' from jsonb_array_elements(_methods) m);
  -- One default per user (payment_methods_one_default_idx): clear first, then set.
  update public.payment_methods pm set is_default = false where pm.user_id = v_owner and pm.is_default;
  insert into public.payment_methods as pm (user_id, business_id, type, last_four, expiry, is_default,
                                            provider_payment_method_id)
  select v_owner, v_business, m ->> 'type', m ->> 'last_four', m ->> 'expiry',
         coalesce((m ->> 'is_default')::boolean, false), m ->> 'id'
    from jsonb_array_elements(_methods) m
  on conflict (provider_payment_method_id) do update
    set type = excluded.type, last_four = excluded.last_four, expiry = excluded.expiry, is_default = excluded.is_default;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
revoke all on function public.billing_apply_payment_methods(text,jsonb) from public;
grant execute on function public.billing_apply_payment_methods(text,jsonb) to service_role;

create or replace function public.billing_note_signature_failure()
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.billing_signature_failures as f (day, failures) values (current_date, 1)
  on conflict (day) do update set failures = f.failures + 1, last_at = now();
$$;
revoke all on function public.billing_note_signature_failure() from public;
grant execute on function public.billing_note_signature_failure() to service_role;

create or replace function public.billing_audit_refund(_admin_id uuid, _invoice_id text, _amount_cents integer, _reason text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.billing_history;
begin
  select h.* into v_row from public.billing_history h where h.provider_invoice_id = _invoice_id;
  if v_row.business_id is null then
    return;
  end if;
  insert into public.activity (business_id, actor_id, actor_label, kind, entity_type, entity_id, before, after)
  values (v_row.business_id, _admin_id,
          (select coalesce(p.full_name, u.email) from auth.users u left join public.profiles p on p.id = u.id where u.id = _admin_id),
          'billing.invoice_refunded', 'invoice', v_row.id,
          jsonb_build_object('status', 'paid'),
          jsonb_build_object('status', 'refunded', 'amount', round(_amount_cents / 100.0, 2),
                             'invoice', _invoice_id, 'reason', left(coalesce(_reason, ''), 500)));
end;
$$;
revoke all on function public.billing_audit_refund(uuid,text,integer,text) from public;
grant execute on function public.billing_audit_refund(uuid,text,integer,text) to service_role;

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
    raise exception 'Your % plan allows % items (each size or colour you sell counts as one).',
        v_limits.plan, v_limits.max_products
      using errcode = 'SW001',
            detail = format('products:%s/%s', v_used, v_limits.max_products),
            hint = 'Archive an item or upgrade your plan to add another.';
  end if;
end;
$$;
comment on function private.assert_items_allow(uuid,bigint) is 'Plan limit on sellable items (variants): SW001 when adding _adding would pass private.plan_limits.max_products.';
revoke all on function private.assert_items_allow(uuid,bigint) from public;

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
    -- A sentence for a person, with the right number (issue 25: "the Starter plan allows 1 stores").
    raise exception 'Your % plan allows % %.', v_limits.plan, v_max,
        case when _what = 'members' then case when v_max = 1 then 'person: the owner alone' else 'people' end
             when v_max = 1 then 'store' else 'stores' end
      using errcode = 'SW001',
            detail = format('%s:%s/%s', _what, v_used, v_max),
            hint = case when _what = 'members' then 'Choose a paid plan to invite your team.'
                        else 'Archive a store or upgrade your plan to add another.' end;
  end if;
end;
$$;
revoke all on function private.assert_plan_allows(uuid,text) from public;

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
  -- A plan change needs the second factor when the account has one (20261127150000_mfa_and_privacy, ADR 0207).
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
    raise exception 'Your business already had its free trial, so choosing a plan cannot start another.'
      using errcode = 'SW002',
            hint = 'Subscribe on the Billing page: the plan starts once the payment provider confirms it.';
  end if;
  -- Only a trial is chosen here: a paid plan, or one whose trial ended, changes through the payment provider
  -- (billing-checkout), so nobody keeps Pro without paying (issue 24).
  if exists (select 1 from public.user_plans up where up.user_id = v_uid
              and (up.status <> 'trialing' or up.next_billing_date <= now())) then
    raise exception 'Change your plan on the Billing page: it goes through the payment provider.'
      using errcode = 'SW002', hint = 'Billing > Change plan shows the amount due before you confirm.';
  end if;
  insert into public.user_plans as p (user_id, plan_name, price, billing_cycle, status, auto_renew,
                                      started_at, next_billing_date)
  values (v_uid, _plan_name, v_price, 'annual', 'trialing', true, now(), now() + make_interval(days => private.platform_trial_days()))
  on conflict (user_id) do update
    set plan_name = excluded.plan_name,
        price = excluded.price
  returning * into v_plan;
  return v_plan;
end;
$$;
comment on function public.choose_plan(text) is 'The signed-in user starts the trial (its length is a platform setting) of Starter, Growth or Pro (once per business) or switches plan during it; a paid plan or an ended trial changes only through the payment provider (SW002).';
revoke all on function public.choose_plan(text) from public;
grant execute on function public.choose_plan(text) to authenticated;

create or replace function private.business_entitlement(_business_id uuid)
returns table (plan text, status text, grace_until timestamptz, source text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_sub public.billing_subscriptions;
  v_now timestamptz;
  v_plan text;
  v_status text;
  v_end timestamptz;
begin
  select s.* into v_sub
    from public.billing_subscriptions s
   where s.business_id = _business_id and s.status not in ('incomplete', 'incomplete_expired')
   order by (s.status in ('trialing', 'active', 'past_due')) desc, s.provider_created_at desc
   limit 1;
  if found then
    select now() + coalesce((select c.clock_offset from public.billing_customers c where c.business_id = _business_id),
                            interval '0') into v_now;
    if v_sub.status = 'trialing' and (v_sub.trial_end is null or v_sub.trial_end > v_now) then
      return query select v_sub.plan, v_sub.status, null::timestamptz, 'provider'::text;
    elsif v_sub.status = 'active' then
      return query select case when v_sub.carry_until > v_now then v_sub.carry_plan else v_sub.plan end,
                          v_sub.status, null::timestamptz, 'provider'::text;
    elsif v_sub.status = 'past_due' and coalesce(v_sub.past_due_since, v_now) + private.platform_grace() > v_now then
      return query select v_sub.plan, v_sub.status, coalesce(v_sub.past_due_since, v_now) + private.platform_grace(), 'provider'::text;
    else
      return query select 'Free'::text, v_sub.status, null::timestamptz, 'provider'::text;
    end if;
    return;
  end if;
  select up.plan_name, up.status, up.next_billing_date into v_plan, v_status, v_end
    from public.businesses b join public.user_plans up on up.user_id = b.owner_id
   where b.id = _business_id;
  if v_plan is not null and (v_status in ('active', 'past_due')
                             or (v_status = 'trialing' and v_end is not null and v_end > now())) then
    return query select v_plan, v_status, null::timestamptz, 'plan'::text;
  else
    return query select 'Free'::text, coalesce(v_status, 'none'), null::timestamptz, 'plan'::text;
  end if;
end;
$$;
revoke all on function private.business_entitlement(uuid) from public;
grant execute on function private.business_entitlement(uuid) to service_role;

create or replace function public.billing_apply_invoice(_inv jsonb, _synced_at timestamptz)
returns boolean
language plpgsql
-- Definer: it reads the owner's email in auth.users for the payment-failed email.
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.billing_business_of(_inv ->> 'customer', null);
  v_owner uuid;
  v_id uuid;
  v_plan text;
  v_grace timestamptz;
  v_email text;
begin
  select b.owner_id into v_owner from public.businesses b where b.id = v_business;
  insert into public.billing_history as h (user_id, business_id, amount, date, status, description, invoice_url,
                                           provider_invoice_id, provider_subscription_id, synced_at)
  values (v_owner, v_business, round(coalesce((_inv ->> 'amount_cents')::numeric, 0) / 100, 2),
          (_inv ->> 'created')::timestamptz, _inv ->> 'status', left(coalesce(_inv ->> 'description', ''), 500),
          nullif(_inv ->> 'url', ''), _inv ->> 'id', _inv ->> 'subscription', _synced_at)
  on conflict (provider_invoice_id) do update
    set amount = excluded.amount, status = excluded.status, description = excluded.description,
        invoice_url = excluded.invoice_url, synced_at = excluded.synced_at
    where h.synced_at is null or h.synced_at <= excluded.synced_at
  returning h.id into v_id;
  if v_id is null then
    return false;
  end if;
  -- A charge that failed for the first time: a bell notification and an email (once per invoice: the
  -- notification's existence is the marker, so retried failures and replays send nothing more).
  if _inv ->> 'status' = 'failed' and not exists (
       select 1 from public.notifications n
        where n.user_id = v_owner and n.kind = 'billing.payment_failed' and n.body = 'Invoice ' || (_inv ->> 'id')) then
    select s.plan, s.past_due_since + private.platform_grace() into v_plan, v_grace
      from public.billing_subscriptions s where s.id = _inv ->> 'subscription';
    insert into public.notifications (user_id, kind, title, body, link)
    values (v_owner, 'billing.payment_failed', 'Your payment failed: update your payment method',
            'Invoice ' || (_inv ->> 'id'), '/dashboard/billing');
    select u.email::text into v_email from auth.users u where u.id = v_owner;
    if v_email is not null then
      insert into public.email_outbox (to_email, template, params)
      values (v_email, 'billing_payment_failed', jsonb_build_object(
        'plan', coalesce(v_plan, 'current'), 'amount', round(coalesce((_inv ->> 'amount_cents')::numeric, 0) / 100, 2),
        'grace_until', coalesce(v_grace, (_inv ->> 'created')::timestamptz + private.platform_grace())));
    end if;
  end if;
  return true;
end;
$$;
revoke all on function public.billing_apply_invoice(jsonb,timestamp with time zone) from public;
grant execute on function public.billing_apply_invoice(jsonb,timestamp with time zone) to service_role;

create or replace function public.billing_owner_context(_user_id uuid, _business_id uuid default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business public.businesses;
  v_customer public.billing_customers;
  v_sub public.billing_subscriptions;
  v_email text;
begin
  select b.* into v_business from public.businesses b
   where b.owner_id = _user_id and (_business_id is null or b.id = _business_id)
   order by b.created_at, b.id limit 1;
  if not found then
    raise exception 'only the owner of a business can manage its billing' using errcode = '42501';
  end if;
  select c.* into v_customer from public.billing_customers c where c.business_id = v_business.id;
  select s.* into v_sub from public.billing_subscriptions s
   where s.business_id = v_business.id and s.status in ('trialing', 'active', 'past_due', 'unpaid', 'paused')
   order by s.provider_created_at desc limit 1;
  select u.email::text into v_email from auth.users u where u.id = _user_id;
  return jsonb_build_object(
    'business_id', v_business.id, 'business_name', v_business.name, 'email', v_email,
    'customer_id', v_customer.provider_customer_id,
    'trial_available', not coalesce(v_customer.trial_used, false)
      and not exists (select 1 from public.billing_subscriptions s where s.business_id = v_business.id)
      and not exists (select 1 from public.user_plans up where up.user_id = _user_id),
    'trial_days', private.platform_trial_days(),
    'subscription', case when v_sub.id is null then null else jsonb_build_object(
      'id', v_sub.id, 'plan', v_sub.plan, 'status', v_sub.status, 'cancel_at_period_end', v_sub.cancel_at_period_end,
      'current_period_end', v_sub.current_period_end) end,
    'payment_methods', (select count(*) from public.payment_methods pm where pm.business_id = v_business.id));
end;
$$;
revoke all on function public.billing_owner_context(uuid,uuid) from public;
grant execute on function public.billing_owner_context(uuid,uuid) to service_role;

-- The business of a provider customer (stored before checkout), or of the metadata the checkout carried.
create or replace function private.billing_business_of(_customer_id text, _business_hint text)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid;
begin
  select c.business_id into v_business from public.billing_customers c where c.provider_customer_id = _customer_id;
  if v_business is null and _business_hint ~ '^[0-9a-f-]{36}$' then
    -- Only a business whose customer is not recorded yet may be claimed by metadata.
    select b.id into v_business from public.businesses b
     where b.id = _business_hint::uuid
       and not exists (select 1 from public.billing_customers c
                        where c.business_id = b.id and c.provider_customer_id is not null);
    if v_business is not null then
      perform public.billing_save_customer(v_business, _customer_id);
    end if;
  end if;
  if v_business is null then
    raise exception 'no business for provider customer %', _customer_id using errcode = 'PT404';
  end if;
  return v_business;
end;
$$;
revoke all on function private.billing_business_of(text,text) from public;
grant execute on function private.billing_business_of(text,text) to service_role;

-- Admin refunds (billing-refund): who may, which invoice, and the audit line in the business's trail.
create or replace function public.billing_admin_invoice(_admin_id uuid, _invoice_id text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_row public.billing_history;
begin
  if not public.is_admin(_admin_id) then
    raise exception 'permission denied: administrators only' using errcode = '42501';
  end if;
  select h.* into v_row from public.billing_history h where h.provider_invoice_id = _invoice_id;
  if v_row.id is null then
    raise exception 'no such invoice' using errcode = 'PT404';
  end if;
  return jsonb_build_object('id', v_row.id, 'business_id', v_row.business_id, 'status', v_row.status, 'amount', v_row.amount);
end;
$$;
revoke all on function public.billing_admin_invoice(uuid,text) from public;
grant execute on function public.billing_admin_invoice(uuid,text) to service_role;

-- ==== Triggers ============================================================================================

create trigger user_plans_set_updated_at before update on public.user_plans
  for each row execute function public.set_updated_at();

create trigger user_plans_notify_changed after update of plan_name, status on public.user_plans
  for each row execute function private.notify_plan_changed();

create trigger user_plans_record_event after insert or update of plan_name, status on public.user_plans
  for each row execute function private.record_plan_event();

create trigger user_plans_record_trial after insert or update of status on public.user_plans
  for each row execute function private.record_business_trial();

create trigger billing_customers_set_updated_at before update on public.billing_customers
  for each row execute function public.set_updated_at();

create trigger billing_subscriptions_set_updated_at before update on public.billing_subscriptions
  for each row execute function public.set_updated_at();

create trigger read_only_guard before insert or update or delete on private.business_trials
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on private.plan_events
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.billing_customers
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.billing_events
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.billing_history
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.billing_subscriptions
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.payment_methods
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.user_plans
  for each statement execute function private.read_only_guard();

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

create policy "billing_customers: owner or admin reads" on public.billing_customers
  for select to authenticated
  using (exists (select 1 from public.businesses b where b.id = business_id and b.owner_id = (select auth.uid()))
         or (select public.is_admin((select auth.uid()))));

create policy "billing_subscriptions: owner or admin reads" on public.billing_subscriptions
  for select to authenticated
  using (exists (select 1 from public.businesses b where b.id = business_id and b.owner_id = (select auth.uid()))
         or (select public.is_admin((select auth.uid()))));

create policy "billing_events: admin reads" on public.billing_events
  for select to authenticated
  using ((select public.is_admin((select auth.uid()))));
