-- Sell-through best first without ranking every pair that sold (issue 14, ADR 0170).
-- Best first ranked units / (units + on hand) over every (store, variant) that sold in the range: at 1,000,000
-- sale lines, 30 days over 10 stores aggregate 90,000 daily rows into 76,000 pairs and look up the stock of each
-- (1.7 s on PostgreSQL, 1.9 s on PGlite). Now, for a range ending after the last movement (on hand at the end = on
-- hand now), a threshold bound decides from two index reads:
-- * A: the pairs with the most units in each (store, month) of the range (sales_monthly_variant, a new index on
--   units), about 40 x the page over all the lists. A pair in no list sold at most its store's bound T: the sum over the months of the lowest units read
--   in each list read to its limit (sale lines have qty > 0, so a month's units bound any part of it).
-- * theta: the _limit-th best sell-through among A, checked exactly (daily summary, refunds, stock_pairs).
-- * B: the pairs of each store with on hand at most T x (1 - theta) / theta (stock_pairs, by on hand). A pair in
--   neither A nor B has units <= T and on hand above that bound, so its sell-through is below theta: at least
--   _limit pairs rank before it. The page is ranked among A and B, checked exactly.
-- Lists four times deeper when B is too large (long ranges); past 4,096 rows a list, or for a range with later
-- movements, the former full ranking (private.sell_through_ranked, moved unchanged but for the next point) decides.
-- A range with few sales (at most 10,000 daily rows: a few days) is decided from its sold pairs aggregated: the
-- same bound with the units known exactly (private.sell_through_few), or, when fewer than a page sold, the sold
-- pairs padded with the pairs on hand in SKU order (a morning before the first sale ranked all 466,667 pairs on
-- hand, tied at 0, by SKU: 6.7 s).
--
-- Definition change: sell-through covers the pairs that have a stock record (a ledger). A product that does not
-- track stock has no stock to sell through; it was reported at 100% (on hand 0), first of every best-first page.
--
-- Who reads / writes: nothing new is stored. The functions are called by report_sell_through (owners and managers,
-- report_args); the stock_pairs reader is security definer over the stores private.stock_pair_stores returns (the
-- table's policy), as the readers of 20261126100000.

-- A month's variants by units, per store (the lists of A).
create index sales_monthly_variant_units_idx on public.sales_monthly_variant (store_id, month, units desc);
-- Every pair by on hand, per store: B reads the lowest (sold out and negative included), sell-through worst first
-- reads the highest (backwards). Replaces the partial index of 20261126100000 (on hand > 0, descending), so a sale
-- maintains the same number of indexes.
drop index public.stock_pairs_on_hand_idx;
create index stock_pairs_on_hand_idx on public.stock_pairs (store_id, on_hand);

-- The candidates' on hand is read by `cross join lateral (... limit 1)`: one probe of the primary key per pair (the
-- limit keeps the planner from turning it into a join, which hashed all 466,667 pairs at 1,000,000 sale lines).

-- ---------------------------------------------------------------------------------------------------
-- The _per_list variants with the most units in each store and month given, with the list's frontier: the
-- lowest units read when the list holds _per_list rows (a variant not read sold at most that), else 0.
create or replace function private.monthly_units_top(_business_id uuid, _stores uuid[], _months date[], _per_list int)
returns table (store_id uuid, month date, variant_id uuid, frontier numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  select t.store_id, t.month, t.variant_id,
         case when count(*) over (partition by t.store_id, t.month) < _per_list then 0
              else min(t.units) over (partition by t.store_id, t.month) end
    from unnest(_stores) as s (id)
    cross join unnest(_months) as mo (month)
    cross join lateral (select m.store_id, m.month, m.variant_id, m.units from public.sales_monthly_variant m
                         where m.store_id = s.id and m.month = mo.month and m.business_id = _business_id
                         order by m.units desc limit _per_list) t;
$$;

-- The pairs of the given stores (among those the caller may read) whose on hand is at most the store's bound, with
-- their on hand, at most _cap + 1 in all (the caller treats more than _cap as too many).
create or replace function private.stock_pairs_at_most(_business_id uuid, _store_id uuid, _stores uuid[],
                                                       _bounds numeric[], _cap int)
returns table (store_id uuid, variant_id uuid, on_hand numeric)
language sql
stable
security definer
set search_path = ''
as $$
  select t.store_id, t.variant_id, t.on_hand
    from unnest(_stores, _bounds) as s (id, bound)
    cross join lateral (select p.store_id, p.variant_id, p.on_hand from public.stock_pairs p
                         where p.store_id = s.id and p.business_id = _business_id and p.on_hand <= s.bound
                         order by p.on_hand limit _cap + 1) t
   where s.id = any (private.stock_pair_stores(_business_id, _store_id))
   limit _cap + 1;
$$;

-- The first _count pairs on hand of the given stores in the report's last order (SKU, then store): a variant
-- index walk that stops at _count. PL/pgSQL so that the statement is planned with the values (a SQL function's
-- generic plan sorted every variant of the business: 554 against 131 ms at 100,000 variants).
create or replace function private.stock_pairs_by_sku(_business_id uuid, _stores uuid[], _count int)
returns table (store_id uuid, variant_id uuid, on_hand numeric)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
  select p.store_id, p.variant_id, p.on_hand
    from public.variants v
    cross join lateral (select sp.store_id, sp.variant_id, sp.on_hand from public.stock_pairs sp
                         where sp.variant_id = v.id and sp.store_id = any (_stores) and sp.business_id = _business_id
                           and sp.on_hand > 0) p
   where v.business_id = _business_id
   order by v.sku, p.store_id
   limit _count;
end;
$$;

-- Best first over a range with few sales (a day, a week; at most _rows daily rows), from its sold pairs aggregated
-- (units exact, no on hand yet). Nothing when the range has more rows.
-- * At least _limit selling: the K selling the most units (_top, else max(4 x _limit, 200); tests give fewer) are
--   checked with their on hand; theta is the _limit-th best sell-through among them. Any other selling pair sold at most the K-th units u, so it reaches theta only
--   with on hand at most u x (1 - theta) / theta: those pairs are read from stock_pairs (by on hand) and kept when
--   they sold. Too many of them (more than _rows): every selling pair with its on hand.
-- * Fewer than _limit selling: every pair sold or refunded, and the first pairs on hand by SKU and store (the
--   order of the pairs that did not sell: sell-through 0, revenue 0).
create or replace function private.sell_through_few(_business_id uuid, _from date, _to date, _stores uuid[],
                                                    _store_id uuid, _limit int, _rows int, _top int default null)
returns table (store_id uuid, variant_id uuid, units numeric, on_hand numeric, revenue bigint, last_day date)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_top int := greatest(coalesce(_top, greatest(_limit * 4, 200)), 1);
  v_stores uuid[];
  v_variants uuid[];
  v_units numeric[];
  v_revenue bigint[];
  v_last date[];
  v_selling int;
  v_top_stores uuid[];
  v_top_variants uuid[];
  v_top_units numeric[];
  v_top_on_hand numeric[];
  v_top_revenue bigint[];
  v_top_last date[];
  v_theta numeric;
  v_units_bound numeric;
  v_low int;
  v_low_stores uuid[];
  v_low_variants uuid[];
  v_low_on_hand numeric[];
begin
  if (select count(*) from (select 1 from public.sales_daily_variant d
                              where d.business_id = _business_id and d.store_id = any (_stores)
                                and d.day between _from and _to and d.lines > 0
                              limit _rows + 1) d) > _rows then
    return;
  end if;
  select array_agg(s.store_id), array_agg(s.variant_id), array_agg(s.units), array_agg(s.revenue),
         array_agg(s.last_day), count(*) filter (where s.units > 0)
    into v_stores, v_variants, v_units, v_revenue, v_last, v_selling
    from private.sell_through_sold(_business_id, _from, _to, _store_id) s
   where s.store_id = any (_stores);
  if v_selling >= _limit then
    -- The K selling the most units (ties at the K-th included) with their on hand: theta and the K-th units.
    select array_agg(t.store_id), array_agg(t.variant_id), array_agg(t.units), array_agg(t.on_hand),
           array_agg(t.revenue), array_agg(t.last_day), (array_agg(t.ratio order by t.ratio desc))[_limit],
           min(t.units)
      into v_top_stores, v_top_variants, v_top_units, v_top_on_hand, v_top_revenue, v_top_last, v_theta,
           v_units_bound
      from (select k.store_id, k.variant_id, k.units, p.on_hand, k.revenue, k.last_day,
                   k.units / (k.units + greatest(p.on_hand, 0)) as ratio
              from unnest(v_stores, v_variants, v_units, v_revenue, v_last)
                     as k (store_id, variant_id, units, revenue, last_day)
              cross join lateral (select p.on_hand from public.stock_pairs p
                  where p.store_id = k.store_id and p.variant_id = k.variant_id and p.business_id = _business_id
                  limit 1) p
             where k.units >= (select min(u.units) from (select u.units from unnest(v_units) as u (units)
                                                           where u.units > 0 order by u.units desc limit v_top) u)) t;
    if v_theta is not null then
      select count(*), array_agg(b.store_id), array_agg(b.variant_id), array_agg(b.on_hand)
        into v_low, v_low_stores, v_low_variants, v_low_on_hand
        from private.stock_pairs_at_most(_business_id, _store_id, _stores,
                                         array_fill(v_units_bound * (1 - v_theta) / v_theta + 0.001,
                                                    array[cardinality(_stores)]), _rows) b;
      if v_low <= _rows then
        return query
          select * from unnest(v_top_stores, v_top_variants, v_top_units, v_top_on_hand, v_top_revenue, v_top_last)
          union all
          select k.store_id, k.variant_id, k.units, b.on_hand, k.revenue, k.last_day
            from unnest(v_low_stores, v_low_variants, v_low_on_hand) as b (store_id, variant_id, on_hand)
            join unnest(v_stores, v_variants, v_units, v_revenue, v_last)
                   as k (store_id, variant_id, units, revenue, last_day)
              on k.store_id = b.store_id and k.variant_id = b.variant_id
           where k.units > 0 and k.units < v_units_bound;
        return;
      end if;
    end if;
  end if;
  return query
    with figures as materialized (
      select k.store_id, k.variant_id, k.units, p.on_hand, k.revenue, k.last_day
        from unnest(v_stores, v_variants, v_units, v_revenue, v_last)
               as k (store_id, variant_id, units, revenue, last_day)
        cross join lateral (select p.on_hand from public.stock_pairs p
            where p.store_id = k.store_id and p.variant_id = k.variant_id and p.business_id = _business_id
            limit 1) p
    )
    select * from figures
    union all
    select w.store_id, w.variant_id, 0::numeric, w.on_hand, 0::bigint, null::date
      from private.stock_pairs_by_sku(_business_id, _stores, _limit + (select count(*)::int from figures)) w
     where (select count(*) from figures f where f.units > 0) < _limit
       and not exists (select 1 from figures f where f.store_id = w.store_id and f.variant_id = w.variant_id);
end;
$$;

-- Exact figures of the given pairs (private.sell_through_of) that sold in the range, with their on hand now; pairs
-- without a stock record left out. A's and B's check in private.sell_through_selling.
create or replace function private.sell_through_selling_of(_business_id uuid, _from date, _to date, _stores uuid[],
                                                           _variants uuid[], _refund_stores uuid[],
                                                           _refund_variants uuid[], _refund_units numeric[],
                                                           _refund_revenue numeric[])
returns table (store_id uuid, variant_id uuid, units numeric, on_hand numeric, revenue bigint, last_day date)
language sql
stable
security invoker
set search_path = ''
as $$
  select t.store_id, t.variant_id, t.units, p.on_hand, t.revenue, t.last_day
    from private.sell_through_of(_business_id, _from, _to, _stores, _variants, _refund_stores, _refund_variants,
                                 _refund_units, _refund_revenue) t
    cross join lateral (select p.on_hand from public.stock_pairs p
        where p.store_id = t.store_id and p.variant_id = t.variant_id and p.business_id = _business_id
        limit 1) p
   where t.units > 0;
$$;

-- Sell-through best first for a range ending after the scope's last movement: the pairs of A and B above (units
-- > 0, exact figures, on hand now), among which the page ranks; nothing when it cannot decide. A range with at
-- most _few daily rows is decided by its sold pairs (private.sell_through_few). _per_list (the lists' first depth),
-- _cap (the most pairs B may hold) and _few are the report's defaults unless given (tests give small ones to take
-- the lists and their deeper rounds on small data).
create or replace function private.sell_through_selling(_business_id uuid, _from date, _to date, _store_id uuid,
                                                        _limit int, _per_list int default null,
                                                        _cap int default 20000, _few int default 10000)
returns table (store_id uuid, variant_id uuid, units numeric, on_hand numeric, revenue bigint, last_day date)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_stores uuid[] := private.stock_pair_stores(_business_id, _store_id);
  v_cap int := greatest(coalesce(_cap, 20000), 0);
  v_per_list int;
  v_months date[];
  v_list_stores uuid[];
  v_list_variants uuid[];
  v_bound_stores uuid[];
  v_bounds numeric[];
  v_a_stores uuid[];
  v_a_variants uuid[];
  v_a_units numeric[];
  v_a_on_hand numeric[];
  v_a_revenue bigint[];
  v_a_last date[];
  v_theta numeric;
  v_b_count bigint;
  v_b_stores uuid[];
  v_b_variants uuid[];
  v_refund_stores uuid[];
  v_refund_variants uuid[];
  v_refund_units numeric[];
  v_refund_revenue numeric[];
begin
  if coalesce(cardinality(v_stores), 0) = 0
     or exists (select 1 from private.stock_moved_after(_business_id, _to, _store_id)) then
    return;
  end if;
  -- Few sales in the range: the sold pairs themselves decide.
  return query select * from private.sell_through_few(_business_id, _from, _to, v_stores, _store_id, _limit,
                                                      greatest(coalesce(_few, 10000), 0));
  if found then
    return;
  end if;
  select array_agg(m.month::date order by m.month) into v_months
    from generate_series(date_trunc('month', _from::timestamp), date_trunc('month', _to::timestamp),
                         interval '1 month') as m (month);
  -- About 40 x _limit list rows in all, 16 to max(2 x _limit, 64) a list: at 1,000,000 lines a year over 10 stores
  -- (130 lists) read 100 deep checked 6,770 pairs (1.5 s on PostgreSQL), 16 deep 2,136 (0.76 s); 30 days over 10
  -- stores (20 lists) is best at 50-100, a year of one store at 100.
  v_per_list := greatest(coalesce(_per_list,
                                  least(greatest(ceil(40.0 * _limit / (cardinality(v_months) * cardinality(v_stores)))::int,
                                                 16),
                                        greatest(_limit * 2, 64))), 1);
  select array_agg(f.store_id), array_agg(f.variant_id), array_agg(f.units), array_agg(f.revenue)
    into v_refund_stores, v_refund_variants, v_refund_units, v_refund_revenue
    from private.sell_through_refunded(_business_id, _from, _to, _store_id) f;
  loop
    -- A's pairs, and each store's bound T (stores whose lists were all read to the end have none).
    with top as materialized (
      select * from private.monthly_units_top(_business_id, v_stores, v_months, v_per_list)
    )
    select a.stores, a.variants, b.stores, b.bounds
      into v_list_stores, v_list_variants, v_bound_stores, v_bounds
      from (select array_agg(p.store_id) as stores, array_agg(p.variant_id) as variants
              from (select distinct t.store_id, t.variant_id from top t) p) a,
           (select array_agg(l.store_id) as stores, array_agg(l.bound) as bounds
              from (select t.store_id, sum(t.frontier) as bound
                      from (select distinct t.store_id, t.month, t.frontier from top t) t
                     group by 1) l
             where l.bound > 0) b;
    -- A's exact figures (pairs with a stock record that sold), and theta, the _limit-th best sell-through.
    select array_agg(t.store_id), array_agg(t.variant_id), array_agg(t.units), array_agg(t.on_hand),
           array_agg(t.revenue), array_agg(t.last_day),
           (array_agg(t.units / (t.units + greatest(t.on_hand, 0)) order by t.units / (t.units + greatest(t.on_hand, 0)) desc))[_limit]
      into v_a_stores, v_a_variants, v_a_units, v_a_on_hand, v_a_revenue, v_a_last, v_theta
      from private.sell_through_selling_of(_business_id, _from, _to, v_list_stores, v_list_variants,
                                           v_refund_stores, v_refund_variants, v_refund_units, v_refund_revenue) t;
    if v_theta is null and v_bound_stores is null then
      -- Every list read to its end and fewer than _limit pairs selling: the full ranking pads the page.
      return;
    end if;
    if v_theta is not null then
      -- B: the pairs not in A with on hand at most T x (1 - theta) / theta (a thousandth above: numeric division
      -- rounds, a larger bound only adds pairs to check). More than v_cap under the bound (counted with A's,
      -- as the reader stops at v_cap + 1): too many.
      select count(*),
             array_agg(b.store_id) filter (where a.store_id is null),
             array_agg(b.variant_id) filter (where a.store_id is null)
        into v_b_count, v_b_stores, v_b_variants
        from private.stock_pairs_at_most(
               _business_id, _store_id, v_bound_stores,
               (select array_agg(u.bound * (1 - v_theta) / v_theta + 0.001 order by u.n)
                  from unnest(v_bounds) with ordinality as u (bound, n)),
               v_cap) b
        left join unnest(v_a_stores, v_a_variants) as a (store_id, variant_id)
          on a.store_id = b.store_id and a.variant_id = b.variant_id;
      if v_b_count <= v_cap then
        return query
          select * from unnest(v_a_stores, v_a_variants, v_a_units, v_a_on_hand, v_a_revenue, v_a_last)
          union all
          select * from private.sell_through_selling_of(_business_id, _from, _to, v_b_stores, v_b_variants,
                                                        v_refund_stores, v_refund_variants, v_refund_units,
                                                        v_refund_revenue);
        return;
      end if;
    end if;
    -- Too few selling in the lists read, or too many pairs under the bound: deeper lists lower T.
    if v_per_list >= 4096 then
      return;
    end if;
    v_per_list := v_per_list * 4;
  end loop;
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- A page of sell-through from candidate pairs (the fast paths'), in the report's order; only the rows that can be
-- on the page (fewer than _limit before them on the keys ahead of the SKU) are joined to the catalog.
create or replace function private.sell_through_page(_worst boolean, _limit int, _stores uuid[], _variants uuid[],
                                                     _units numeric[], _on_hand numeric[], _revenue bigint[],
                                                     _last date[])
returns table (store_id uuid, variant_id uuid, sku text, product_name text, units_sold numeric, on_hand_end numeric,
               sell_through numeric, revenue bigint, last_sold_on date)
language sql
stable
security invoker
set search_path = ''
as $$
  with x as (
    select k.store_id, k.variant_id, k.units, greatest(k.on_hand, 0) as on_hand, k.revenue, k.last_day,
           case when k.units + greatest(k.on_hand, 0) <= 0 then null
                else greatest(k.units, 0) / (greatest(k.units, 0) + greatest(k.on_hand, 0)) end as ratio
      from unnest(_stores, _variants, _units, _on_hand, _revenue, _last)
             as k (store_id, variant_id, units, on_hand, revenue, last_day)
     where k.units <> 0 or k.on_hand > 0
  ),
  page as (
    select x.*, rank() over (order by case when _worst then coalesce(x.ratio, 0) end asc,
                                      case when not _worst then x.ratio end desc nulls last,
                                      case when _worst then x.on_hand end desc, x.revenue desc) as n
      from x
  )
  select x.store_id, x.variant_id, v.sku, p.name, x.units, x.on_hand, round(x.ratio, 4), x.revenue, x.last_day
    from page x
    join public.variants v on v.id = x.variant_id
    join public.products p on p.id = v.product_id
   where x.n <= _limit
   order by case when _worst then coalesce(x.ratio, 0) end asc,
            case when not _worst then x.ratio end desc nulls last,
            case when _worst then x.on_hand end desc, x.revenue desc, v.sku, x.store_id
   limit _limit;
$$;

-- ---------------------------------------------------------------------------------------------------
-- The full ranking of 20261126100000's report_sell_through, moved here so that later changes redefine only what
-- they change. Two differences: only pairs with a stock record (see above), and on hand of the pairs selling read
-- from stock_pairs (one row a pair) rather than summed over their lots.
create or replace function private.sell_through_ranked(_business_id uuid, _from date, _to date, _store_id uuid,
                                                       _worst boolean, _limit int)
returns table (store_id uuid, variant_id uuid, sku text, product_name text, units_sold numeric, on_hand_end numeric,
               sell_through numeric, revenue bigint, last_sold_on date)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
-- The range's sold pairs are aggregated in memory (at the default 4 MB the hash spilled to disk at 200,000 lines,
-- ADR 0166).
set work_mem = '32MB'
as $$
#variable_conflict use_column
declare
  v_stores uuid[];
  v_variants uuid[];
  v_units numeric[];
  v_revenue bigint[];
  v_last date[];
begin
  select array_agg(s.store_id), array_agg(s.variant_id), array_agg(s.units), array_agg(s.revenue),
         array_agg(s.last_day)
    into v_stores, v_variants, v_units, v_revenue, v_last
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
    selling as materialized (
      select so.store_id, so.variant_id, so.units, greatest(p.on_hand - coalesce(l.qty, 0), 0) as on_hand,
             so.revenue, so.last_day
        from sold so
        join public.stock_pairs p
          on p.store_id = so.store_id and p.variant_id = so.variant_id and p.business_id = _business_id
        left join later l on l.store_id = so.store_id and l.variant_id = so.variant_id
       where so.units > 0 and _worst is false
    ),
    -- Otherwise every pair with a stock record, sold or on hand at the end of the range.
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
      select sk.store_id, sk.variant_id, coalesce(so.units, 0) as units, greatest(sk.qty, 0) as on_hand,
             coalesce(so.revenue, 0) as revenue, so.last_day
        from stock sk left join sold so on so.store_id = sk.store_id and so.variant_id = sk.variant_id
    ),
    enough as (
      select count(*) >= _limit as yes from selling
    ),
    x as (
      select * from selling where (select yes from enough)
      union all
      select * from everything where not (select yes from enough)
    ),
    -- The order's keys before the SKU: a row of the page has fewer than _limit rows before it on them, so its
    -- rank is at most _limit; only those rows are joined to the catalog.
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
     where x.n <= _limit
     order by case when _worst then coalesce(x.ratio, 0) end asc,
              case when not _worst then x.ratio end desc nulls last,
              case when _worst then x.on_hand end desc, x.revenue desc, v.sku, x.store_id
     limit _limit;
