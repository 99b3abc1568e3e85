-- Best and worst sellers over long ranges (issue 14, ADR 0151): monthly per-variant rollups of the daily variant
-- summary (ADR 0143), so report_top_products ranks a year without aggregating a year of daily rows.
--
-- * Who reads: owners and managers. sales_monthly_variant (per store) as the daily summaries: the stores a member
--   may use; sales_monthly_variant_business (all stores together) only members with access to every store (an
--   owner, a manager of all stores), since it cannot be split by store. Cashiers read neither (they carry cost).
--   Who writes: nobody through the API; statement triggers on public.sales_daily_variant keep them equal to it
--   in the same transaction (every write path of the daily summary, rebuilds and time zone changes included,
--   passes through it), and private.rebuild_variant_rollups rebuilds a business from it.
-- * revenue, units, cost: the exact sums of the daily rows of the month (cost unrounded, as the daily rows).
--   revenue_bound: the sum of max(daily revenue, 0), an upper bound of the revenue of any part of the month even
--   if a line were ever negative; the ranking prunes with it (private.top_sellers). days: the daily rows behind the
--   row; a row whose days reach 0 is deleted.

create table public.sales_monthly_variant (
  business_id uuid not null,
  store_id uuid not null,
  month date not null,
  variant_id uuid not null,
  days bigint not null default 0,
  units numeric not null default 0,
  revenue bigint not null default 0,
  revenue_bound bigint not null default 0,
  cost numeric not null default 0,
  primary key (store_id, month, variant_id),
  foreign key (store_id, business_id) references public.stores (id, business_id) on delete cascade
);
alter table public.sales_monthly_variant enable row level security;
comment on table public.sales_monthly_variant is
  'Per store, month and variant: the sums of sales_daily_variant (units, revenue net of tax, cost) and revenue_bound '
  '(sum of max(daily revenue, 0)) for ranking best sellers. Maintained by triggers on sales_daily_variant (ADR 0151). '
  'Owners and managers read the stores they may use; nobody writes through the API.';
create index sales_monthly_variant_rank_idx on public.sales_monthly_variant (store_id, month, revenue_bound desc);
create index sales_monthly_variant_store_business_idx on public.sales_monthly_variant (store_id, business_id);
create index sales_monthly_variant_variant_idx on public.sales_monthly_variant (variant_id, month);
create index sales_monthly_variant_business_idx on public.sales_monthly_variant (business_id, month);

create table public.sales_monthly_variant_business (
  business_id uuid not null references public.businesses (id) on delete cascade,
  month date not null,
  variant_id uuid not null,
  days bigint not null default 0,
  units numeric not null default 0,
  revenue bigint not null default 0,
  revenue_bound bigint not null default 0,
  cost numeric not null default 0,
  primary key (business_id, month, variant_id)
);
alter table public.sales_monthly_variant_business enable row level security;
comment on table public.sales_monthly_variant_business is
  'Per business, month and variant over all stores: the sums of sales_daily_variant and revenue_bound, for ranking '
  'best sellers. Maintained by triggers on sales_daily_variant (ADR 0151). Owners and managers of every store read; '
  'nobody writes through the API.';
create index sales_monthly_variant_business_rank_idx
  on public.sales_monthly_variant_business (business_id, month, revenue_bound desc);
create index sales_monthly_variant_business_variant_idx on public.sales_monthly_variant_business (variant_id, month);

-- The page's figures read a variant's days in a range (the daily summary had variant_id alone).
create index if not exists sales_daily_variant_variant_day_idx on public.sales_daily_variant (variant_id, day);

