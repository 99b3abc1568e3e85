-- Issue 24, subscription billing that collects (docs/adr/0190).
-- The payment provider (Stripe; locally a TEST MODE stand-in) is the source of truth; these tables are its
-- mirror, written only by the service role (the billing Edge Functions), read by each business's owner
-- through RLS and by admins.
-- * billing_customers: one provider customer per business (primary key = business), created before checkout
--   under that key, so a double click makes one customer. Holds the open checkout claim (one per business and
--   plan) that two tabs share, whether the one free trial was used, and the customer's test-clock offset.
-- * billing_subscriptions: the provider's subscriptions, upserted only when the provider's timestamp is not
--   older than the stored one (an older event never overwrites a newer state).
-- * billing_events: the webhook inbox, unique on the provider's event id (a replay changes nothing).
-- * billing_history and payment_methods (core schema, the specification's lists) gain the provider's ids and
--   are filled from invoices and cards; user_plans stays the owner's plan card, mirrored from the subscription.
-- * private.business_entitlement(): the one answer to "which plan's limits apply now", read by plan_limits.
-- Redefined here: private.plan_limits (now reads private.business_entitlement; same contract).

-- ---------------------------------------------------------------------------------------------------
create table public.billing_customers (
  business_id uuid primary key references public.businesses (id) on delete cascade,
  provider text not null default 'stripe' check (provider in ('stripe')),
  provider_customer_id text unique check (provider_customer_id is null or char_length(provider_customer_id) <= 255),
  -- The free trial is offered once per business (set when a subscription with a trial is first seen).
  trial_used boolean not null default false,
  -- The open checkout of this business: both tabs of a double click get the same claim, hence the same
  -- provider idempotency key and the same checkout session.
  checkout_claim uuid,
  checkout_plan text check (checkout_plan is null or checkout_plan in ('Starter', 'Growth', 'Pro')),
  checkout_until timestamptz,
  -- A test clock (provider test mode) moves this customer's time; entitlement compares against it.
  test_clock text check (test_clock is null or char_length(test_clock) <= 255),
  clock_offset interval not null default interval '0',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.billing_customers enable row level security;
comment on table public.billing_customers is
  'One payment-provider customer per business. The owner and admins read; only the service role writes.';
create trigger billing_customers_set_updated_at before update on public.billing_customers
  for each row execute function public.set_updated_at();

create table public.billing_subscriptions (
  id text primary key check (char_length(id) <= 255),
  business_id uuid not null references public.businesses (id) on delete cascade,
  provider_customer_id text not null check (char_length(provider_customer_id) <= 255),
  plan text not null check (plan in ('Starter', 'Growth', 'Pro')),
  status text not null check (status in ('trialing', 'active', 'past_due', 'unpaid', 'canceled', 'incomplete',
                                         'incomplete_expired', 'paused')),
  cancel_at_period_end boolean not null default false,
  amount_cents integer not null default 0 check (amount_cents >= 0),
  currency text not null default 'usd' check (char_length(currency) = 3),
  billing_interval text not null default 'year' check (billing_interval in ('month', 'year')),
  current_period_start timestamptz,
  current_period_end timestamptz,
  trial_start timestamptz,
  trial_end timestamptz,
  canceled_at timestamptz,
  ended_at timestamptz,
  -- When the unpaid invoice that made it past due was issued (provider time): the grace period runs from here.
  past_due_since timestamptz,
  -- A downgrade takes effect at period end: the paid plan's limits stay until carry_until.
  carry_plan text check (carry_plan is null or carry_plan in ('Starter', 'Growth', 'Pro')),
  carry_until timestamptz,
  provider_created_at timestamptz not null,
  -- The provider's timestamp of the state stored here (event creation or fetch time).
  synced_at timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.billing_subscriptions enable row level security;
comment on table public.billing_subscriptions is
  'The payment provider''s subscriptions of each business. Owner and admins read; only the service role writes.';
create index billing_subscriptions_business_idx on public.billing_subscriptions (business_id, provider_created_at desc);
create index billing_subscriptions_status_idx on public.billing_subscriptions (status);
create trigger billing_subscriptions_set_updated_at before update on public.billing_subscriptions
  for each row execute function public.set_updated_at();

create table public.billing_events (
  id text primary key check (char_length(id) <= 255),
  provider text not null default 'stripe',
  type text not null check (char_length(type) <= 100),
  object_id text check (object_id is null or char_length(object_id) <= 255),
  provider_created_at timestamptz not null,
  received_at timestamptz not null default now(),
  processed_at timestamptz,
  attempts integer not null default 0,
  -- A short reason, never the event body (it holds personal data).
  last_error text check (last_error is null or char_length(last_error) <= 500)
);
alter table public.billing_events enable row level security;
comment on table public.billing_events is
  'Webhook inbox (ids, types, times; no bodies). Admins read; only the service role writes.';
create index billing_events_pending_idx on public.billing_events (received_at) where processed_at is null;

-- The specification's lists, now filled from the provider.
alter table public.billing_history
  add column provider_invoice_id text unique check (provider_invoice_id is null or char_length(provider_invoice_id) <= 255),
  add column business_id uuid references public.businesses (id) on delete set null,
  add column provider_subscription_id text,
  add column synced_at timestamptz;
create index billing_history_business_idx on public.billing_history (business_id);
alter table public.payment_methods
  add column provider_payment_method_id text unique
    check (provider_payment_method_id is null or char_length(provider_payment_method_id) <= 255),
  add column business_id uuid references public.businesses (id) on delete cascade;
create index payment_methods_business_idx on public.payment_methods (business_id);

-- Grants: hosted Supabase grants nothing automatically. Reads through RLS; writes only by the service role.
revoke all on table public.billing_customers, public.billing_subscriptions, public.billing_events from anon, authenticated;
grant select on table public.billing_customers, public.billing_subscriptions to authenticated;
grant select on table public.billing_events to authenticated;
grant select, insert, update, delete on table public.billing_customers, public.billing_subscriptions,
  public.billing_events to service_role;
grant select, insert, update, delete on table public.billing_history, public.payment_methods to service_role;

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

-- ---------------------------------------------------------------------------------------------------
-- Entitlement: which plan's limits apply to a business now.
-- * A provider subscription, if the business has one (the live one first, else the latest): trialing and
--   active give the plan (a downgrade keeps the paid plan until carry_until); past_due gives the plan until
--   past_due_since + 14 days; unpaid, canceled, paused, incomplete and ended give Free. A trial past its end
--   that the provider has not converted counts as Free.
-- * Otherwise the owner's user_plans row (plans chosen before billing, the demo data): active and past_due
--   give the plan; trialing gives it until next_billing_date (a trial past its end counts as Free).
-- * Otherwise Free. "Now" is the customer's provider time (a test clock moves it; zero offset otherwise).
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
    elsif v_sub.status = 'past_due' and coalesce(v_sub.past_due_since, v_now) + interval '14 days' > v_now then
      return query select v_sub.plan, v_sub.status, coalesce(v_sub.past_due_since, v_now) + interval '14 days', 'provider'::text;
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
revoke all on function private.business_entitlement(uuid) from public, anon, authenticated;
grant execute on function private.business_entitlement(uuid) to service_role;

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
revoke all on function private.plan_limits(uuid) from public, anon, authenticated;

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
comment on function public.my_billing(uuid) is
  'The signed-in owner''s business billing summary (their oldest business when none is named).';
revoke all on function public.my_billing(uuid) from public, anon, authenticated;
grant execute on function public.my_billing(uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------
-- Service-role functions the billing Edge Functions call.

-- The business a user may bill: their own (the named one, or their oldest); 42501 for anyone else's.
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
    'subscription', case when v_sub.id is null then null else jsonb_build_object(
      'id', v_sub.id, 'plan', v_sub.plan, 'status', v_sub.status, 'cancel_at_period_end', v_sub.cancel_at_period_end,
      'current_period_end', v_sub.current_period_end) end,
    'payment_methods', (select count(*) from public.payment_methods pm where pm.business_id = v_business.id));
end;
$$;
revoke all on function public.billing_owner_context(uuid, uuid) from public, anon, authenticated;
grant execute on function public.billing_owner_context(uuid, uuid) to service_role;

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
revoke all on function public.billing_save_customer(uuid, text) from public, anon, authenticated;
grant execute on function public.billing_save_customer(uuid, text) to service_role;

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
revoke all on function public.billing_claim_checkout(uuid, text) from public, anon, authenticated;
grant execute on function public.billing_claim_checkout(uuid, text) to service_role;

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
revoke all on function public.billing_record_event(text, text, text, timestamptz) from public, anon, authenticated;
grant execute on function public.billing_record_event(text, text, text, timestamptz) to service_role;

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
revoke all on function public.billing_finish_event(text, text) from public, anon, authenticated;
grant execute on function public.billing_finish_event(text, text) to service_role;

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
    raise exception 'no business for provider customer %', _customer_id using errcode = 'P0002';
  end if;
  return v_business;
end;
$$;
revoke all on function private.billing_business_of(text, text) from public, anon, authenticated;
grant execute on function private.billing_business_of(text, text) to service_role;

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
revoke all on function public.billing_set_clock(text, text, timestamptz) from public, anon, authenticated;
grant execute on function public.billing_set_clock(text, text, timestamptz) to service_role;

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
revoke all on function public.billing_apply_subscription(jsonb, timestamptz) from public, anon, authenticated;
grant execute on function public.billing_apply_subscription(jsonb, timestamptz) to service_role;

-- A downgrade at period end: the paid plan's limits stay until the period ends.
create or replace function public.billing_set_carry(_subscription_id text, _plan text, _until timestamptz)
returns void
language sql
set search_path = ''
as $$
  update public.billing_subscriptions s set carry_plan = _plan, carry_until = _until where s.id = _subscription_id;
$$;
revoke all on function public.billing_set_carry(text, text, timestamptz) from public, anon, authenticated;
grant execute on function public.billing_set_carry(text, text, timestamptz) to service_role;

-- The payment-failed email (supabase/functions/_shared/billing-email.ts renders it).
alter table public.email_outbox drop constraint email_outbox_template_check;
alter table public.email_outbox add constraint email_outbox_template_check
  check (template in ('ticket_reply', 'ticket_resolved', 'purchase_order', 'receipt', 'billing_payment_failed'));

-- Upserts an invoice into the owner's billing history unless a newer state is stored.
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
    select s.plan, s.past_due_since + interval '14 days' into v_plan, v_grace
      from public.billing_subscriptions s where s.id = _inv ->> 'subscription';
    insert into public.notifications (user_id, kind, title, body, link)
    values (v_owner, 'billing.payment_failed', 'Your payment failed: update your payment method',
            'Invoice ' || (_inv ->> 'id'), '/dashboard/billing');
    select u.email::text into v_email from auth.users u where u.id = v_owner;
    if v_email is not null then
      insert into public.email_outbox (to_email, template, params)
      values (v_email, 'billing_payment_failed', jsonb_build_object(
        'plan', coalesce(v_plan, 'current'), 'amount', round(coalesce((_inv ->> 'amount_cents')::numeric, 0) / 100, 2),
        'grace_until', coalesce(v_grace, (_inv ->> 'created')::timestamptz + interval '14 days')));
    end if;
  end if;
  return true;
end;
$$;
revoke all on function public.billing_apply_invoice(jsonb, timestamptz) from public, anon, authenticated;
grant select on table public.notifications to service_role;
grant insert on table public.notifications, public.email_outbox to service_role;
grant execute on function public.billing_apply_invoice(jsonb, timestamptz) to service_role;

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
revoke all on function public.billing_apply_payment_methods(text, jsonb) from public, anon, authenticated;
grant execute on function public.billing_apply_payment_methods(text, jsonb) to service_role;

-- Webhook requests whose signature failed, counted per day (no body, no sender): a rotated or wrong
-- STRIPE_WEBHOOK_SECRET shows on the admin's Billing Overview instead of failing silently.
create table private.billing_signature_failures (
  day date primary key,
  failures integer not null default 0,
  last_at timestamptz not null default now()
);
alter table private.billing_signature_failures enable row level security;
comment on table private.billing_signature_failures is
  'Signature failures of billing-webhook per day; no policies: only security definer functions read and write it.';
revoke all on table private.billing_signature_failures from public, anon, authenticated;

create or replace function public.billing_note_signature_failure()
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.billing_signature_failures as f (day, failures) values (current_date, 1)
  on conflict (day) do update set failures = f.failures + 1, last_at = now();
$$;
revoke all on function public.billing_note_signature_failure() from public, anon, authenticated;
grant execute on function public.billing_note_signature_failure() to service_role;

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
comment on function public.admin_billing_collections(int) is
  'Admins only (42501): trials and conversions, past due, churn, collected, failed and refunded payments over _days.';
revoke all on function public.admin_billing_collections(int) from public, anon, authenticated;
grant execute on function public.admin_billing_collections(int) to authenticated;
create index billing_history_provider_date_idx on public.billing_history (date) where provider_invoice_id is not null;
create index billing_subscriptions_trial_start_idx on public.billing_subscriptions (trial_start) where trial_start is not null;

-- ---------------------------------------------------------------------------------------------------
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
    raise exception 'no such invoice' using errcode = 'P0002';
  end if;
  return jsonb_build_object('id', v_row.id, 'business_id', v_row.business_id, 'status', v_row.status, 'amount', v_row.amount);
end;
$$;
revoke all on function public.billing_admin_invoice(uuid, text) from public, anon, authenticated;
grant execute on function public.billing_admin_invoice(uuid, text) to service_role;

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
revoke all on function public.billing_audit_refund(uuid, text, integer, text) from public, anon, authenticated;
grant execute on function public.billing_audit_refund(uuid, text, integer, text) to service_role;