end;
$$;

revoke all on function private.monthly_units_top(uuid, uuid[], date[], int),
  private.sell_through_selling_of(uuid, date, date, uuid[], uuid[], uuid[], uuid[], numeric[], numeric[]),
  private.stock_pairs_by_sku(uuid, uuid[], int), private.sell_through_few(uuid, date, date, uuid[], uuid, int, int, int),
  private.stock_pairs_at_most(uuid, uuid, uuid[], numeric[], int),
  private.sell_through_selling(uuid, date, date, uuid, int, int, int, int),
  private.sell_through_page(boolean, int, uuid[], uuid[], numeric[], numeric[], bigint[], date[]),
  private.sell_through_ranked(uuid, date, date, uuid, boolean, int) from public, anon;
grant execute on function private.monthly_units_top(uuid, uuid[], date[], int),
  private.sell_through_selling_of(uuid, date, date, uuid[], uuid[], uuid[], uuid[], numeric[], numeric[]),
  private.stock_pairs_by_sku(uuid, uuid[], int), private.sell_through_few(uuid, date, date, uuid[], uuid, int, int, int),
  private.stock_pairs_at_most(uuid, uuid, uuid[], numeric[], int),
  private.sell_through_selling(uuid, date, date, uuid, int, int, int, int),
  private.sell_through_page(boolean, int, uuid[], uuid[], numeric[], numeric[], bigint[], date[]),
  private.sell_through_ranked(uuid, date, date, uuid, boolean, int) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Sell-through (same signature, columns and order as in 20261126100000): a fast path for each order, else the