-- ---------------------------------------------------------------------------------------------------
-- Maintenance: signed deltas of the daily rows a statement inserted, updated or deleted. Inserts and updates
-- upsert; deletions only update existing rows (a store or business being deleted cascades to these tables first,
-- and an insert would then point at a row that is going away), then rows without days are removed.
-- Inserted daily rows: add them.
create or replace function private.variant_rollups_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  with g as materialized (
    select n.business_id, n.store_id, date_trunc('month', n.day::timestamp)::date as month, n.variant_id,
           count(*) as days, sum(n.units) as units, sum(n.revenue) as revenue, sum(greatest(n.revenue, 0)) as bound,
           sum(n.cost) as cost
      from new_rows n group by 1, 2, 3, 4
  ),
    per_store as (
      insert into public.sales_monthly_variant as m (business_id, store_id, month, variant_id, days, units, revenue,
                                                     revenue_bound, cost)
      select business_id, store_id, month, variant_id, days, units, revenue, bound, cost from g
      on conflict (store_id, month, variant_id) do update
        set days = m.days + excluded.days, units = m.units + excluded.units, revenue = m.revenue + excluded.revenue,
            revenue_bound = m.revenue_bound + excluded.revenue_bound, cost = m.cost + excluded.cost
      returning 1
    )
    insert into public.sales_monthly_variant_business as m (business_id, month, variant_id, days, units, revenue,
                                                            revenue_bound, cost)
    select business_id, month, variant_id, sum(days), sum(units), sum(revenue), sum(bound), sum(cost)
      from g group by 1, 2, 3
    on conflict (business_id, month, variant_id) do update
      set days = m.days + excluded.days, units = m.units + excluded.units, revenue = m.revenue + excluded.revenue,
          revenue_bound = m.revenue_bound + excluded.revenue_bound, cost = m.cost + excluded.cost;
  return null;
end;
$$;

-- Updated daily rows (a sale line or its cost added to an existing day): add the new values, subtract the old.
create or replace function private.variant_rollups_updated()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  with x as (
    select n.business_id, n.store_id, date_trunc('month', n.day::timestamp)::date as month, n.variant_id, 1 as days,
           n.units, n.revenue, greatest(n.revenue, 0) as bound, n.cost
      from new_rows n
    union all
    select o.business_id, o.store_id, date_trunc('month', o.day::timestamp)::date, o.variant_id, -1, -o.units,
           -o.revenue, -greatest(o.revenue, 0), -o.cost
      from old_rows o
  ), g as materialized (
    select business_id, store_id, month, variant_id, sum(days) as days, sum(units) as units, sum(revenue) as revenue,
           sum(bound) as bound, sum(cost) as cost
      from x group by 1, 2, 3, 4
    having sum(days) <> 0 or sum(units) <> 0 or sum(revenue) <> 0 or sum(bound) <> 0 or sum(cost) <> 0
  ),
    per_store as (
      insert into public.sales_monthly_variant as m (business_id, store_id, month, variant_id, days, units, revenue,
                                                     revenue_bound, cost)
      select business_id, store_id, month, variant_id, days, units, revenue, bound, cost from g
      on conflict (store_id, month, variant_id) do update
        set days = m.days + excluded.days, units = m.units + excluded.units, revenue = m.revenue + excluded.revenue,
            revenue_bound = m.revenue_bound + excluded.revenue_bound, cost = m.cost + excluded.cost
      returning 1
    )
    insert into public.sales_monthly_variant_business as m (business_id, month, variant_id, days, units, revenue,
                                                            revenue_bound, cost)
    select business_id, month, variant_id, sum(days), sum(units), sum(revenue), sum(bound), sum(cost)
      from g group by 1, 2, 3
    on conflict (business_id, month, variant_id) do update
      set days = m.days + excluded.days, units = m.units + excluded.units, revenue = m.revenue + excluded.revenue,
          revenue_bound = m.revenue_bound + excluded.revenue_bound, cost = m.cost + excluded.cost;
  -- A row moved to another store, month or variant leaves its old cell empty.
  delete from public.sales_monthly_variant m
   using (select distinct o.store_id, date_trunc('month', o.day::timestamp)::date as month, o.variant_id from old_rows o) k
   where m.store_id = k.store_id and m.month = k.month and m.variant_id = k.variant_id and m.days = 0;
  delete from public.sales_monthly_variant_business m
   using (select distinct o.business_id, date_trunc('month', o.day::timestamp)::date as month, o.variant_id from old_rows o) k
   where m.business_id = k.business_id and m.month = k.month and m.variant_id = k.variant_id and m.days = 0;
  return null;
end;
$$;

