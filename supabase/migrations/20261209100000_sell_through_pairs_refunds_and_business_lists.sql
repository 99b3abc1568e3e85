-- Sell-through best first over a year and all stores (issue 32, ADR 0441).
--
-- At 10,000,000 sale lines over 100 stores the case took 2.6 s warm and timed out cold. Three parts, each reading
-- rows it did not need:
-- 1. The refunds of the whole range were netted as one set before any pair was chosen: every refund line of a year
--    (27,756 pairs), each joined to its refund, store and sale line, 600-820 ms. Only the pairs a page can hold need
--    their refunds: private.sell_through_refunds_of reads the refund lines of the given pairs' variants
--    (refund_lines.variant_id, ADR 0438).
-- 2. The exact figures of each candidate pair read its daily rows through the heap: a pair selling all year has
--    about 56 rows, each on its own page (370,000 buffers for 6,128 pairs, 1.6 s warm, 22 s cold). The pair index
--    now carries what the sum needs (business_id for the policy, lines, units, revenue), so the sum is an index-only
--    scan: 34,000 buffers, 286 ms for the same pairs.
-- 3. The candidates came from one list per store and month (1,300 lists at 100 stores and 13 months, 16 deep: 6,128
--    pairs), most of them a small store's best, far from the page. A caller who sees the whole business now ranks
--    from one list per month over every store (new index on business, month and units), and every store's bound is
--    the sum of those lists' last units: 400 deep, 1,052 pairs and a bound of 240 units a year.
-- private.sell_through_refunded (the whole range's refunds) is dropped; sell_through_of and sell_through_selling_of
-- take the pairs only.

drop index if exists public.sales_daily_variant_pair_day_idx;
drop index if exists public.sales_monthly_variant_variant_store_idx;

-- One store's days of one variant in a single index range (issue 32, ADR 0438).
--
-- Sell-through reads the exact units of each candidate (store, variant) pair over the range, and the per-store best
-- and worst sellers read each candidate variant's days in one store. sales_daily_variant had (store_id, day,
-- variant_id) and (variant_id, day): the planner took the second and read the variant's rows in every store. At
-- 10,000,000 sale lines over 100 stores that is about 600 rows read and dropped per pair for 30 days; sell-through
-- best 50 over 30 days read 1,700,000 index entries for 2,856 pairs (4-5 s). With (store_id, variant_id, day) each
-- pair is about 7 rows. The index carries what those sums and the policy read (ADR 0441), so they never visit the
-- table: 980 against 725 MB at that size.
create index sales_daily_variant_pair_day_idx on public.sales_daily_variant (store_id, variant_id, day)
  include (business_id, lines, units, revenue);

-- ---------------------------------------------------------------------------------------------------
-- Best and worst sellers (ADR 0151), unchanged in what they return:
-- * A manager's candidates are checked against their stores' monthly bounds one variant at a time; the index on
--   (variant, month) read every store's rows of the variant and dropped the other stores' (10 stores: 5 rows read
--   for 1 kept with two stores). With the store second, each check reads its stores' months only, from the index.
-- * It also carries units and revenue, so sell-through's whole months of a pair are read from the index alone
--   (ADR 0441).
create index sales_monthly_variant_variant_store_idx
  on public.sales_monthly_variant (variant_id, store_id, month) include (business_id, revenue_bound, units, revenue);

-- Sell-through's lists of one month over every store (private.monthly_pairs_top), read from the index alone.
create index sales_monthly_variant_business_units_idx
  on public.sales_monthly_variant (business_id, month, units desc) include (store_id, variant_id);

-- The refunds in the range of the given (store, variant) pairs, net of tax as private.sell_through_sold nets them:
-- the refund lines of the pairs' variants, kept when their refund is in the pair's store and on a local day of the
-- range. Pairs without refunds are left out.
create or replace function private.sell_through_refunds_of(_business_id uuid, _from date, _to date, _stores uuid[],
                                                           _variants uuid[])
