-- Slow movers and sell-through worst first from a maintained row per (store, variant) (issue 14, ADR 0166).
-- ADR 0163 left report_slow_movers reading every on-hand pair of the store (~47,000 a store at 1,000,000 lines) and
-- the last sale of each, and sell-through worst first summing every pair's ledger and sold units, to rank 50 rows.
-- public.stock_pairs keeps, per (store, variant): on hand (the sum of the ledger, which the balances always equal),
-- the last sale movement (instant and local day) and the value at cost (on hand x the variant's cost, unrounded, as
-- the report computed it), maintained in the writing transaction, with indexes in the order the two reports rank:
-- * slow movers: pairs on hand that did not sell in the window come first, never sold first, then by last sale day,
--   then by value: an index range on (store, last sale day, value desc) gives them in that order;
-- * sell-through worst first, for a range ending after the last movement (today): pairs on hand that did not sell
--   come first (sell-through 0), by on hand descending: an index range on (store, on hand desc), each level of on
--   hand checked exactly against the daily variant summary and the range's refunds.
-- Both keep the former full computation when the fast path cannot decide (too few such pairs, a past range with
-- later movements, a negative threshold); results are unchanged either way.
--
-- * Who reads: owners and managers, the stores they may use (the rows carry cost), as the report summaries.
-- * Who writes: nobody through the API. Statement triggers: stock_movements inserts (the ledger is append-only; a
--   business's deletion cascades), variant_costs (value), stores (a new time zone moves the local day).
--   private.refresh_stock_summaries (seed:large, triggers off) rebuilds it too: a later migration that redefines
--   refresh_stock_summaries must keep calling private.compute_stock_pairs.

create table public.stock_pairs (
  business_id uuid not null,
  store_id uuid not null,
  variant_id uuid not null,
  -- The sum of the pair's ledger (= the sum of its balances over lots).
  on_hand numeric not null default 0,
  -- The latest sale movement of the pair (deleted sales keep theirs, as the ledger does) and its local day.
  last_sale_at timestamptz,
  last_sale_day date,
  -- on_hand x the variant's cost (0 without one), unrounded.
  value numeric not null default 0,
  primary key (store_id, variant_id),
  -- Single-column keys, covered by the primary key and stock_pairs_variant_idx (splinter's unindexed_foreign_keys):
  -- the rows are written only by the triggers below, from ledger rows whose store and variant share the business.
  foreign key (store_id) references public.stores (id) on delete cascade,
  foreign key (variant_id) references public.variants (id) on delete cascade
);
alter table public.stock_pairs enable row level security;
comment on table public.stock_pairs is
  'Per store and variant: on hand (sum of the ledger), last sale (instant, local day) and value at cost. Maintained '
  'by triggers in the writing transaction (ADR 0166); owners and managers read the stores they may use; nobody '
  'writes through the API.';
create index stock_pairs_variant_idx on public.stock_pairs (variant_id);
-- Slow movers' order (never sold first, then the oldest last sale, then the highest value), pairs on hand only.
create index stock_pairs_slow_idx on public.stock_pairs (store_id, last_sale_day nulls first, value desc)
  where on_hand > 0;
-- Sell-through worst first: the most on hand first.
create index stock_pairs_on_hand_idx on public.stock_pairs (store_id, on_hand desc) where on_hand > 0;

-- Rebuild a business's rows from the ledger (the backfill, refresh_stock_summaries after a bulk load).
create or replace function private.compute_stock_pairs(_business_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  delete from public.stock_pairs p where p.business_id = _business_id;
  insert into public.stock_pairs (business_id, store_id, variant_id, on_hand, last_sale_at, last_sale_day, value)
  select m.business_id, m.store_id, m.variant_id, m.qty, m.last_at, (m.last_at at time zone st.time_zone)::date,
         m.qty * coalesce(vc.cost, 0)
    from (select m.business_id, m.store_id, m.variant_id, sum(m.qty) as qty,
                 max(m.occurred_at) filter (where m.kind = 'sale') as last_at
            from public.stock_movements m where m.business_id = _business_id
           group by 1, 2, 3) m
    join public.stores st on st.id = m.store_id
    left join public.variant_costs vc on vc.variant_id = m.variant_id;
$$;

-- Ledger rows inserted: on hand and value move by the statement's delta (value = on hand x cost is linear in on
-- hand, so adding delta x cost keeps it exact), the last sale moves forward. One upsert per statement.
create or replace function private.stock_pairs_movements_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.stock_pairs as p (business_id, store_id, variant_id, on_hand, last_sale_at, last_sale_day, value)
  select n.business_id, n.store_id, n.variant_id, n.qty, n.last_at, (n.last_at at time zone st.time_zone)::date,
         n.qty * coalesce(vc.cost, 0)
    from (select n.business_id, n.store_id, n.variant_id, sum(n.qty) as qty,
                 max(n.occurred_at) filter (where n.kind = 'sale') as last_at
            from new_rows n group by 1, 2, 3) n
    join public.stores st on st.id = n.store_id
    left join public.variant_costs vc on vc.variant_id = n.variant_id
  on conflict (store_id, variant_id) do update
    set on_hand = p.on_hand + excluded.on_hand,
        value = p.value + excluded.value,
        last_sale_at = greatest(p.last_sale_at, excluded.last_sale_at),
        last_sale_day = case when excluded.last_sale_at > p.last_sale_at or p.last_sale_at is null
                             then excluded.last_sale_day else p.last_sale_day end;
  return null;
end;
$$;

-- A variant's cost set, changed or removed: its pairs' value from their on hand.
create or replace function private.stock_pairs_costs_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.stock_pairs p set value = p.on_hand * n.cost
      from new_rows n where p.variant_id = n.variant_id and p.value is distinct from p.on_hand * n.cost;
  elsif tg_op = 'UPDATE' then
    update public.stock_pairs p set value = p.on_hand * n.cost
      from new_rows n where p.variant_id = n.variant_id and p.value is distinct from p.on_hand * n.cost;
    -- A cost row moved to another variant (not done by the app): the old variant has no cost now.
    update public.stock_pairs p set value = 0
      from old_rows o where p.variant_id = o.variant_id and p.value <> 0
       and not exists (select 1 from public.variant_costs c where c.variant_id = o.variant_id);
  else
    update public.stock_pairs p set value = 0
      from old_rows o where p.variant_id = o.variant_id and p.value <> 0
       and not exists (select 1 from public.variant_costs c where c.variant_id = o.variant_id);
  end if;
  return null;
end;
$$;

-- A store's new time zone: the local day of each pair's last sale.
create or replace function private.stock_pairs_time_zone_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.stock_pairs p set last_sale_day = (p.last_sale_at at time zone n.time_zone)::date
    from new_rows n join old_rows o on o.id = n.id
   where o.time_zone is distinct from n.time_zone and p.store_id = n.id and p.last_sale_at is not null;
  return null;
end;
$$;

create trigger stock_pairs_movements after insert on public.stock_movements
  referencing new table as new_rows for each statement execute function private.stock_pairs_movements_inserted();
create trigger stock_pairs_costs_inserted after insert on public.variant_costs
  referencing new table as new_rows for each statement execute function private.stock_pairs_costs_changed();
create trigger stock_pairs_costs_updated after update on public.variant_costs
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.stock_pairs_costs_changed();
create trigger stock_pairs_costs_deleted after delete on public.variant_costs
  referencing old table as old_rows for each statement execute function private.stock_pairs_costs_changed();
create trigger stock_pairs_time_zone after update on public.stores
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.stock_pairs_time_zone_changed();

-- refresh_stock_summaries (seed:large after a load with triggers off) rebuilds this table too.
alter function private.refresh_stock_summaries(uuid) rename to refresh_stock_summaries_base;
create or replace function private.refresh_stock_summaries(_business_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  select private.refresh_stock_summaries_base(_business_id);
  select private.compute_stock_pairs(_business_id);
$$;

revoke all on function private.compute_stock_pairs(uuid), private.stock_pairs_movements_inserted(),
  private.stock_pairs_costs_changed(), private.stock_pairs_time_zone_changed(),
  private.refresh_stock_summaries(uuid), private.refresh_stock_summaries_base(uuid)
  from public, anon, authenticated;

-- Backfill what exists (the demo history; a large database at its size).
select private.compute_stock_pairs(b.id) from public.businesses b;
analyze public.stock_pairs;

revoke all on table public.stock_pairs from public, anon, authenticated;
grant select on table public.stock_pairs to authenticated, service_role;
create policy "stock_pairs: owners and managers read in their stores" on public.stock_pairs
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

-- ---------------------------------------------------------------------------------------------------
-- The readers below walk stock_pairs in index order as security definer: under row level security PostgreSQL
-- may not use a numeric comparison (not leakproof) as an index condition ahead of the policy, so "value >= x" or
-- "on hand below x" became filters over every pair of the store. They read only the stores this function returns:
-- the policy of stock_pairs (owners and managers, the stores they may use), evaluated once.
create or replace function private.stock_pair_stores(_business_id uuid, _store_id uuid)
returns uuid[]
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce(array_agg(s.id order by s.id), '{}') from public.stores s
   where s.business_id = _business_id and (_store_id is null or s.id = _store_id)
     and (_business_id in (select private.my_full_access_business_ids())
          or s.id in (select private.my_listed_store_ids()))
     and _business_id in (select private.my_business_ids(array['owner', 'manager']));
$$;

-- ---------------------------------------------------------------------------------------------------
-- Slow movers: the pairs on hand whose last sale is before _since (or never), in the report's order (never sold
-- first, then last sale day, then value descending), the first _limit of them and every pair tied with the last
-- on (last sale day, value). Empty when fewer than _limit such pairs exist (the caller then ranks everything).
-- Per store: two index ranges (never sold; sold before _since) of at most _limit rows, then the ties.
create or replace function private.slow_movers_unsold(_business_id uuid, _store_id uuid, _since date, _limit int)
returns table (store_id uuid, variant_id uuid, on_hand numeric, last_day date, value numeric)
language plpgsql
stable
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_stores uuid[] := private.stock_pair_stores(_business_id, _store_id);
  v_count int;
  v_day date;
  v_value numeric;
begin
  -- The _limit-th pair in the order over all stores: the page's boundary.
  select count(*), (array_agg(t.last_sale_day order by t.last_sale_day nulls first, t.value desc))[_limit],
         (array_agg(t.value order by t.last_sale_day nulls first, t.value desc))[_limit]
    into v_count, v_day, v_value
    from (select t.* from unnest(v_stores) as s (id)
           cross join lateral (
             (select p.last_sale_day, p.value from public.stock_pairs p
               where p.store_id = s.id and p.business_id = _business_id and p.on_hand > 0 and p.last_sale_day is null
               order by p.value desc limit _limit)
             union all
             (select p.last_sale_day, p.value from public.stock_pairs p
               where p.store_id = s.id and p.business_id = _business_id and p.on_hand > 0 and p.last_sale_day < _since
               order by p.last_sale_day, p.value desc limit _limit)) t
           order by t.last_sale_day nulls first, t.value desc
           limit _limit) t;
  if v_count < _limit then
    return;
  end if;
  -- Every pair up to the boundary, ties included: index ranges bounded by the boundary's key.
  return query
    select t.* from unnest(v_stores) as s (id)
     cross join lateral (
       select p.store_id, p.variant_id, p.on_hand, p.last_sale_day, p.value from public.stock_pairs p
        where p.store_id = s.id and p.business_id = _business_id and p.on_hand > 0 and p.last_sale_day is null
          and (v_day is not null or p.value >= v_value)
       union all
       select p.store_id, p.variant_id, p.on_hand, p.last_sale_day, p.value from public.stock_pairs p
        where v_day is not null and p.store_id = s.id and p.business_id = _business_id and p.on_hand > 0
          and p.last_sale_day < v_day
       union all
       select p.store_id, p.variant_id, p.on_hand, p.last_sale_day, p.value from public.stock_pairs p
        where v_day is not null and p.store_id = s.id and p.business_id = _business_id and p.on_hand > 0
          and p.last_sale_day = v_day and p.value >= v_value) t;
end;
$$;

-- Sell-through parts for given pairs over a range, exactly as private.sell_through_sold defines them: the range's
-- refund lines per pair (few: read once), and the daily variant summary's rows with lines of given pairs (one index
-- probe per pair). Pairs without either: 0, 0, null.
create or replace function private.sell_through_refunded(_business_id uuid, _from date, _to date, _store_id uuid)
returns table (store_id uuid, variant_id uuid, units numeric, revenue numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  select r.store_id, l.variant_id, -sum(rl.qty),
         -sum(rl.amount - case when l.line_total = 0 then 0
                               else round(rl.amount::numeric * l.tax_amount / l.line_total) end)
    from public.refunds r
    join public.stores st on st.id = r.store_id
    join public.refund_lines rl on rl.refund_id = r.id and rl.business_id = r.business_id
    join public.sale_lines l on l.id = rl.sale_line_id and l.business_id = rl.business_id
   where r.business_id = _business_id and (_store_id is null or r.store_id = _store_id)
     and r.occurred_at >= private.report_utc_lower(_from) and r.occurred_at < private.report_utc_upper(_to)
     and (r.occurred_at at time zone st.time_zone)::date between _from and _to
   group by 1, 2;
$$;

create or replace function private.sell_through_of(_business_id uuid, _from date, _to date, _stores uuid[],
                                                   _variants uuid[], _refund_stores uuid[], _refund_variants uuid[],
                                                   _refund_units numeric[], _refund_revenue numeric[])
returns table (store_id uuid, variant_id uuid, units numeric, revenue bigint, last_day date)
language sql
stable
security invoker
set search_path = ''
as $$
  select k.store_id, k.variant_id, coalesce(d.units, 0) + coalesce(f.units, 0),
         (coalesce(d.revenue, 0) + coalesce(f.revenue, 0))::bigint, d.last_day
    from unnest(_stores, _variants) as k (store_id, variant_id)
    left join lateral (
      select sum(d.units) as units, sum(d.revenue)::numeric as revenue, max(d.day) as last_day
        from public.sales_daily_variant d
       where d.variant_id = k.variant_id and d.store_id = k.store_id and d.business_id = _business_id
         and d.day between _from and _to and d.lines > 0) d on true
    left join unnest(_refund_stores, _refund_variants, _refund_units, _refund_revenue) as f (store_id, variant_id, units, revenue)
      on f.store_id = k.store_id and f.variant_id = k.variant_id;
$$;

-- The _per_store pairs with the most on hand of each store in scope (an index range each), and whether the store
-- has no more pairs on hand than these.
create or replace function private.stock_pairs_most_on_hand(_business_id uuid, _store_id uuid, _per_store int)
returns table (store_id uuid, variant_id uuid, on_hand numeric, exhausted boolean)
language sql
stable
security definer
set search_path = ''
as $$
  select t.store_id, t.variant_id, t.on_hand, count(*) over (partition by t.store_id) < _per_store
    from unnest(private.stock_pair_stores(_business_id, _store_id)) as s (id)
    cross join lateral (select p.store_id, p.variant_id, p.on_hand from public.stock_pairs p
                         where p.store_id = s.id and p.business_id = _business_id and p.on_hand > 0
                         order by p.on_hand desc limit _per_store) t;
$$;

-- Sell-through worst first when the range ends after the scope's last movement (on hand at the end = on hand now):
-- pairs on hand that did not sell (units <= 0, sell-through 0) come first, by on hand descending, then revenue,
-- SKU and store. Reads the pairs with the most on hand of each store, checks each exactly (daily variant summary,
-- the range's refunds), and returns the unsold ones above the frontier (the highest, over the stores not read to
-- the end, of the lowest on hand read): every pair with more on hand than the frontier was read in every store, so
-- with at least _limit of them the page is among them, ties included. Otherwise it reads four times more, and
-- returns nothing when it cannot decide (later movements, too few unsold pairs on hand).
create or replace function private.sell_through_unsold(_business_id uuid, _from date, _to date, _store_id uuid,
                                                       _limit int)
returns table (store_id uuid, variant_id uuid, units numeric, on_hand numeric, revenue bigint, last_day date)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_stores uuid[] := private.stock_pair_stores(_business_id, _store_id);
  v_per_store int := greatest(_limit * 2, 64);
  v_pair_stores uuid[];
  v_pair_variants uuid[];
  v_pair_on_hand numeric[];
  v_frontier numeric;
  v_open boolean;
  v_found int;
  v_refund_stores uuid[];
  v_refund_variants uuid[];
  v_refund_units numeric[];
  v_refund_revenue numeric[];
begin
  if exists (select 1 from public.stores st
               join public.stock_movements m
                 on m.business_id = _business_id and m.store_id = st.id
                and m.occurred_at >= private.report_utc_lower(_to + 1)
                and m.occurred_at >= ((_to + 1)::timestamp at time zone st.time_zone)
              where st.id = any (v_stores)) then
    return;
  end if;
  select array_agg(f.store_id), array_agg(f.variant_id), array_agg(f.units), array_agg(f.revenue)
    into v_refund_stores, v_refund_variants, v_refund_units, v_refund_revenue
    from private.sell_through_refunded(_business_id, _from, _to, _store_id) f;
  loop
    select array_agg(t.store_id), array_agg(t.variant_id), array_agg(t.on_hand),
           max(t.lowest) filter (where not t.exhausted), bool_or(not t.exhausted)
      into v_pair_stores, v_pair_variants, v_pair_on_hand, v_frontier, v_open
      from (select t.*, min(t.on_hand) over (partition by t.store_id) as lowest
              from private.stock_pairs_most_on_hand(_business_id, _store_id, v_per_store) t) t;
    select count(*) into v_found
      from unnest(v_pair_stores, v_pair_variants, v_pair_on_hand) as k (store_id, variant_id, on_hand)
      join private.sell_through_of(_business_id, _from, _to, v_pair_stores, v_pair_variants, v_refund_stores,
                                   v_refund_variants, v_refund_units, v_refund_revenue) t
        on t.store_id = k.store_id and t.variant_id = k.variant_id
     where t.units <= 0 and (v_frontier is null or k.on_hand > v_frontier);
    if v_found >= _limit then
      return query
        select k.store_id, k.variant_id, t.units, k.on_hand, t.revenue, t.last_day
          from unnest(v_pair_stores, v_pair_variants, v_pair_on_hand) as k (store_id, variant_id, on_hand)
          join private.sell_through_of(_business_id, _from, _to, v_pair_stores, v_pair_variants, v_refund_stores,
                                       v_refund_variants, v_refund_units, v_refund_revenue) t
            on t.store_id = k.store_id and t.variant_id = k.variant_id
         where t.units <= 0 and (v_frontier is null or k.on_hand > v_frontier);
      return;
    end if;
    -- Every pair on hand read and still too few, or too many to read: the full ranking decides.
    if not coalesce(v_open, false) or v_per_store >= 16384 then
      return;
    end if;
    v_per_store := v_per_store * 4;
  end loop;
end;
$$;

revoke all on function private.slow_movers_unsold(uuid, uuid, date, int), private.stock_pair_stores(uuid, uuid),
  private.stock_pairs_most_on_hand(uuid, uuid, int),
  private.sell_through_refunded(uuid, date, date, uuid),
  private.sell_through_of(uuid, date, date, uuid[], uuid[], uuid[], uuid[], numeric[], numeric[]),
  private.sell_through_unsold(uuid, date, date, uuid, int) from public, anon;
grant execute on function private.slow_movers_unsold(uuid, uuid, date, int), private.stock_pair_stores(uuid, uuid),
  private.stock_pairs_most_on_hand(uuid, uuid, int),
  private.sell_through_refunded(uuid, date, date, uuid),
  private.sell_through_of(uuid, date, date, uuid[], uuid[], uuid[], uuid[], numeric[], numeric[]),
  private.sell_through_unsold(uuid, date, date, uuid, int) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Slow movers (same signature, columns and order as in 20261125110000): ADR 0163's ranking of every pair on hand
-- moves unchanged into private.slow_movers_ranked; the public function serves a page of unsold pairs from the index.
create or replace function private.slow_movers_ranked(_business_id uuid, _store_id uuid, _days int,
                                                     _max_sell_through numeric, _limit int, _today date)
returns table (store_id uuid, variant_id uuid, sku text, product_name text, on_hand numeric, units_sold numeric,
               sell_through numeric, last_sold_on date, days_since_sale int, cost_value bigint)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
as $$
#variable_conflict use_column
declare
  v_today date := _today;
begin
  return query
    with st as (
      select s.id, s.time_zone from public.stores s
       where s.business_id = _business_id and (_store_id is null or s.id = _store_id)
    ),
    oh as (
      select b.store_id, b.variant_id, sum(b.qty) as qty
        from public.stock_balances b
       where b.business_id = _business_id and (_store_id is null or b.store_id = _store_id)
       group by 1, 2 having sum(b.qty) > 0
    ),
    -- Units sold net of restocked refunds in the window (a sale line writes one sale movement, a restocked refund
    -- line one refund movement).
    win as (
      select st.id as store_id, m.variant_id, -sum(m.qty) as sold
        from st
        join public.stock_movements m
          on m.business_id = _business_id and m.store_id = st.id and m.kind in ('sale', 'refund')
         and m.occurred_at >= private.report_utc_lower(v_today - _days + 1)
         and m.occurred_at >= ((v_today - _days + 1)::timestamp at time zone st.time_zone)
       group by 1, 2
    ),
    -- The last sale of every variant ever sold in the store.
    last as (
      select st.id as store_id, m.variant_id, max(m.occurred_at) as last_at
        from st
        join public.stock_movements m on m.store_id = st.id and m.business_id = _business_id and m.kind = 'sale'
       group by 1, 2
    ),
    mv as (
      select oh.store_id, oh.variant_id, oh.qty, coalesce(w.sold, 0) as sold,
             (l.last_at at time zone st.time_zone)::date as last_day, oh.qty * coalesce(vc.cost, 0) as value
        from oh
        join st on st.id = oh.store_id
        left join win w on w.store_id = oh.store_id and w.variant_id = oh.variant_id
        left join last l on l.store_id = oh.store_id and l.variant_id = oh.variant_id
        left join public.variant_costs vc on vc.variant_id = oh.variant_id
       where greatest(coalesce(w.sold, 0), 0) / (greatest(coalesce(w.sold, 0), 0) + oh.qty)
             <= coalesce(_max_sell_through, 0.1)
    ),
    -- The order's keys before the SKU: only rows ranked within the page are joined to the catalog.
    page as (
      select mv.*, rank() over (order by mv.sold > 0, mv.last_day nulls first, mv.value desc) as n from mv
    )
    select mv.store_id, mv.variant_id, v.sku, p.name, mv.qty, mv.sold,
           round(greatest(mv.sold, 0) / (greatest(mv.sold, 0) + mv.qty), 4),
           mv.last_day, (v_today - mv.last_day)::int, round(mv.value)::bigint
      from page mv
      join public.variants v on v.id = mv.variant_id
      join public.products p on p.id = v.product_id
     where mv.n <= least(greatest(coalesce(_limit, 50), 1), 500)
     order by mv.sold > 0, mv.last_day nulls first, mv.value desc, v.sku, mv.store_id
     limit least(greatest(coalesce(_limit, 50), 1), 500);
end;
$$;

revoke all on function private.slow_movers_ranked(uuid, uuid, int, numeric, int, date) from public, anon;
grant execute on function private.slow_movers_ranked(uuid, uuid, int, numeric, int, date) to authenticated;

create or replace function public.report_slow_movers(_business_id uuid, _store_id uuid default null, _days int default 30,
                                                     _max_sell_through numeric default 0.1, _limit int default 50)
returns table (store_id uuid, variant_id uuid, sku text, product_name text, on_hand numeric, units_sold numeric,
               sell_through numeric, last_sold_on date, days_since_sale int, cost_value bigint)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
as $$
#variable_conflict use_column
declare
  v_today date := current_date;
  v_since date;
  v_limit int := least(greatest(coalesce(_limit, 50), 1), 500);
  v_stores uuid[];
  v_variants uuid[];
  v_on_hand numeric[];
  v_last date[];
  v_value numeric[];
begin
  if _days is null or _days < 1 or _days > 365 then
    raise exception 'the number of days must be between 1 and 365' using errcode = '22023';
  end if;
  v_since := v_today - _days + 1;
  perform private.report_args(_business_id, v_since, v_today, null);
  -- Pairs on hand without a sale in the window sort first (their units sold are <= 0, their sell-through 0, which
  -- passes any threshold >= 0): with at least a page of them, the page is theirs (ADR 0166).
  if coalesce(_max_sell_through, 0.1) >= 0 then
    select array_agg(u.store_id), array_agg(u.variant_id), array_agg(u.on_hand), array_agg(u.last_day),
           array_agg(u.value)
      into v_stores, v_variants, v_on_hand, v_last, v_value
      from private.slow_movers_unsold(_business_id, _store_id, v_since, v_limit) u;
  end if;
  if coalesce(cardinality(v_stores), 0) < v_limit then
    return query select * from private.slow_movers_ranked(_business_id, _store_id, _days, _max_sell_through, _limit,
                                                          v_today);
    return;
  end if;
  return query
    with mv as (
      -- Units sold in the window: its restocked refunds only (no sale since before the window).
      select c.store_id, c.variant_id, c.on_hand, c.last_day, c.value,
             coalesce(-(select sum(m.qty) from public.stock_movements m
                         where m.store_id = c.store_id and m.variant_id = c.variant_id and m.business_id = _business_id
                           and m.kind in ('sale', 'refund')
                           and m.occurred_at >= private.report_utc_lower(v_since)
                           and m.occurred_at >= (v_since::timestamp at time zone st.time_zone)), 0) as sold
        from unnest(v_stores, v_variants, v_on_hand, v_last, v_value) as c (store_id, variant_id, on_hand, last_day, value)
        join public.stores st on st.id = c.store_id
    )
    select mv.store_id, mv.variant_id, v.sku, p.name, mv.on_hand, mv.sold,
           round(greatest(mv.sold, 0) / (greatest(mv.sold, 0) + mv.on_hand), 4),
           mv.last_day, (v_today - mv.last_day)::int, round(mv.value)::bigint
      from mv
      join public.variants v on v.id = mv.variant_id
      join public.products p on p.id = v.product_id
     order by mv.sold > 0, mv.last_day nulls first, mv.value desc, v.sku, mv.store_id
     limit v_limit;
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- Sell-through (same signature, columns and order as in 20261125110000); worst first tries the unsold pairs first.
create or replace function public.report_sell_through(_business_id uuid, _from date, _to date,
                                                      _store_id uuid default null, _worst boolean default false,
                                                      _limit int default 50)
returns table (store_id uuid, variant_id uuid, sku text, product_name text, units_sold numeric, on_hand_end numeric,
               sell_through numeric, revenue bigint, last_sold_on date)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
-- The range's sold pairs are aggregated in memory (at the default 4 MB the hash spilled to disk at 200,000 lines:
-- 227 against 163 ms for the aggregation alone, ADR 0166).
set work_mem = '32MB'
as $$
#variable_conflict use_column
declare
  v_limit int := least(greatest(coalesce(_limit, 50), 1), 500);
  v_stores uuid[];
  v_variants uuid[];
  v_units numeric[];
  v_revenue bigint[];
  v_last date[];
  v_selling bigint;
  v_on_hand numeric[];
begin
  perform private.report_args(_business_id, _from, _to, null);
  -- Worst first, range ending after the last movement: the unsold pairs with the most on hand (ADR 0166).
  if _worst then
    select array_agg(u.store_id), array_agg(u.variant_id), array_agg(u.units), array_agg(u.on_hand),
           array_agg(u.revenue), array_agg(u.last_day)
      into v_stores, v_variants, v_units, v_on_hand, v_revenue, v_last
      from private.sell_through_unsold(_business_id, _from, _to, _store_id, v_limit) u;
    if coalesce(cardinality(v_stores), 0) >= v_limit then
      return query
        select x.store_id, x.variant_id, v.sku, p.name, x.units, x.on_hand,
               round(case when x.units + x.on_hand <= 0 then null
                          else greatest(x.units, 0) / (greatest(x.units, 0) + x.on_hand) end, 4),
               x.revenue, x.last_day
          from unnest(v_stores, v_variants, v_units, v_on_hand, v_revenue, v_last)
                 as x (store_id, variant_id, units, on_hand, revenue, last_day)
          join public.variants v on v.id = x.variant_id
          join public.products p on p.id = v.product_id
         order by x.on_hand desc, x.revenue desc, v.sku, x.store_id
         limit v_limit;
      return;
    end if;
  end if;
  select array_agg(s.store_id), array_agg(s.variant_id), array_agg(s.units), array_agg(s.revenue),
         array_agg(s.last_day), count(*) filter (where s.units > 0)
    into v_stores, v_variants, v_units, v_revenue, v_last, v_selling
    from private.sell_through_sold(_business_id, _from, _to, _store_id) s;
  return query
    with sold as (
      select * from unnest(v_stores, v_variants, v_units, v_revenue, v_last)
                      as so (store_id, variant_id, units, revenue, last_day)
    ),
    later as (
      select * from private.stock_moved_after(_business_id, _to, _store_id)
    ),
    -- Best first with enough pairs selling: those pairs and their stock only (one index probe each).
    selling as (
      select so.store_id, so.variant_id, so.units,
             greatest(coalesce((select sum(b.qty) from public.stock_balances b
                                 where b.store_id = so.store_id and b.variant_id = so.variant_id
                                   and b.business_id = _business_id), 0)
                      - coalesce(l.qty, 0), 0) as on_hand,
             so.revenue, so.last_day
        from sold so
        left join later l on l.store_id = so.store_id and l.variant_id = so.variant_id
       where so.units > 0
    ),
    -- Otherwise every pair sold or on hand at the end of the range.
    stock as (
      select k.store_id, k.variant_id, sum(k.qty) as qty
        from (select b.store_id, b.variant_id, b.qty
                from public.stock_balances b
               where b.business_id = _business_id and (_store_id is null or b.store_id = _store_id)
              union all
              select l.store_id, l.variant_id, -l.qty from later l) k
       group by 1, 2
    ),
    everything as (
      select coalesce(so.store_id, sk.store_id) as store_id, coalesce(so.variant_id, sk.variant_id) as variant_id,
             coalesce(so.units, 0) as units, greatest(coalesce(sk.qty, 0), 0) as on_hand,
             coalesce(so.revenue, 0) as revenue, so.last_day
        from sold so full join stock sk on sk.store_id = so.store_id and sk.variant_id = so.variant_id
    ),
    x as (
      select * from selling where _worst is false and coalesce(v_selling, 0) >= v_limit
      union all
      select * from everything where _worst is not false or coalesce(v_selling, 0) < v_limit
    ),
    -- The order's keys before the SKU: a row of the page has fewer than v_limit rows before it on them, so its
    -- rank is at most v_limit; only those rows are joined to the catalog.
    ranked as (
      select x.*, case when x.units + x.on_hand <= 0 then null
                       else greatest(x.units, 0) / (greatest(x.units, 0) + x.on_hand) end as ratio
        from x
       where x.units <> 0 or x.on_hand > 0
    ),
    page as (
      select r.*, rank() over (order by case when _worst then coalesce(r.ratio, 0) end asc,
                                        case when not _worst then r.ratio end desc nulls last,
                                        case when _worst then r.on_hand end desc, r.revenue desc) as n
        from ranked r
    )
    select x.store_id, x.variant_id, v.sku, p.name, x.units, x.on_hand, round(x.ratio, 4), x.revenue, x.last_day
      from page x
      join public.variants v on v.id = x.variant_id
      join public.products p on p.id = v.product_id
     where x.n <= v_limit
     order by case when _worst then coalesce(x.ratio, 0) end asc,
              case when not _worst then x.ratio end desc nulls last,
              case when _worst then x.on_hand end desc, x.revenue desc, v.sku, x.store_id
     limit v_limit;
end;
$$;

