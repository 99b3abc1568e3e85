-- Issue 30: the trial length and the grace after a failed payment come from the platform settings
-- (20261201150000_admin_platform_settings, docs/adr/0260) instead of fixed 7 and 14 days. Each function is its
-- latest definition (supabase/schemas/billing.sql) with only those numbers replaced.

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