-- full ranking.
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
as $$
#variable_conflict use_column
declare
  v_limit int := least(greatest(coalesce(_limit, 50), 1), 500);
  v_stores uuid[];
  v_variants uuid[];
  v_units numeric[];
  v_on_hand numeric[];
  v_revenue bigint[];
  v_last date[];
begin
  perform private.report_args(_business_id, _from, _to, null);
  _worst := coalesce(_worst, false);
  -- Each fast path returns at least a page of candidates when it decides, nothing otherwise (only the one of the
  -- order asked runs: its condition is a one-time filter).
  select array_agg(u.store_id), array_agg(u.variant_id), array_agg(u.units), array_agg(u.on_hand),
         array_agg(u.revenue), array_agg(u.last_day)
    into v_stores, v_variants, v_units, v_on_hand, v_revenue, v_last
    from (select * from private.sell_through_unsold(_business_id, _from, _to, _store_id, v_limit) where _worst
          union all
          select * from private.sell_through_selling(_business_id, _from, _to, _store_id, v_limit) where not _worst) u;
  if coalesce(cardinality(v_stores), 0) >= v_limit then
    return query select * from private.sell_through_page(_worst, v_limit, v_stores, v_variants,
                                                        v_units, v_on_hand, v_revenue, v_last);
    return;
  end if;
  return query select * from private.sell_through_ranked(_business_id, _from, _to, _store_id, _worst, v_limit);
end;
$$;
comment on function public.report_sell_through(uuid, date, date, uuid, boolean, int) is
  'Owners and managers only: per variant and store with a stock record, units sold net of refunds in the range, on '
  'hand at the end of the range (ledger), sell-through = sold / (sold + on hand); best or worst (_worst) first, '
  'limit 1..500 (ADR 0144, 0166, 0170).';