-- Deleted daily rows (a rebuild of a store's day, a sale deleted): subtract from existing rows only (a store or
-- business being deleted may have cascaded here first), then drop the rows left without days.
create or replace function private.variant_rollups_deleted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  with g as materialized (
    select o.business_id, o.store_id, date_trunc('month', o.day::timestamp)::date as month, o.variant_id,
           count(*) as days, sum(o.units) as units, sum(o.revenue) as revenue, sum(greatest(o.revenue, 0)) as bound,
           sum(o.cost) as cost
      from old_rows o group by 1, 2, 3, 4
  ), per_store as (
    update public.sales_monthly_variant m
       set days = m.days - g.days, units = m.units - g.units, revenue = m.revenue - g.revenue,
           revenue_bound = m.revenue_bound - g.bound, cost = m.cost - g.cost
      from g
     where m.store_id = g.store_id and m.month = g.month and m.variant_id = g.variant_id
    returning 1
  )
  update public.sales_monthly_variant_business m
     set days = m.days - b.days, units = m.units - b.units, revenue = m.revenue - b.revenue,
         revenue_bound = m.revenue_bound - b.bound, cost = m.cost - b.cost
    from (select business_id, month, variant_id, sum(days) as days, sum(units) as units, sum(revenue) as revenue,
                 sum(bound) as bound, sum(cost) as cost
            from g group by 1, 2, 3) b
   where m.business_id = b.business_id and m.month = b.month and m.variant_id = b.variant_id;
  delete from public.sales_monthly_variant m
   using (select distinct o.store_id, date_trunc('month', o.day::timestamp)::date as month, o.variant_id from old_rows o) k
   where m.store_id = k.store_id and m.month = k.month and m.variant_id = k.variant_id and m.days = 0;
  delete from public.sales_monthly_variant_business m
   using (select distinct o.business_id, date_trunc('month', o.day::timestamp)::date as month, o.variant_id from old_rows o) k
   where m.business_id = k.business_id and m.month = k.month and m.variant_id = k.variant_id and m.days = 0;
  return null;
end;
$$;