returns table (store_id uuid, variant_id uuid, units numeric, revenue numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  with lines as materialized (
    select r.store_id, rl.variant_id, rl.qty, rl.amount, rl.sale_line_id, r.occurred_at
      from (select distinct u.id from unnest(_variants) as u (id)) v
      -- One index range per variant (offset 0 keeps it a nested loop: a function's generic plan hashed every
      -- refund line of the business, 16 ms at 28,000 lines, for the refunds of one variant).
      cross join lateral (select rl.* from public.refund_lines rl
                           where rl.variant_id = v.id and rl.business_id = _business_id offset 0) rl
      join public.refunds r on r.id = rl.refund_id and r.business_id = rl.business_id
     where r.occurred_at >= private.report_utc_lower(_from) and r.occurred_at < private.report_utc_upper(_to)
  )
  select k.store_id, k.variant_id, -sum(x.qty),
         -sum(x.amount - case when l.line_total = 0 then 0
                              else round(x.amount::numeric * l.tax_amount / l.line_total) end)
    from (select distinct p.store_id, p.variant_id from unnest(_stores, _variants) as p (store_id, variant_id)) k
    join lines x on x.store_id = k.store_id and x.variant_id = k.variant_id
    join public.stores st on st.id = x.store_id
    join public.sale_lines l on l.id = x.sale_line_id and l.business_id = _business_id
   where (x.occurred_at at time zone st.time_zone)::date between _from and _to
   group by 1, 2;
$$;
revoke all on function private.sell_through_refunds_of(uuid,date,date,uuid[],uuid[]) from public;
grant execute on function private.sell_through_refunds_of(uuid,date,date,uuid[],uuid[]) to authenticated;

-- The sales of given pairs over a range, without refunds: units and revenue of the daily variant summary's rows
-- with lines, and the last local day with a sale line. The range's whole months come from the monthly rollup (its
-- sums of the same rows: a day's row without lines holds no units or revenue), the days before and after them from
-- the daily rows: a pair selling every day of a year reads 12 monthly and about 30 daily index entries, not 365.
-- Each part is one index-only range per pair.
create or replace function private.sell_through_sales_of(_business_id uuid, _from date, _to date, _stores uuid[],
                                                         _variants uuid[])
returns table (store_id uuid, variant_id uuid, units numeric, revenue bigint, last_day date)
language sql
stable
security invoker
set search_path = ''
as $$
  with b as (
    -- The whole months [m1, m2) of the range; none when m1 >= m2 (then the head is the whole range).
    select m.m1, m.m2, case when m.m1 < m.m2 then m.m1 else _to + 1 end as head_end,
           case when m.m1 < m.m2 then m.m2 else _to + 1 end as tail_start
      from (select case when date_trunc('month', _from::timestamp)::date = _from then _from
                        else (date_trunc('month', _from::timestamp) + interval '1 month')::date end as m1,
                   date_trunc('month', (_to + 1)::timestamp)::date as m2) m
  )
  select k.store_id, k.variant_id, coalesce(h.units, 0) + coalesce(mo.units, 0) + coalesce(t.units, 0),
         (coalesce(h.revenue, 0) + coalesce(mo.revenue, 0) + coalesce(t.revenue, 0))::bigint,
         -- The last day: in the tail, else in the whole months (one step back in the daily rows), else in the head.
         coalesce(t.last_day,
                  case when mo.units is not null then (
                    select max(d.day) from public.sales_daily_variant d
                     where d.store_id = k.store_id and d.variant_id = k.variant_id and d.business_id = _business_id
                       and d.day >= b.m1 and d.day < b.m2 and d.lines > 0) end,
                  h.last_day)
    from b
    cross join unnest(_stores, _variants) as k (store_id, variant_id)
    left join lateral (
      select sum(d.units) as units, sum(d.revenue) as revenue, max(d.day) as last_day
        from public.sales_daily_variant d
       where d.store_id = k.store_id and d.variant_id = k.variant_id and d.business_id = _business_id
         and d.day >= _from and d.day < b.head_end and d.lines > 0) h on true
    -- Whole months and the tail only when the range has whole months (a one-time filter otherwise).
    left join lateral (
      select sum(m.units) as units, sum(m.revenue) as revenue from public.sales_monthly_variant m
       where b.m1 < b.m2 and m.variant_id = k.variant_id and m.store_id = k.store_id
         and m.business_id = _business_id and m.month >= b.m1 and m.month < b.m2) mo on true
    left join lateral (
      select sum(d.units) as units, sum(d.revenue) as revenue, max(d.day) as last_day
        from public.sales_daily_variant d
       where b.m1 < b.m2 and d.store_id = k.store_id and d.variant_id = k.variant_id
         and d.business_id = _business_id and d.day >= b.tail_start and d.day <= _to and d.lines > 0) t on true;
$$;
revoke all on function private.sell_through_sales_of(uuid,date,date,uuid[],uuid[]) from public;
grant execute on function private.sell_through_sales_of(uuid,date,date,uuid[],uuid[]) to authenticated;

-- Sell-through parts for given pairs over a range, exactly as private.sell_through_sold defines them: their sales
-- (private.sell_through_sales_of) and their refunds (private.sell_through_refunds_of). Pairs without either: 0, 0,
-- null.
create or replace function private.sell_through_of(_business_id uuid, _from date, _to date, _stores uuid[],
                                                   _variants uuid[])
returns table (store_id uuid, variant_id uuid, units numeric, revenue bigint, last_day date)
language sql
stable
security invoker
set search_path = ''
as $$
  select k.store_id, k.variant_id, k.units + coalesce(f.units, 0), (k.revenue + coalesce(f.revenue, 0))::bigint,
         k.last_day
    from private.sell_through_sales_of(_business_id, _from, _to, _stores, _variants) k
    left join private.sell_through_refunds_of(_business_id, _from, _to, _stores, _variants) f
      on f.store_id = k.store_id and f.variant_id = k.variant_id;
$$;
revoke all on function private.sell_through_of(uuid,date,date,uuid[],uuid[]) from public;
grant execute on function private.sell_through_of(uuid,date,date,uuid[],uuid[]) to authenticated;

-- One list per month over every store of the business: its _per_list (store, variant) pairs with the most units,
-- and the list's frontier (its lowest units; 0 when the month has fewer pairs, read to its end). A pair outside a
-- month's list sold at most that month's frontier in it. The business-wide counterpart of
-- private.monthly_units_top's lists per store.
create or replace function private.monthly_pairs_top(_business_id uuid, _months date[], _per_list int)
returns table (store_id uuid, month date, variant_id uuid, frontier numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  select t.store_id, t.month, t.variant_id,
         case when count(*) over (partition by t.month) < _per_list then 0
              else min(t.units) over (partition by t.month) end
    from unnest(_months) as mo (month)
    cross join lateral (select m.store_id, m.month, m.variant_id, m.units from public.sales_monthly_variant m
                         where m.business_id = _business_id and m.month = mo.month
                         order by m.units desc limit _per_list) t;
$$;
revoke all on function private.monthly_pairs_top(uuid,date[],integer) from public;
grant execute on function private.monthly_pairs_top(uuid,date[],integer) to authenticated;

-- The given pairs that sold in the range by their sales alone (private.sell_through_sales_of, refunds not netted),
-- with their on hand now; pairs without a stock record left out.
create or replace function private.sell_through_gross_of(_business_id uuid, _from date, _to date, _stores uuid[],
                                                         _variants uuid[])
returns table (store_id uuid, variant_id uuid, units numeric, on_hand numeric, revenue bigint, last_day date)
language sql
stable
security invoker
set search_path = ''
as $$
  select t.store_id, t.variant_id, t.units, p.on_hand, t.revenue, t.last_day
    from private.sell_through_sales_of(_business_id, _from, _to, _stores, _variants) t
    cross join lateral (select p.on_hand from public.stock_pairs p
        where p.store_id = t.store_id and p.variant_id = t.variant_id and p.business_id = _business_id
        limit 1) p
   where t.units > 0;
$$;
revoke all on function private.sell_through_gross_of(uuid,date,date,uuid[],uuid[]) from public;
grant execute on function private.sell_through_gross_of(uuid,date,date,uuid[],uuid[]) to authenticated;

-- Sales figures (private.sell_through_gross_of's rows, as arrays) made exact: their refunds netted, the pairs still
-- selling kept. A refund only lowers units, so a pair whose sales alone stay under _theta cannot reach it and is
-- dropped before its refunds are read; with _top, only the _top best by sales alone are netted.
create or replace function private.sell_through_net(_business_id uuid, _from date, _to date, _stores uuid[],
                                                    _variants uuid[], _units numeric[], _on_hand numeric[],
                                                    _revenue bigint[], _last date[], _theta numeric, _top int)
returns table (store_id uuid, variant_id uuid, units numeric, on_hand numeric, revenue bigint, last_day date)
language sql
stable
security invoker
set search_path = ''
as $$
  with kept as materialized (
    select g.* from unnest(_stores, _variants, _units, _on_hand, _revenue, _last)
                      as g (store_id, variant_id, units, on_hand, revenue, last_day)
     where _theta is null or g.units / (g.units + greatest(g.on_hand, 0)) >= _theta
     order by g.units / (g.units + greatest(g.on_hand, 0)) desc
     limit _top
  )
  select k.store_id, k.variant_id, k.units + coalesce(f.units, 0), k.on_hand,
         (k.revenue + coalesce(f.revenue, 0))::bigint, k.last_day
    from kept k
    left join private.sell_through_refunds_of(_business_id, _from, _to, array(select k.store_id from kept k),
                                              array(select k.variant_id from kept k)) f
      on f.store_id = k.store_id and f.variant_id = k.variant_id
   where k.units + coalesce(f.units, 0) > 0;
$$;
revoke all on function private.sell_through_net(uuid,date,date,uuid[],uuid[],numeric[],numeric[],bigint[],date[],numeric,integer) from public;
grant execute on function private.sell_through_net(uuid,date,date,uuid[],uuid[],numeric[],numeric[],bigint[],date[],numeric,integer) to authenticated;

-- Exact figures of the given pairs that sold in the range, with their on hand now (pairs without a stock record
-- left out); with _theta, only those whose sell-through can reach it (private.sell_through_net).
create or replace function private.sell_through_selling_of(_business_id uuid, _from date, _to date, _stores uuid[],
                                                           _variants uuid[], _theta numeric default null)
returns table (store_id uuid, variant_id uuid, units numeric, on_hand numeric, revenue bigint, last_day date)
language sql
stable
security invoker
set search_path = ''
as $$
  select n.*
    from (select array_agg(g.store_id) as stores, array_agg(g.variant_id) as variants, array_agg(g.units) as units,
                 array_agg(g.on_hand) as on_hand, array_agg(g.revenue) as revenue, array_agg(g.last_day) as last
            from private.sell_through_gross_of(_business_id, _from, _to, _stores, _variants) g) g
    cross join lateral private.sell_through_net(_business_id, _from, _to, g.stores, g.variants, g.units, g.on_hand,
                                                g.revenue, g.last, _theta, null) n;
$$;
revoke all on function private.sell_through_selling_of(uuid,date,date,uuid[],uuid[],numeric) from public;
grant execute on function private.sell_through_selling_of(uuid,date,date,uuid[],uuid[],numeric) to authenticated;

-- The pairs of the given stores (among those the caller may read) whose on hand is at most the store's bound, with
-- their on hand, at most _cap + 1 in all (the caller treats more than _cap as too many). The caller's stores are
-- read once (as a filter on every store's row they were read once a store: 48 of 53 ms at 100 stores, ADR 0441).
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
   where s.id in (select unnest(private.stock_pair_stores(_business_id, _store_id)))
   limit _cap + 1;
$$;

-- Sell-through worst first when the range ends after the scope's last movement (on hand at the end = on hand now):
-- pairs on hand that did not sell (units <= 0, sell-through 0) come first, by on hand descending, then revenue,
-- SKU and store. Reads the pairs with the most on hand of each store, checks each exactly (daily variant summary,
-- the pairs' own refunds, once a round), and returns the unsold ones above the frontier (the highest, over the
-- stores not read to the end, of the lowest on hand read): every pair with more on hand than the frontier was read
-- in every store, so with at least _limit of them the page is among them, ties included. Otherwise it reads four
-- times more, and returns nothing when it cannot decide (later movements, too few unsold pairs on hand).
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
  v_found_stores uuid[];
  v_found_variants uuid[];
  v_found_units numeric[];
  v_found_on_hand numeric[];
  v_found_revenue bigint[];
  v_found_last date[];
begin
  if exists (select 1 from public.stores st
               join public.stock_movements m
                 on m.business_id = _business_id and m.store_id = st.id
                and m.occurred_at >= private.report_utc_lower(_to + 1)
                and m.occurred_at >= ((_to + 1)::timestamp at time zone st.time_zone)
              where st.id = any (v_stores)) then
    return;
  end if;
  loop
    select array_agg(t.store_id), array_agg(t.variant_id), array_agg(t.on_hand),
           max(t.lowest) filter (where not t.exhausted), bool_or(not t.exhausted)
      into v_pair_stores, v_pair_variants, v_pair_on_hand, v_frontier, v_open
      from (select t.*, min(t.on_hand) over (partition by t.store_id) as lowest
              from private.stock_pairs_most_on_hand(_business_id, _store_id, v_per_store) t) t;
    -- The unsold pairs above the frontier, figured once.
    select array_agg(k.store_id), array_agg(k.variant_id), array_agg(t.units), array_agg(k.on_hand),
           array_agg(t.revenue), array_agg(t.last_day)
      into v_found_stores, v_found_variants, v_found_units, v_found_on_hand, v_found_revenue, v_found_last
      from unnest(v_pair_stores, v_pair_variants, v_pair_on_hand) as k (store_id, variant_id, on_hand)
      join private.sell_through_of(_business_id, _from, _to, v_pair_stores, v_pair_variants) t
        on t.store_id = k.store_id and t.variant_id = k.variant_id
     where t.units <= 0 and (v_frontier is null or k.on_hand > v_frontier);
    if coalesce(cardinality(v_found_stores), 0) >= _limit then
      return query select * from unnest(v_found_stores, v_found_variants, v_found_units, v_found_on_hand,
                                         v_found_revenue, v_found_last);
      return;
    end if;
    -- Every pair on hand read and still too few, or too many to read: the full ranking decides.
    if not coalesce(v_open, false) or v_per_store >= 16384 then
      return;
    end if;
    v_per_store := v_per_store * 4;
  end loop;
end;
$$;revoke all on function private.sell_through_unsold(uuid,date,date,uuid,integer) from public;
grant execute on function private.sell_through_unsold(uuid,date,date,uuid,integer) to authenticated;

-- Sell-through best first for a range ending after the scope's last movement: the pairs of A and B above (units
-- > 0, exact figures, on hand now), among which the page ranks; nothing when it cannot decide. A range with at
-- most _few daily rows is decided by its sold pairs (private.sell_through_few). _per_list (the lists' first depth),
-- _cap (the most pairs B may hold) and _few are the report's defaults unless given (tests give small ones to take
-- the lists and their deeper rounds on small data). The lists are per store and month, or one per month over every
-- store when the caller sees the whole business and lists per store would outgrow their budget (ADR 0441).
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
  v_business boolean;
  v_cap int := greatest(coalesce(_cap, 20000), 0);
  v_per_list int;
  v_months date[];
  v_list_stores uuid[];
  v_list_variants uuid[];
  v_bound_stores uuid[];
  v_bounds numeric[];
  v_g_stores uuid[];
  v_g_variants uuid[];
  v_g_units numeric[];
  v_g_on_hand numeric[];
  v_g_revenue bigint[];
  v_g_last date[];
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
  -- Lists per store while they stay within about 40 x _limit rows at 16 deep; past that (many stores, many months)
  -- one list per month over every store when the caller sees the whole business (private.monthly_pairs_top).
  v_business := _store_id is null and _business_id in (select private.my_full_access_business_ids())
                and 40.0 * _limit / (cardinality(v_months) * cardinality(v_stores)) < 16;
  -- Lists per store: about 40 x _limit list rows in all, 16 to max(2 x _limit, 64) a list: at 1,000,000 lines a
  -- year over 10 stores (130 lists) read 100 deep checked 6,770 pairs (1.5 s on PostgreSQL), 16 deep 2,136
  -- (0.76 s); 30 days over 10 stores (20 lists) is best at 50-100, a year of one store at 100.
  -- Lists per month over the business: 8 x _limit deep. At 10,000,000 lines over 100 stores, a year's 13 lists
  -- 400 deep hold 1,052 pairs with a bound of 240 units; 200 and 800 deep were slower, as was 800 for 30 days
  -- within the noise (ADR 0441).
  v_per_list := greatest(coalesce(_per_list,
                                  case when v_business
                                       then 8 * _limit
                                       else least(greatest(ceil(40.0 * _limit / (cardinality(v_months) * cardinality(v_stores)))::int,
                                                           16),
                                                  greatest(_limit * 2, 64)) end), 1);
  loop
    -- A's pairs, and each store's bound T (stores whose lists were all read to the end have none; over the
    -- business every store has the sum of the months' frontiers).
    with top as materialized (
      select * from private.monthly_units_top(_business_id, v_stores, v_months, v_per_list) where not v_business
      union all
      select * from private.monthly_pairs_top(_business_id, v_months, v_per_list) where v_business
    ),
    frontiers as (
      select distinct t.store_id, t.month, t.frontier from top t where not v_business
      union all
      select s.id, t.month, t.frontier
        from (select distinct t.month, t.frontier from top t where v_business) t
        cross join unnest(v_stores) as s (id)
    )
    select a.stores, a.variants, b.stores, b.bounds
      into v_list_stores, v_list_variants, v_bound_stores, v_bounds
      from (select array_agg(p.store_id) as stores, array_agg(p.variant_id) as variants
              from (select distinct t.store_id, t.variant_id from top t) p) a,
           (select array_agg(l.store_id) as stores, array_agg(l.bound) as bounds
              from (select f.store_id, sum(f.frontier) as bound from frontiers f group by 1) l
             where l.bound > 0) b;
    -- A's sales (pairs with a stock record that sold, refunds not netted).
    select array_agg(t.store_id), array_agg(t.variant_id), array_agg(t.units), array_agg(t.on_hand),
           array_agg(t.revenue), array_agg(t.last_day)
      into v_g_stores, v_g_variants, v_g_units, v_g_on_hand, v_g_revenue, v_g_last
      from private.sell_through_gross_of(_business_id, _from, _to, v_list_stores, v_list_variants) t;
    -- theta, the _limit-th best sell-through: first among the 2 x _limit best by sales alone, netted (any _limit
    -- exact figures bound the page's from below), else among all of A. Then A's exact figures that can reach it.
    select (array_agg(t.units / (t.units + greatest(t.on_hand, 0))
                      order by t.units / (t.units + greatest(t.on_hand, 0)) desc))[_limit]
      into v_theta
      from private.sell_through_net(_business_id, _from, _to, v_g_stores, v_g_variants, v_g_units, v_g_on_hand,
                                    v_g_revenue, v_g_last, null, 2 * _limit) t;
    select array_agg(t.store_id), array_agg(t.variant_id), array_agg(t.units), array_agg(t.on_hand),
           array_agg(t.revenue), array_agg(t.last_day),
           coalesce(v_theta, (array_agg(t.units / (t.units + greatest(t.on_hand, 0))
                                        order by t.units / (t.units + greatest(t.on_hand, 0)) desc))[_limit])
      into v_a_stores, v_a_variants, v_a_units, v_a_on_hand, v_a_revenue, v_a_last, v_theta
      from private.sell_through_net(_business_id, _from, _to, v_g_stores, v_g_variants, v_g_units, v_g_on_hand,
                                    v_g_revenue, v_g_last, v_theta, null) t;
    if v_theta is null and v_bound_stores is null then
      -- Every list read to its end and fewer than _limit pairs selling: the full ranking pads the page.
      return;
    end if;
    if v_theta is not null then
      -- B: the pairs not in A's lists with on hand at most T x (1 - theta) / theta (a thousandth above: numeric division
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
        left join unnest(v_list_stores, v_list_variants) as a (store_id, variant_id)
          on a.store_id = b.store_id and a.variant_id = b.variant_id;
      if v_b_count <= v_cap then
        return query
          select * from unnest(v_a_stores, v_a_variants, v_a_units, v_a_on_hand, v_a_revenue, v_a_last)
          union all
          select * from private.sell_through_selling_of(_business_id, _from, _to, v_b_stores, v_b_variants, v_theta);
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
$$;revoke all on function private.sell_through_selling(uuid,date,date,uuid,integer,integer,integer,integer) from public;
grant execute on function private.sell_through_selling(uuid,date,date,uuid,integer,integer,integer,integer) to authenticated;

drop function private.sell_through_selling_of(uuid,date,date,uuid[],uuid[],uuid[],uuid[],numeric[],numeric[]);
drop function private.sell_through_of(uuid,date,date,uuid[],uuid[],uuid[],uuid[],numeric[],numeric[]);
drop function private.sell_through_refunded(uuid,date,date,uuid);
