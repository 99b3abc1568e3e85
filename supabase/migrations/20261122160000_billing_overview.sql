-- Admin Billing Overview (issue 14): subscriptions by plan and status, trials ending soon and monthly
-- recurring revenue, computed in SQL from public.user_plans in one call. See docs/adr/0141-billing-overview.md.
--
-- * Read only by admins: security definer, private.assert_admin() first (SQLSTATE 42501 otherwise), the same
--   contract as admin_overview(). It writes nothing.
-- * user_plans.price is the per-month price for both cycles (an annual plan at 29.99 is billed 359.88 once a
--   year, see the seed's billing history and shared/lib/plan-price.ts), so a subscription's monthly recurring
--   revenue is its price, never price / 12.
-- * MRR counts the subscriptions that are being billed: active and past_due (past_due is still owed and is
--   shown apart as revenue at risk). Trials are not revenue yet: trial_mrr is what they bring if they convert.
--   Canceled and expired plans count nowhere.
-- * A trial ends at next_billing_date (choose_plan sets it to start + 7 days). "Trials ending" is the trials
--   whose end falls in [now, now + _days]; the list is capped at 100 rows, the count is exact.

-- Trials ending soon: a range on next_billing_date among trialing rows only, so the list does not scan every plan.
create index if not exists user_plans_trial_end_idx on public.user_plans (next_billing_date)
  where status = 'trialing';

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
comment on function public.admin_billing_overview(int) is
  'Admins only (42501 otherwise): subscriptions by plan, status and cycle with their monthly value; MRR '
  '(active + past_due, price is per month), at-risk and trial MRR; trials ending within _days (1..90, default 7).';

revoke all on function public.admin_billing_overview(int) from public, anon;
grant execute on function public.admin_billing_overview(int) to authenticated;
