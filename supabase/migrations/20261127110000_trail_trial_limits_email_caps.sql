-- Issue 22 (money and trust inside a business), findings 6, 7, 8, 10, 11 and two of 12 (docs/adr/0175).
-- 6.  A trial ends: a trialing plan counts only until its end date (next_billing_date) and only for the business
--     whose owner started it; a business has one trial (private.business_trials). public.my_plan() is what the
--     billing page reads: a trial past its end reads as expired there too.
-- 7.  The trail covers prices, costs, reorder points and deletions: store_prices, variant_costs and reorder_points
--     on every change; barcodes and categories; deleting suppliers and draft purchase orders (with their lines).
-- 8.  The trail's actor is the account: activity.actor_email is the account's email when the entry was written;
--     actor_label keeps the profile name, as a secondary label. stock_history returns the email as well.
-- 10. The plan's product limit counts sellable items (unarchived variants of unarchived products).
-- 11. Hourly caps per business and per account on every email a member can have the platform send (purchase
--     orders, receipts, invitations), low for Free and trials; past a cap SQLSTATE PT429 (HTTP 429 in PostgREST).
-- 12. post_count checks a named lot before writing; managers no longer read invitation entries of the trail.

-- ===================================================================================================
-- 6. Trials
-- ===================================================================================================

-- The businesses that had their free trial, and which owner started it. Written by a trigger on user_plans
-- (choose_plan, the billing back office and the seed alike), never deleted: that is what makes it once.
create table private.business_trials (
  business_id uuid primary key references public.businesses (id) on delete cascade,
  user_id uuid not null,
  started_at timestamptz not null default now()
);
alter table private.business_trials enable row level security;
comment on table private.business_trials is
  'One row per business that had its free trial, with the owner who started it. Read by plan_limits and '
  'choose_plan only (no API role has any grant); a trial never starts twice for a business.';
revoke all on table private.business_trials from public, anon, authenticated;

-- Existing trials and plans: every business whose owner has (or had) a plan row already used its trial.
insert into private.business_trials (business_id, user_id, started_at)
select b.id, b.owner_id, up.started_at
  from public.businesses b
  join public.user_plans up on up.user_id = b.owner_id
on conflict (business_id) do nothing;

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
comment on function private.record_business_trial() is
  'Trigger on user_plans: a plan that starts trialing records the trial of each business its user owns.';
revoke all on function private.record_business_trial() from public, anon, authenticated;
create trigger user_plans_record_trial after insert or update of status on public.user_plans
  for each row execute function private.record_business_trial();

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
comment on function private.plan_is_live(public.user_plans, uuid) is
  'True when the plan row applies to the business now (active or past due, or a trial before its end started '
  'for that business). The one rule behind plan_limits and my_plan.';
revoke all on function private.plan_is_live(public.user_plans, uuid) from public, anon, authenticated;

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
comment on function private.plan_limits(uuid) is
  'The plan in force for a business and its limits (null = unlimited; max_products counts sellable items). '
  'Free without a live plan: none, canceled, expired, or a trial past its end.';
revoke all on function private.plan_limits(uuid) from public, anon, authenticated;

-- choose_plan (20261123100100): a first plan starts a 7-day trial, unless a business the caller owns already had
-- one (it was taken over from an owner who trialed it); switching plans keeps status and dates, as before.
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
comment on function public.choose_plan(text) is
  'The signed-in user picks Starter, Growth or Pro: a first choice starts a 7-day trial (once per business, '
  'SW002 otherwise); later choices change plan and price only.';
revoke all on function public.choose_plan(text) from public, anon;
grant execute on function public.choose_plan(text) to authenticated;

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
comment on function public.my_plan() is
  'The signed-in user''s plan row for the billing page: an ended trial reads as expired; effective_plan is the '
  'plan whose limits apply (Free when none is live).';
revoke all on function public.my_plan() from public, anon, authenticated;
grant execute on function public.my_plan() to authenticated;

-- ===================================================================================================
-- 8. The actor of the trail is the account
-- ===================================================================================================

alter table public.activity add column actor_email text;
comment on column public.activity.actor_email is
  'The actor''s account email when the entry was written (set by the writers from auth.users, not chosen by '
  'the actor). actor_label is the profile name at the time, a secondary label; entries before 20261127110000 '
  'have no email and the Activity page looks it up by actor_id.';
