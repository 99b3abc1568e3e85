-- Issue 11, the in-dashboard plan chooser and the ownership transfer screen (docs/adr/0108).
-- * One table of limits and prices: private.plan_limits_of(plan) and private.plan_price(plan). plan_limits
--   (enforcement) and choose_plan (what a plan costs) now read them, and public.plan_catalog() lets the
--   chooser show the same numbers, so a confirmation cannot promise a limit the database would not enforce.
-- * public.my_plan_usage(): what each business the caller owns uses (stores, products, members), so the
--   chooser can say what would be over a smaller plan's limits before the owner confirms.
-- * public.transfer_ownership_confirmed(): the screen's path to transfer_ownership; it asks for the business
--   name typed back and writes one explicit "business.ownership_transferred" line to the trail.

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
revoke all on function private.plan_limits_of(text) from public, anon, authenticated;

-- The per-month price of a self-service plan (billed annually); null for any other name.
create or replace function private.plan_price(_plan text)
returns numeric(12, 2)
language sql
immutable
set search_path = ''
as $$
  select case _plan when 'Starter' then 9.99 when 'Growth' then 29.99 when 'Pro' then 99.99 end::numeric(12, 2);
$$;
revoke all on function private.plan_price(text) from public, anon, authenticated;

-- Same contract as before (20261122100000_workspace.sql), now reading the one table of limits.
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
         where b.id = _business_id and up.status in ('trialing', 'active', 'past_due')
      ), 'Free') as plan
    ) p
    cross join lateral private.plan_limits_of(p.plan) l;
$$;
revoke all on function private.plan_limits(uuid) from public, anon, authenticated;

-- Same behaviour as the core schema's choose_plan; the price now comes from private.plan_price.
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
  insert into public.user_plans as p (user_id, plan_name, price, billing_cycle, status, auto_renew,
                                      started_at, next_billing_date)
  values (v_uid, _plan_name, v_price, 'annual', 'trialing', true, now(), now() + interval '7 days')
  -- The free trial is granted once: switching plans later changes the plan and its price but keeps the
  -- status and dates, so choosing again cannot restart a trial.
  on conflict (user_id) do update
    set plan_name = excluded.plan_name,
        price = excluded.price
  returning * into v_plan;
  return v_plan;
end;
$$;
revoke all on function public.choose_plan(text) from public, anon;
grant execute on function public.choose_plan(text) to authenticated;

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
comment on function public.plan_catalog() is
  'Plans with price per month and limits (null = unlimited), from the tables plan_limits and choose_plan use.';
revoke all on function public.plan_catalog() from public, anon, authenticated;
grant execute on function public.plan_catalog() to authenticated, service_role;
-- plan_catalog is security invoker: its callers need the two private helpers (they only compute from a name).
grant execute on function private.plan_limits_of(text) to authenticated, service_role;
grant execute on function private.plan_price(text) to authenticated, service_role;

-- What each business the caller owns uses, against any plan's limits (suspended ones included: the owner
-- still manages their plan). Counts as the limits count: unarchived stores and products, every member.
create or replace function public.my_plan_usage()
returns table (business_id uuid, business_name text, stores_used bigint, products_used bigint, members_used bigint)
language sql
stable
security definer
set search_path = ''
as $$
  select b.id, b.name::text,
         (select count(*) from public.stores s where s.business_id = b.id and s.archived_at is null),
         (select count(*) from public.products p where p.business_id = b.id and p.archived_at is null),
         (select count(*) from public.business_members m where m.business_id = b.id)
    from public.businesses b
   where b.owner_id = (select auth.uid())
   order by b.name, b.id;
$$;
comment on function public.my_plan_usage() is
  'The signed-in owner''s businesses with stores, products and members in use (the plan chooser''s warnings).';
revoke all on function public.my_plan_usage() from public, anon, authenticated;
grant execute on function public.my_plan_usage() to authenticated, service_role;

-- The transfer screen's path: the owner types the business name back (case and outer spaces ignored), then
-- transfer_ownership does the work and its audit lines follow; this adds the one line an owner looks for.
create or replace function public.transfer_ownership_confirmed(_business_id uuid, _new_owner uuid, _confirm_name text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_name text;
  v_new_label text;
begin
  perform private.assert_role(_business_id, array['owner']);
  select b.name::text into v_name from public.businesses b where b.id = _business_id;
  if lower(btrim(coalesce(_confirm_name, ''))) <> lower(btrim(v_name)) then
    raise exception 'type the business name exactly to confirm the transfer' using errcode = '22023';
  end if;
  perform public.transfer_ownership(_business_id, _new_owner);
  select coalesce(p.full_name, u.email) into v_new_label
    from auth.users u left join public.profiles p on p.id = u.id where u.id = _new_owner;
  perform private.log_activity(_business_id, null, 'business.ownership_transferred', 'business', _business_id,
    jsonb_build_object('owner_id', v_uid), jsonb_build_object('owner_id', _new_owner, 'owner_label', v_new_label));
end;
$$;
comment on function public.transfer_ownership_confirmed(uuid, uuid, text) is
  'Owner only (42501): hands the business to another member after the business name is typed back (22023).';
revoke all on function public.transfer_ownership_confirmed(uuid, uuid, text) from public, anon, authenticated;
grant execute on function public.transfer_ownership_confirmed(uuid, uuid, text) to authenticated, service_role;