-- Rebuild a business's rollups from its daily rows (refresh_sales_summaries; a repair tool).
create or replace function private.rebuild_variant_rollups(_business_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.sales_monthly_variant m where m.business_id = _business_id;
  delete from public.sales_monthly_variant_business m where m.business_id = _business_id;
  insert into public.sales_monthly_variant (business_id, store_id, month, variant_id, days, units, revenue,
                                            revenue_bound, cost)
  select d.business_id, d.store_id, date_trunc('month', d.day::timestamp)::date, d.variant_id, count(*), sum(d.units),
         sum(d.revenue), sum(greatest(d.revenue, 0)), sum(d.cost)
    from public.sales_daily_variant d where d.business_id = _business_id
   group by 1, 2, 3, 4;
  insert into public.sales_monthly_variant_business (business_id, month, variant_id, days, units, revenue,
                                                     revenue_bound, cost)
  select m.business_id, m.month, m.variant_id, sum(m.days), sum(m.units), sum(m.revenue), sum(m.revenue_bound),
         sum(m.cost)
    from public.sales_monthly_variant m where m.business_id = _business_id
   group by 1, 2, 3;
end;
$$;

-- Same signature as in 20261123140100; now also rebuilds the rollups, so a bulk load made with triggers off
-- (session_replication_role = replica) ends with them equal to the daily rows too.
create or replace function private.refresh_sales_summaries(_business_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.compute_sales_summaries(_business_id, null, null);
  perform private.rebuild_variant_rollups(_business_id);
end;
$$;

revoke all on function private.variant_rollups_inserted(), private.variant_rollups_updated(),
  private.variant_rollups_deleted(), private.rebuild_variant_rollups(uuid),
  private.refresh_sales_summaries(uuid) from public, anon, authenticated;

create trigger variant_rollups_inserted after insert on public.sales_daily_variant
  referencing new table as new_rows for each statement execute function private.variant_rollups_inserted();
create trigger variant_rollups_updated after update on public.sales_daily_variant
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.variant_rollups_updated();
create trigger variant_rollups_deleted after delete on public.sales_daily_variant
  referencing old table as old_rows for each statement execute function private.variant_rollups_deleted();

-- Backfill what exists (the demo history).
select private.rebuild_variant_rollups(b.id) from public.businesses b
 where exists (select 1 from public.sales_daily_variant d where d.business_id = b.id);

-- ---------------------------------------------------------------------------------------------------
-- Grants and policies: read-only.
revoke all on table public.sales_monthly_variant, public.sales_monthly_variant_business from public, anon, authenticated;
grant select on table public.sales_monthly_variant, public.sales_monthly_variant_business to authenticated, service_role;
create policy "sales_monthly_variant: owners and managers read in their stores" on public.sales_monthly_variant
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));
create policy "sales_monthly_variant_business: owners and managers of every store read"
  on public.sales_monthly_variant_business
  for select to authenticated
  using (business_id in (select private.my_full_access_business_ids())
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

-- ---------------------------------------------------------------------------------------------------
-- Exact revenue, units and cost of the given variants over a range: the monthly rows of the whole months inside
-- the range and the daily rows of the days at its ends. _all: the all-stores table (the caller reads every
-- store and gave none); otherwise the per-store rows the caller may read (row level security), of _store_id if
-- given. Only variants with at least one daily row in the range come back.
create or replace function private.seller_totals(_business_id uuid, _from date, _to date, _store_id uuid,
                                                 _all boolean, _variants uuid[])
returns table (variant_id uuid, revenue numeric, units numeric, cost numeric)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  -- Whole months inside the range: [v_first, v_after); none when v_first >= v_after.
  v_first date := case when date_trunc('month', _from::timestamp)::date = _from then _from
                       else (date_trunc('month', _from::timestamp) + interval '1 month')::date end;
  v_after date := date_trunc('month', (_to + 1)::timestamp)::date;
begin
  if v_first >= v_after then
    v_first := _to + 1;
    v_after := _to + 1;
  end if;
  -- Per variant (a lateral join): each part is an index range on (variant, month) or (variant, day), whatever
  -- the number of variants (a plan over the whole table would evaluate the policy on every row).
  return query
    select v.id, sum(x.revenue), sum(x.units), sum(x.cost)
      from (select distinct u.id from unnest(_variants) as u (id)) v
      cross join lateral (
        select m.revenue::numeric as revenue, m.units, m.cost
          from public.sales_monthly_variant_business m
         where _all and m.variant_id = v.id and m.business_id = _business_id
           and m.month >= v_first and m.month < v_after
        union all
        select m.revenue, m.units, m.cost
          from public.sales_monthly_variant m
         where not _all and m.variant_id = v.id and m.business_id = _business_id
           and (_store_id is null or m.store_id = _store_id)
           and m.month >= v_first and m.month < v_after
        union all
        select d.revenue, d.units, d.cost
          from public.sales_daily_variant d
         where d.variant_id = v.id and d.business_id = _business_id
           and (_store_id is null or d.store_id = _store_id)
           and d.day >= _from and d.day < v_first
        union all
        select d.revenue, d.units, d.cost
          from public.sales_daily_variant d
         where d.variant_id = v.id and d.business_id = _business_id
           and (_store_id is null or d.store_id = _store_id)
           and d.day >= greatest(_from, v_after) and d.day <= _to
      ) x
     group by v.id;
end;
$$;

-- The _limit best sellers by revenue (ties by variant id), exact, without summing every variant of the range.
-- Cells: the months covering the range, per visible store unless the all-stores table serves the caller.
-- 1. seed: the _limit rows of highest revenue_bound of each cell (an index range each);
-- 2. theta: the _limit-th highest exact revenue among the seed;
-- 3. a variant whose revenue reaches theta has bounds summing to at least theta over its cells, so at least one
--    cell with revenue_bound >= theta / cells: those index ranges are the candidates;
-- 4. candidates whose bounds summed over the range's cells (one index range per variant) stay under theta are
--    dropped; the rest are summed exactly over the range and ranked.
-- (A threshold-algorithm walk down the sorted cells was tried: on the generated year, where a single line of an
-- expensive item outweighs most monthly totals of a store, it had to read thousands of rows per cell.)
create or replace function private.top_sellers(_business_id uuid, _from date, _to date, _store_id uuid, _limit int)
returns table (variant_id uuid, revenue numeric, units numeric, cost numeric)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_all boolean := _store_id is null and _business_id in (select private.my_full_access_business_ids());
  v_first date := date_trunc('month', _from::timestamp)::date;
  v_last date := date_trunc('month', _to::timestamp)::date;
  v_months date[] := array(select generate_series(v_first::timestamp, v_last::timestamp, interval '1 month')::date);
  -- Per-store cells: the stores whose rows the caller can read (all when full access), or the one asked for.
  v_stores uuid[] := case when v_all then null else array(
                       select st.id from public.stores st
                        where st.business_id = _business_id and (_store_id is null or st.id = _store_id)
                          and (_business_id in (select private.my_full_access_business_ids())
                               or st.id in (select private.my_listed_store_ids()))) end;
  v_cells int;
  v_seed uuid[];
  v_theta numeric;
  v_min bigint;
  v_candidates uuid[];
begin
  v_cells := cardinality(v_months) * case when v_all then 1 else greatest(cardinality(v_stores), 1) end;
  if v_all then
    v_seed := array(select distinct r.variant_id from unnest(v_months) as mo (month)
                     cross join lateral (select m.variant_id from public.sales_monthly_variant_business m
                                          where m.business_id = _business_id and m.month = mo.month
                                          order by m.revenue_bound desc limit _limit) r);
  else
    v_seed := array(select distinct r.variant_id from unnest(v_months) as mo (month) cross join unnest(v_stores) as s (id)
                     cross join lateral (select m.variant_id from public.sales_monthly_variant m
                                          where m.store_id = s.id and m.month = mo.month and m.business_id = _business_id
                                          order by m.revenue_bound desc limit _limit) r);
  end if;
  select min(t.revenue) into v_theta
    from (select t.revenue from private.seller_totals(_business_id, _from, _to, _store_id, v_all, v_seed) t
           order by t.revenue desc limit _limit) t
   having count(*) >= _limit;
  -- revenue_bound x cells >= theta, written on the indexed column (revenue_bound is whole minor units).
  v_min := ceil(coalesce(v_theta, 0) / v_cells)::bigint;
  if v_all then
    v_candidates := array(
      select c.id
        from (select distinct m.variant_id as id from unnest(v_months) as mo (month)
                join public.sales_monthly_variant_business m
                  on m.business_id = _business_id and m.month = mo.month and m.revenue_bound >= v_min) c
       where v_theta is null
          or (select sum(m.revenue_bound) from public.sales_monthly_variant_business m
               where m.variant_id = c.id and m.business_id = _business_id
                 and m.month between v_first and v_last) >= v_theta);
  else
    v_candidates := array(
      select c.id
        from (select distinct m.variant_id as id from unnest(v_months) as mo (month) cross join unnest(v_stores) as s (id)
                join public.sales_monthly_variant m
                  on m.store_id = s.id and m.month = mo.month and m.business_id = _business_id
                 and m.revenue_bound >= v_min) c
       where v_theta is null
          or (select sum(m.revenue_bound) from public.sales_monthly_variant m
               where m.variant_id = c.id and m.business_id = _business_id and m.store_id = any (v_stores)
                 and m.month between v_first and v_last) >= v_theta);
  end if;
  return query
    select t.variant_id, t.revenue, t.units, t.cost
      from private.seller_totals(_business_id, _from, _to, _store_id, v_all, v_candidates || v_seed) t
     order by t.revenue desc, t.variant_id
     limit _limit;
end;
$$;

-- The _limit worst sellers: first the variants on sale that did not sell at all in the range (ties by variant
-- id), then the lowest revenue among those that sold. On sale: neither the variant nor its product archived,
-- created by the end of the range, and a stock balance in a store of the scope (a product without stock tracking
-- counts everywhere). Unsold variants are found by walking the catalog in id order and probing the daily summary
-- (index on variant and day), so a year with a few unsold variants reads a few thousand index entries; only
-- when fewer than _limit are unsold does the range's revenue get summed per variant.
create or replace function private.worst_sellers(_business_id uuid, _from date, _to date, _store_id uuid, _limit int)
returns table (variant_id uuid, revenue numeric, units numeric, cost numeric, unsold boolean)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_unsold uuid[];
begin
  v_unsold := array(
    select v.id from public.variants v
      join public.products p on p.id = v.product_id
     where v.business_id = _business_id and v.archived_at is null and p.archived_at is null
       and v.created_at < ((_to + 1)::timestamp at time zone 'UTC')
       and (not p.track_stock or exists (
             select 1 from public.stock_balances b
              where b.variant_id = v.id and b.business_id = _business_id
                and (_store_id is null or b.store_id = _store_id)))
       and not exists (
             select 1 from public.sales_daily_variant d
              where d.variant_id = v.id and d.day between _from and _to and d.business_id = _business_id
                and (_store_id is null or d.store_id = _store_id))
     order by v.id
     limit _limit);
  return query select u.id, 0::numeric, 0::numeric, 0::numeric, true from unnest(v_unsold) with ordinality as u (id, n)
                order by u.n;
  if cardinality(v_unsold) >= _limit then
    return;
  end if;
  return query
    with ranked as (
      select d.variant_id from public.sales_daily_variant d
       where d.business_id = _business_id and (_store_id is null or d.store_id = _store_id)
         and d.day between _from and _to
       group by d.variant_id
       order by sum(d.revenue), d.variant_id
       limit _limit - cardinality(v_unsold)
    )
    select t.variant_id, t.revenue, t.units, t.cost, false
      from private.seller_totals(_business_id, _from, _to, _store_id, false, array(select r.variant_id from ranked r)) t
     order by t.revenue, t.variant_id;
end;
$$;

revoke all on function private.seller_totals(uuid, date, date, uuid, boolean, uuid[]),
  private.top_sellers(uuid, date, date, uuid, int), private.worst_sellers(uuid, date, date, uuid, int)
  from public, anon;
grant execute on function private.seller_totals(uuid, date, date, uuid, boolean, uuid[]),
  private.top_sellers(uuid, date, date, uuid, int), private.worst_sellers(uuid, date, date, uuid, int)
  to authenticated;

-- Same signature and columns as in 20261123140100. Best: as before (revenue as rung up, ties by variant id).
-- Worst: unsold variants on sale come first (revenue 0, description from the catalog), then the lowest revenue.
-- The description of a sold variant is the one on its latest line in the range.
create or replace function public.report_top_products(_business_id uuid, _from date, _to date,
                                                      _store_id uuid default null, _worst boolean default false,
                                                      _limit int default 10)
returns table (variant_id uuid, description text, units numeric, revenue bigint, profit bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_limit int := least(greatest(coalesce(_limit, 10), 1), 100);
begin
  perform private.report_args(_business_id, _from, _to, null);
  return query
    with ranked as (
      select t.variant_id, t.revenue, t.units, t.cost, false as unsold, t.n
        from private.top_sellers(_business_id, _from, _to, _store_id, v_limit)
             with ordinality as t (variant_id, revenue, units, cost, n)
       where not coalesce(_worst, false)
      union all
      select w.variant_id, w.revenue, w.units, w.cost, w.unsold, w.n
        from private.worst_sellers(_business_id, _from, _to, _store_id, v_limit)
             with ordinality as w (variant_id, revenue, units, cost, unsold, n)
       where coalesce(_worst, false)
    )
    select r.variant_id,
           case when r.unsold then (select p.name || coalesce(' ' || concat_ws(' / ', v.option1, v.option2, v.option3), '')
                                      from public.variants v join public.products p on p.id = v.product_id
                                     where v.id = r.variant_id)
                else (select d.description from public.sales_daily_variant d
                       where d.variant_id = r.variant_id and d.business_id = _business_id
                         and (_store_id is null or d.store_id = _store_id) and d.day between _from and _to
                       order by d.day desc, d.description desc limit 1) end,
           r.units, r.revenue::bigint, (r.revenue - round(r.cost))::bigint
      from ranked r
     order by r.n;
end;
$$;