comment on column public.activity.actor_label is
  'The actor''s profile name when the entry was written (editable by them: never the identity, see actor_email).';

-- log_activity (20261122100000_workspace.sql): the actor is the user id with the account email; the name follows.
create or replace function private.log_activity(
  _business_id uuid, _store_id uuid, _kind text, _entity_type text, _entity_id uuid, _before jsonb, _after jsonb
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor uuid := (select auth.uid());
begin
  -- A business being deleted (its owner's account removed) takes its trail with it: nothing to log.
  if not exists (select 1 from public.businesses b where b.id = _business_id) then
    return;
  end if;
  insert into public.activity (business_id, store_id, actor_id, actor_email, actor_label, kind, entity_type, entity_id,
                               before, after)
  select _business_id, _store_id, v_actor, u.email::text, p.full_name, _kind, _entity_type, _entity_id, _before, _after
    from (select 1) one
    left join auth.users u on u.id = v_actor
    left join public.profiles p on p.id = v_actor;
end;
$$;
comment on function private.log_activity(uuid, uuid, text, text, uuid, jsonb, jsonb) is
  'Appends one trail entry as the signed-in user: actor_id and actor_email identify them, actor_label is their name.';
revoke all on function private.log_activity(uuid, uuid, text, text, uuid, jsonb, jsonb) from public, anon, authenticated;

-- sale_stock_movements (20261124100000_pos_speed.sql), identical except the trail's actor fields, which follow
-- log_activity: actor_email from the account, actor_label the profile name.
create or replace function private.sale_stock_movements(_business_id uuid, _store_id uuid, _sale_id uuid,
                                                        _receipt text, _occurred_at timestamptz, _lines jsonb)
returns text[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_email text := (select u.email::text from auth.users u where u.id = v_uid);
  v_name text := (select p.full_name from public.profiles p where p.id = v_uid);
  v_negative text[];
begin
  with mv as materialized (
    select l.variant_id, l.lot_id, sum(l.qty) as qty, max(l.cost) as cost
      from jsonb_to_recordset(_lines) as l (variant_id uuid, lot_id uuid, qty numeric, cost bigint, track_stock boolean)
     where l.track_stock
     group by 1, 2
  ), moved as (
    insert into public.stock_movements (business_id, store_id, variant_id, lot_id, kind, qty, reason, unit_cost,
                                        occurred_at, actor_id, reference_type, reference_id, note)
    select _business_id, _store_id, mv.variant_id, mv.lot_id, 'sale', -mv.qty, null, mv.cost,
           coalesce(_occurred_at, now()), v_uid, 'sale', _sale_id, _receipt
      from mv order by mv.variant_id, mv.lot_id
    returning id, variant_id, lot_id
  ), balanced as (
    insert into public.stock_balances as b (business_id, store_id, variant_id, lot_id, qty)
    select _business_id, _store_id, mv.variant_id, mv.lot_id, -mv.qty
      from mv order by mv.variant_id, mv.lot_id
    on conflict (store_id, variant_id, lot_id) do update set qty = b.qty + excluded.qty, updated_at = now()
    returning b.variant_id, b.lot_id, b.qty
  ), logged as (
    insert into public.activity (business_id, store_id, actor_id, actor_email, actor_label, kind, entity_type,
                                 entity_id, before, after)
    select _business_id, _store_id, v_uid, v_email, v_name,
           'stock.sale', 'variant', m.variant_id, null,
           jsonb_build_object('movement_id', m.id, 'qty', -mv.qty, 'balance', b.qty, 'lot_id', m.lot_id, 'reason', null,
                              'reference_type', 'sale', 'reference_id', _sale_id)
      from moved m
      join mv on mv.variant_id = m.variant_id and mv.lot_id is not distinct from m.lot_id
      join balanced b on b.variant_id = m.variant_id and b.lot_id is not distinct from m.lot_id
     order by m.variant_id, m.lot_id
    returning 1
  )
  select array_agg(('negative_stock:' || b.variant_id)::text order by b.variant_id, b.lot_id)
    into v_negative
    from balanced b where b.qty < 0;
  return coalesce(v_negative, '{}');
end;
$$;
comment on function private.sale_stock_movements(uuid, uuid, uuid, text, timestamptz, jsonb) is
  'A sale''s ledger rows, balance deltas and stock.sale trail entries in one statement; negative balances returned.';
revoke all on function private.sale_stock_movements(uuid, uuid, uuid, text, timestamptz, jsonb)
  from public, anon, authenticated;

-- stock_history (20261122120100_inventory_functions.sql) gains actor_email: the ledger keeps the actor's user id,
-- so the email is the account's (which its holder cannot set to someone else's); actor_label is the name.
-- A new result column changes the return type, hence drop and create.
drop function public.stock_history(uuid, uuid, int, int);
create function public.stock_history(_store_id uuid, _variant_id uuid, _limit int default 100, _offset int default 0)
returns table (
  id bigint, kind text, qty numeric, balance numeric, reason text, lot_number text, expires_on date,
  occurred_at timestamptz, recorded_at timestamptz, actor_id uuid, actor_label text, reference_type text,
  reference_id uuid, note text, actor_email text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_store_role(_store_id, array['owner', 'manager']);
  return query
    with h as (
      select m.*, sum(m.qty) over (order by m.id) as running
        from public.stock_movements m
       where m.store_id = _store_id and m.variant_id = _variant_id
    )
    select h.id, h.kind, h.qty, h.running, h.reason, l.lot_number, l.expires_on, h.occurred_at, h.recorded_at,
           h.actor_id, p.full_name, h.reference_type, h.reference_id, h.note::text, u.email::text
      from h
      left join public.lots l on l.id = h.lot_id
      left join auth.users u on u.id = h.actor_id
      left join public.profiles p on p.id = h.actor_id
     order by h.id desc
     limit least(greatest(coalesce(_limit, 100), 1), 500) offset greatest(coalesce(_offset, 0), 0);
end;
$$;
comment on function public.stock_history(uuid, uuid, int, int) is
  'Owners and managers of the store: a variant''s movements newest first with the running balance and the actor '
  '(user id, account email, name).';
revoke all on function public.stock_history(uuid, uuid, int, int) from public, anon;
grant execute on function public.stock_history(uuid, uuid, int, int) to authenticated;

-- ===================================================================================================
-- 7. The trail of prices, costs, counts and deletions
-- ===================================================================================================

-- Audit trigger for rows named by another row (a store's price of a variant, a variant's cost, a reorder point):
-- tg_argv[0] is the entity, tg_argv[1] the column that names it. kind = <entity>.<created|updated|deleted>,
-- before and after the whole row. An update that changes nothing but updated_at writes nothing.
create or replace function private.audit_keyed_row()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_entity text := tg_argv[0];
  v_old jsonb := case when tg_op <> 'INSERT' then to_jsonb(old) end;
  v_new jsonb := case when tg_op <> 'DELETE' then to_jsonb(new) end;
  v_row jsonb := coalesce(v_new, v_old);
begin
  if tg_op = 'UPDATE' and (v_old - 'updated_at') = (v_new - 'updated_at') then
    return null;
  end if;
  perform private.log_activity((v_row ->> 'business_id')::uuid, (v_row ->> 'store_id')::uuid,
    v_entity || '.' || case tg_op when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'deleted' end,
    v_entity, (v_row ->> tg_argv[1])::uuid, v_old, v_new);
  return null;
end;
$$;
comment on function private.audit_keyed_row() is
  'Trail trigger for store_prices, variant_costs, reorder_points, barcodes and categories: before and after rows.';
revoke all on function private.audit_keyed_row() from public, anon, authenticated;

create trigger audit_store_price after insert or update or delete on public.store_prices
  for each row execute function private.audit_keyed_row('store_price', 'variant_id');
create trigger audit_variant_cost after insert or update or delete on public.variant_costs
  for each row execute function private.audit_keyed_row('variant_cost', 'variant_id');
create trigger audit_reorder_point after insert or update or delete on public.reorder_points
  for each row execute function private.audit_keyed_row('reorder_point', 'variant_id');
create trigger audit_barcode after insert or update or delete on public.barcodes
  for each row execute function private.audit_keyed_row('barcode', 'id');
create trigger audit_category after insert or update or delete on public.categories
  for each row execute function private.audit_keyed_row('category', 'id');
-- Suppliers were audited on insert and update only (20261122120000_catalog.sql).
create trigger audit_supplier_deleted after delete on public.suppliers
  for each row execute function private.audit_row('supplier');

-- A draft purchase order's deletion, with its lines: before the delete, while the lines are still there.
create or replace function private.audit_purchase_order_deleted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.log_activity(old.business_id, old.store_id, 'purchase_order.deleted', 'purchase_order', old.id,
    to_jsonb(old) || jsonb_build_object('lines', coalesce((
      select jsonb_agg(jsonb_build_object('variant_id', l.variant_id, 'qty_ordered', l.qty_ordered,
                                          'unit_cost', l.unit_cost) order by l.variant_id)
        from public.purchase_order_lines l where l.purchase_order_id = old.id), '[]'::jsonb)),
    null);
  return old;
end;
$$;
comment on function private.audit_purchase_order_deleted() is
  'Trail trigger: a deleted purchase order (drafts only, by policy) with its lines as they were.';
revoke all on function private.audit_purchase_order_deleted() from public, anon, authenticated;
create trigger audit_purchase_order_deleted before delete on public.purchase_orders
  for each row execute function private.audit_purchase_order_deleted();

-- ===================================================================================================
-- 10. The product limit counts sellable items
-- ===================================================================================================

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
comment on function private.assert_items_allow(uuid, bigint) is
  'Plan limit on sellable items (variants): SW001 when adding _adding would pass private.plan_limits.max_products.';
revoke all on function private.assert_items_allow(uuid, bigint) from public, anon, authenticated;

-- products_guard (20261122120000_catalog.sql): a new product needs room for one item; restoring a product brings
-- back its unarchived variants.
create or replace function private.products_guard()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.business_id is distinct from old.business_id then
    raise exception 'a product cannot move to another business' using errcode = '42501';
  end if;
  if tg_op = 'INSERT' and new.archived_at is null then
    perform private.assert_items_allow(new.business_id, 1);
  elsif tg_op = 'UPDATE' and old.archived_at is not null and new.archived_at is null then
    perform private.assert_items_allow(new.business_id,
      (select count(*) from public.variants v where v.product_id = new.id and v.archived_at is null));
  end if;
  return new;
end;
$$;
comment on function private.products_guard() is
  'Products stay in their business; creating or restoring one is limited by the plan''s sellable items.';
revoke all on function private.products_guard() from public, anon, authenticated;

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
comment on function private.variants_plan_limit() is
  'Trigger on variants: creating or restoring a sellable variant is limited by the plan (SW001).';
revoke all on function private.variants_plan_limit() from public, anon, authenticated;
create trigger variants_plan_limit before insert or update of archived_at on public.variants
  for each row execute function private.variants_plan_limit();

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
comment on function public.my_plan_usage() is
  'The signed-in owner''s businesses with stores, sellable items (products_used) and members in use.';
revoke all on function public.my_plan_usage() from public, anon, authenticated;
grant execute on function public.my_plan_usage() to authenticated, service_role;

-- ===================================================================================================
-- 11. Hourly email caps
-- ===================================================================================================

-- One row per email a member had the platform send, for the hourly caps (the outbox forgets sent mail).
create table private.email_sends (
  id bigint generated always as identity primary key,
  business_id uuid not null references public.businesses (id) on delete cascade,
  user_id uuid,
  kind text not null check (kind in ('purchase_order', 'receipt', 'invitation')),
  at timestamptz not null default now()
);
alter table private.email_sends enable row level security;
comment on table private.email_sends is
  'Emails members had the platform send, counted per business and per account over the last hour by '
  'private.spend_email. No API role reads or writes it; rows older than a day are removed as the account sends.';
revoke all on table private.email_sends from public, anon, authenticated;
create index email_sends_business_at_idx on private.email_sends (business_id, at);
create index email_sends_user_at_idx on private.email_sends (user_id, at);

-- The caps for a business: low on Free and trials (a trial is where a new account would abuse it), higher on a
-- paid plan in force.
create or replace function private.email_caps(_business_id uuid)
returns table (per_business int, per_account int, plan_label text)
language sql
stable
security definer
set search_path = ''
as $$
  select case when paid.ok then 300 else 20 end, case when paid.ok then 100 else 10 end,
         case when paid.ok then l.plan || ' plan' when l.plan = 'Free' then 'Free plan' else 'trial' end
    from private.plan_limits(_business_id) l
    cross join lateral (
      select exists (select 1 from public.businesses b join public.user_plans up on up.user_id = b.owner_id
                      where b.id = _business_id and up.status in ('active', 'past_due')
                        and l.plan <> 'Free') as ok
    ) paid;
$$;
comment on function private.email_caps(uuid) is
  'Hourly email caps of a business: per business and per account (Free and trials 20 and 10; paid 300 and 100).';
revoke all on function private.email_caps(uuid) from public, anon, authenticated;

-- Counts one email of _kind for the business and the calling account, or raises PT429 (HTTP 429 in PostgREST and
-- the local gateway) saying how long to wait. Locks per business, then per account, so concurrent calls queue.
create or replace function private.spend_email(_business_id uuid, _kind text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_caps record;
  v_business_sent int;
  v_account_sent int;
  v_oldest timestamptz;
  v_wait int;
  v_hint text;
begin
  select * into v_caps from private.email_caps(_business_id);
  v_hint := case when v_caps.plan_label in ('Free plan', 'trial') then 'Paid plans send more emails per hour.'
                 else 'The count goes down as the hour passes; support can help with more.' end;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('email_sends:' || _business_id::text, 0));
  if v_uid is not null then
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('email_sends:' || v_uid::text, 0));
    delete from private.email_sends s where s.user_id = v_uid and s.at < now() - interval '1 day';
  end if;
  select count(*) into v_business_sent from private.email_sends s
   where s.business_id = _business_id and s.at > now() - interval '1 hour';
  select count(*) into v_account_sent from private.email_sends s
   where v_uid is not null and s.user_id = v_uid and s.at > now() - interval '1 hour';
  if v_account_sent >= v_caps.per_account then
    select min(s.at) into v_oldest from private.email_sends s
     where s.user_id = v_uid and s.at > now() - interval '1 hour';
    v_wait := greatest(1, ceil(extract(epoch from (v_oldest + interval '1 hour' - now())) / 60)::int);
    raise exception 'you have sent % emails in the last hour, the most one person may send on the %; try again in % minutes',
        v_account_sent, v_caps.plan_label, v_wait
      using errcode = 'PT429', hint = v_hint;
  end if;
  if v_business_sent >= v_caps.per_business then
    select min(s.at) into v_oldest from private.email_sends s
     where s.business_id = _business_id and s.at > now() - interval '1 hour';
    v_wait := greatest(1, ceil(extract(epoch from (v_oldest + interval '1 hour' - now())) / 60)::int);
    raise exception 'this business has sent % emails in the last hour, the most the % allows; try again in % minutes',
        v_business_sent, v_caps.plan_label, v_wait
      using errcode = 'PT429', hint = v_hint;
  end if;
  insert into private.email_sends (business_id, user_id, kind) values (_business_id, v_uid, _kind);
end;
$$;
comment on function private.spend_email(uuid, text) is
  'Counts one member-triggered email against the hourly caps of the business and the account, or raises PT429.';
revoke all on function private.spend_email(uuid, text) from public, anon, authenticated;

-- Invitations: each one is an email the inviting screen sends (docs/adr/0105), so creating one spends from the caps.
create or replace function private.invitations_spend_email()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.spend_email(new.business_id, 'invitation');
  return new;
end;
$$;
comment on function private.invitations_spend_email() is
  'Trigger on invitations: a new invitation counts as one email against the hourly caps (PT429 past them).';
revoke all on function private.invitations_spend_email() from public, anon, authenticated;
create trigger invitations_spend_email before insert on public.invitations
  for each row execute function private.invitations_spend_email();

-- email_purchase_order (20261123120000_inventory_more.sql): the same, plus the hourly caps before queueing.
create or replace function public.email_purchase_order(_purchase_order_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_po public.purchase_orders;
  v_business uuid;
  v_supplier public.suppliers;
  v_lines jsonb;
begin
  select po.* into v_po from public.purchase_orders po where po.id = _purchase_order_id;
  if v_po.id is null then
    raise exception 'no such purchase order' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_po.store_id, array['owner', 'manager']);
  if v_po.status not in ('ordered', 'partly_received') then
    raise exception 'mark the order as ordered before sending it to the supplier' using errcode = '22023';
  end if;
  select s.* into v_supplier from public.suppliers s where s.id = v_po.supplier_id;
  if v_supplier.email is null then
    raise exception 'this supplier has no email address: add one on the Suppliers page' using errcode = '22023';
  end if;
  if (select count(*) from public.activity a where a.business_id = v_business and a.entity_id = _purchase_order_id
        and a.kind = 'purchase_order.emailed' and a.at > now() - interval '1 hour') >= 3 then
    raise exception 'this order was emailed 3 times in the last hour: try again later' using errcode = '22023';
  end if;
  perform private.spend_email(v_business, 'purchase_order');
  select coalesce(jsonb_agg(jsonb_build_object(
           'sku', v.sku,
           'name', concat_ws(' / ', p.name, v.option1, v.option2, v.option3),
           'qty', l.qty_ordered, 'unit', p.unit) order by p.name, v.sku), '[]')
    into v_lines
    from public.purchase_order_lines l
    join public.variants v on v.id = l.variant_id
    join public.products p on p.id = v.product_id
   where l.purchase_order_id = _purchase_order_id;
  insert into public.email_outbox (to_email, template, params)
  values (v_supplier.email, 'purchase_order', jsonb_build_object(
    'order_number', upper(left(replace(_purchase_order_id::text, '-', ''), 8)),
    'business_name', (select b.name from public.businesses b where b.id = v_business),
    'store_name', (select st.name from public.stores st where st.id = v_po.store_id),
    'contact_name', v_supplier.contact_name,
    'expected_on', v_po.expected_on,
    'notes', v_po.notes,
    'lines', v_lines));
  perform private.log_activity(v_business, v_po.store_id, 'purchase_order.emailed', 'purchase_order',
    _purchase_order_id, null, jsonb_build_object('supplier_id', v_supplier.id, 'lines', jsonb_array_length(v_lines)));
  return v_supplier.email;
end;
$$;
comment on function public.email_purchase_order(uuid) is
  'Owners and managers of the store: queues an ordered purchase order to its supplier''s email (3 per order per '
  'hour, and the business''s and account''s hourly email caps: PT429 past them). Returns the address.';
revoke all on function public.email_purchase_order(uuid) from public, anon;
grant execute on function public.email_purchase_order(uuid) to authenticated;

-- request_receipt_email (20261123135000_receipt_email.sql): the same, plus the hourly caps before queueing.
create or replace function public.request_receipt_email(_sale_id uuid, _email text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_sale public.sales;
  v_email public.email_address;
begin
  if v_uid is null then
    raise exception 'sign in to email a receipt' using errcode = '42501';
  end if;
  -- The same rule as the sales read policy: full access to the business, or access to the sale's store.
  select s.* into v_sale from public.sales s
   where s.id = _sale_id
     and (s.business_id in (select private.my_full_access_business_ids())
          or s.store_id in (select private.my_listed_store_ids()));
  if v_sale.id is null then
    raise exception 'receipt not found (a sale made offline can be emailed once it has synced)' using errcode = '42501';
  end if;
  begin
    v_email := btrim(coalesce(_email, ''));
  exception when check_violation then
    raise exception 'enter a valid email address' using errcode = '22023';
  end;
  if (select count(*) from public.activity a
       where a.business_id = v_sale.business_id and a.kind = 'receipt.emailed' and a.entity_id = v_sale.id) >= 3 then
    raise exception 'this receipt was already emailed 3 times' using errcode = 'SW003';
  end if;
  if (select count(*) from public.activity a
       where a.business_id = v_sale.business_id and a.actor_id = v_uid and a.at > now() - interval '1 hour'
         and a.kind = 'receipt.emailed') >= 30 then
    raise exception 'too many receipt emails in the last hour; try again later' using errcode = 'SW003';
  end if;
  perform private.spend_email(v_sale.business_id, 'receipt');

  insert into public.email_outbox (to_email, template, params)
  values (v_email, 'receipt', private.receipt_email_params(v_sale));
  perform private.log_activity(v_sale.business_id, v_sale.store_id, 'receipt.emailed', 'sale', v_sale.id, null,
    jsonb_build_object('receipt_number', v_sale.receipt_number));
  return jsonb_build_object('queued', true, 'receipt_number', v_sale.receipt_number);
end;
$$;
comment on function public.request_receipt_email(uuid, text) is
  'Queues the receipt of a sale the caller may read for email to one address (3 per sale, 30 per member per hour, '
  'and the business''s and account''s hourly email caps: PT429 past them).';
revoke all on function public.request_receipt_email(uuid, text) from public, anon;
grant execute on function public.request_receipt_email(uuid, text) to authenticated;

-- ===================================================================================================
-- 12. post_count checks first; managers do not read invitation entries
-- ===================================================================================================

-- post_count (20261124120000_catalog_search_words.sql), the same except that every line's item and lot are checked
-- before anything is written: a lot of another item or business is refused instead of getting a balance row.
create or replace function public.post_count(_store_id uuid, _lines jsonb, _occurred_at timestamptz default null)
returns table (variant_id uuid, lot_id uuid, expected numeric, counted numeric, delta numeric)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager']);
  r record;
  v_expected numeric;
begin
  if jsonb_typeof(_lines) is distinct from 'array' or jsonb_array_length(_lines) = 0 then
    raise exception 'count at least one item' using errcode = '22023';
  end if;
  if jsonb_array_length(_lines) > 5000 then
    raise exception 'post at most 5000 lines at once' using errcode = '22023';
  end if;
  if exists (select 1 from jsonb_to_recordset(_lines) as x (lot_id uuid, lot_number text, counted numeric)
              where nullif(btrim(coalesce(x.lot_number, '')), '') is not null
                and (x.lot_id is not null or x.counted is null or x.counted <= 0)) then
    raise exception 'a lot found during the count needs its number alone (no lot id) and a counted quantity above zero'
      using errcode = '22023';
  end if;
  -- Checked before any found lot is created or any balance row written.
  if exists (select 1 from jsonb_to_recordset(_lines) as x (variant_id uuid, lot_id uuid)
              where x.variant_id is null
                 or not exists (select 1 from public.variants v where v.id = x.variant_id and v.business_id = v_business)
                 or (x.lot_id is not null
                     and not exists (select 1 from public.lots l where l.id = x.lot_id and l.variant_id = x.variant_id
                                        and l.business_id = v_business))) then
    raise exception 'every counted line needs an item of this business, and a lot of that item when it names one'
      using errcode = '22023';
  end if;
  for r in
    select y.variant_id, y.lot_id, y.counted
      from (select x.variant_id, x.counted,
                   case when nullif(btrim(coalesce(x.lot_number, '')), '') is null then x.lot_id
                        else private.count_found_lot(v_business, _store_id, x.variant_id, x.lot_number, x.expires_on)
                   end as lot_id
              from (select x.* from jsonb_to_recordset(_lines)
                                    as x (variant_id uuid, lot_id uuid, counted numeric, lot_number text, expires_on date)
                     order by x.variant_id, x.lot_number) x
             offset 0) y
     order by y.variant_id, y.lot_id nulls first
  loop
    if r.variant_id is null or r.counted is null or r.counted < 0 then
      raise exception 'every counted line needs an item and a quantity of zero or more' using errcode = '22023';
    end if;
    perform private.assert_quantity(r.variant_id, r.counted);
    insert into public.stock_balances (business_id, store_id, variant_id, lot_id, qty)
    values (v_business, _store_id, r.variant_id, r.lot_id, 0)
    on conflict on constraint stock_balances_key do nothing;
    select b.qty into v_expected from public.stock_balances b
     where b.store_id = _store_id and b.variant_id = r.variant_id and b.lot_id is not distinct from r.lot_id
       for update;
    if r.counted <> v_expected then
      perform private.apply_movement(v_business, _store_id, r.variant_id, r.lot_id, 'count', r.counted - v_expected,
                                     'count', null, _occurred_at, null, null, null);
    end if;
    variant_id := r.variant_id; lot_id := r.lot_id; expected := v_expected; counted := r.counted;
    delta := r.counted - v_expected;
    return next;
  end loop;
end;
$$;
comment on function public.post_count(uuid, jsonb, timestamptz) is
  'Owners and managers of the store: counted quantities become count movements under the balance row''s lock; '
  'items and lots are checked before anything is written.';
revoke all on function public.post_count(uuid, jsonb, timestamptz) from public, anon;
grant execute on function public.post_count(uuid, jsonb, timestamptz) to authenticated;

-- The trail's read policy (20261122100000_workspace.sql) without invitation entries for managers: docs/permissions.md
-- gives managers no access to invitations, and those entries carry the invited email and role.
drop policy "activity: owners read all, managers their stores" on public.activity;
create policy "activity: owners read all, managers their stores" on public.activity
  for select to authenticated
  using (business_id in (select private.my_business_ids(array['owner']))
         or (business_id in (select private.my_business_ids(array['manager']))
             and entity_type <> 'invitation'
             and (store_id is null or (business_id in (select private.my_full_access_business_ids())
              or store_id in (select private.my_listed_store_ids())))));
comment on table public.activity is
  'Owners read their business''s trail; managers the entries of the business and of stores they may access, '
  'except invitation entries. Nobody inserts, updates or deletes through the API; triggers and security definer '
  'functions append, naming the actor by user id and account email.';
