-- More reports and the insights (issue 14, ADR 0144 and 0145): sales by store, staff member, category and tender
-- net of refunds with profit; sell-through, best and worst sellers; inventory valuation at cost and retail; stock
-- movement history; Z reports per shift; the business overview of the dashboard; the inputs of the demand
-- forecast and the reorder suggestions, and a purchase order draft made from them.
--
-- * Who: like 20261122161000_reports.sql, every report is security invoker and starts with private.report_args
--   (owners and managers of the business, 42501 otherwise; bad range or grain 22023), so row level security of the
--   underlying tables applies to the caller: a manager's figures cover only the stores they may use, and
--   sale_line_costs, variant_costs and stock_movements (which carry costs) stay unreadable to anyone else.
--   Cashiers get no report, no cost and no profit; the business overview gives them their own shift only.
-- * Dates: a sale, refund or movement belongs to the local calendar day of its store at occurred_at; _from.._to
--   are inclusive local dates.
-- * Refunds net out: a refund counts on the day it happened, against the store, staff member (who refunded),
--   category (of the refunded line) and tender (refunded to) it belongs to. Its tax share is the refunded
--   amount x the line's tax / the line's total; a restocked refund line gives its recorded cost back, a damaged
--   one does not (the goods are lost, so their cost stays in the period's cost of goods).

-- Movement history by day and store (the ledger had indexes by store+variant and by recorded_at only).
create index if not exists stock_movements_business_store_occurred_idx
  on public.stock_movements (business_id, store_id, occurred_at);
-- Z reports and the overview read a store's refunds by shift and sales per cashier within a business.
create index if not exists sales_business_cashier_occurred_idx on public.sales (business_id, cashier_id, occurred_at desc);
create index if not exists purchase_orders_business_status_idx on public.purchase_orders (business_id, status);

-- ---------------------------------------------------------------------------------------------------
-- Line-level facts of a range: every sale line (positive) and refund line (negative), with the keys each
-- breakdown groups by. Security invoker: the caller's row level security applies; cost is null when the caller
-- cannot read sale_line_costs (never reached: the reports assert owner or manager first).
create or replace function private.report_facts(_business_id uuid, _from date, _to date, _store_id uuid)
returns table (kind text, sale_id uuid, store_id uuid, staff_id uuid, category_id uuid, variant_id uuid,
               description text, local_day date, units numeric, gross bigint, tax bigint, cost numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  select 'sale', s.id, s.store_id, s.cashier_id, p.category_id, l.variant_id, l.description,
         (s.occurred_at at time zone st.time_zone)::date, l.qty, l.line_total, l.tax_amount,
         l.qty * coalesce(c.unit_cost, 0)
    from public.sales s
    join public.stores st on st.id = s.store_id
    join public.sale_lines l on l.sale_id = s.id and l.business_id = s.business_id
    left join public.variants v on v.id = l.variant_id
    left join public.products p on p.id = v.product_id
    left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
   where s.business_id = _business_id
     and (_store_id is null or s.store_id = _store_id)
     and (s.occurred_at at time zone st.time_zone)::date between _from and _to
  union all
  select 'refund', r.sale_id, r.store_id, r.actor_id, p.category_id, l.variant_id, l.description,
         (r.occurred_at at time zone st.time_zone)::date, -rl.qty, -rl.amount,
         -case when l.line_total = 0 then 0 else round(rl.amount::numeric * l.tax_amount / l.line_total) end::bigint,
         -case when rl.disposition = 'restock' then rl.qty * coalesce(c.unit_cost, 0) else 0 end
    from public.refunds r
    join public.stores st on st.id = r.store_id
    join public.refund_lines rl on rl.refund_id = r.id and rl.business_id = r.business_id
    join public.sale_lines l on l.id = rl.sale_line_id and l.business_id = rl.business_id
    left join public.variants v on v.id = l.variant_id
    left join public.products p on p.id = v.product_id
    left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
   where r.business_id = _business_id
     and (_store_id is null or r.store_id = _store_id)
     and (r.occurred_at at time zone st.time_zone)::date between _from and _to;
$$;
revoke all on function private.report_facts(uuid, date, date, uuid) from public, anon;
grant execute on function private.report_facts(uuid, date, date, uuid) to authenticated;

-- Names of the business's members for the staff breakdown and the Z reports (business_team asserts the role).
create or replace function private.member_names(_business_id uuid)
returns table (user_id uuid, name text)
language sql
stable
security invoker
set search_path = ''
as $$
  select t.user_id, coalesce(nullif(btrim(t.full_name), ''), t.email) from public.business_team(_business_id) t;
$$;
revoke all on function private.member_names(uuid) from public, anon;
grant execute on function private.member_names(uuid) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Sales by store, staff member, category or tender over a range, net of refunds, with profit and margin
-- (not for tenders: a payment does not split into lines).
create or replace function public.report_sales_by(_business_id uuid, _from date, _to date, _dimension text,
                                                  _store_id uuid default null)
returns table (key text, label text, receipts bigint, units numeric, gross bigint, refunds bigint, net_sales bigint,
               tax bigint, revenue bigint, cost bigint, profit bigint, margin numeric)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.report_args(_business_id, _from, _to, null);
  if _dimension is null or _dimension not in ('store', 'staff', 'category', 'tender') then
    raise exception 'dimension must be store, staff, category or tender' using errcode = '22023';
  end if;
  if _dimension = 'tender' then
    return query
      with t as (
        select tn.kind, s.id as sale_id, tn.amount
          from public.sales s
          join public.stores st on st.id = s.store_id
          join public.sale_tenders tn on tn.sale_id = s.id and tn.business_id = s.business_id
         where s.business_id = _business_id
           and (_store_id is null or s.store_id = _store_id)
           and (s.occurred_at at time zone st.time_zone)::date between _from and _to
      ),
      r as (
        select r.tender_kind as kind, sum(r.total) as refunds
          from public.refunds r
          join public.stores st on st.id = r.store_id
         where r.business_id = _business_id
           and (_store_id is null or r.store_id = _store_id)
           and (r.occurred_at at time zone st.time_zone)::date between _from and _to
         group by 1
      ),
      g as (select t.kind, count(distinct t.sale_id)::bigint as receipts, sum(t.amount)::bigint as gross
              from t group by 1)
      select coalesce(g.kind, r.kind), initcap(coalesce(g.kind, r.kind)), coalesce(g.receipts, 0), null::numeric,
             coalesce(g.gross, 0), coalesce(r.refunds, 0)::bigint, (coalesce(g.gross, 0) - coalesce(r.refunds, 0))::bigint,
             null::bigint, null::bigint, null::bigint, null::bigint, null::numeric
        from g full join r on r.kind = g.kind
       order by 5 desc, 1;
    return;
  end if;
  return query
    with f as (
      select case _dimension when 'store' then f.store_id::text when 'staff' then f.staff_id::text
                             else f.category_id::text end as key, f.*
        from private.report_facts(_business_id, _from, _to, _store_id) f
    ),
    g as (
      select f.key,
             count(distinct f.sale_id) filter (where f.kind = 'sale')::bigint as receipts,
             sum(f.units) as units,
             coalesce(sum(f.gross) filter (where f.kind = 'sale'), 0)::bigint as gross,
             coalesce(-sum(f.gross) filter (where f.kind = 'refund'), 0)::bigint as refunds,
             sum(f.tax)::bigint as tax,
             sum(f.gross - f.tax)::bigint as revenue,
             round(sum(f.cost))::bigint as cost
        from f group by f.key
    )
    select g.key,
           case _dimension
             when 'store' then (select s.name::text from public.stores s where s.id::text = g.key)
             when 'staff' then coalesce((select m.name from private.member_names(_business_id) m where m.user_id::text = g.key),
                                        case when g.key is null then 'Unknown' else 'Former member' end)
             else coalesce((select c.name::text from public.categories c where c.id::text = g.key), 'Uncategorised')
           end,
           g.receipts, g.units, g.gross, g.refunds, g.gross - g.refunds, g.tax, g.revenue, g.cost, g.revenue - g.cost,
           case when g.revenue = 0 then null else round((g.revenue - g.cost)::numeric / g.revenue, 4) end
      from g
     order by g.gross - g.refunds desc, 1;
end;
$$;
comment on function public.report_sales_by(uuid, date, date, text, uuid) is
  'Owners and managers only (42501 otherwise; RLS limits managers to their stores): sales by store, staff, category '
  'or tender in the range, refunds netted on the day they happened; revenue is net of tax and refunds, cost net of '
  'restocked refund lines; profit and margin null for tenders.';

-- Sell-through per variant and store: units sold net of refunds in the range over units sold plus on hand at
-- the end of the range (from the ledger, so a past range is right too). Best or worst first.
create or replace function public.report_sell_through(_business_id uuid, _from date, _to date,
                                                      _store_id uuid default null, _worst boolean default false,
                                                      _limit int default 50)
returns table (store_id uuid, variant_id uuid, sku text, product_name text, units_sold numeric, on_hand_end numeric,
               sell_through numeric, revenue bigint, last_sold_on date)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.report_args(_business_id, _from, _to, null);
  return query
    with sold as (
      select f.store_id, f.variant_id, sum(f.units) as units, sum(f.gross - f.tax)::bigint as revenue,
             max(f.local_day) filter (where f.kind = 'sale') as last_day
        from private.report_facts(_business_id, _from, _to, _store_id) f
       group by 1, 2
    ),
    stock as (
      select m.store_id, m.variant_id, sum(m.qty) as qty
        from public.stock_movements m
        join public.stores st on st.id = m.store_id
       where m.business_id = _business_id
         and (_store_id is null or m.store_id = _store_id)
         and m.occurred_at < ((_to + 1)::timestamp at time zone st.time_zone)
       group by 1, 2
    ),
    x as (
      select coalesce(so.store_id, sk.store_id) as store_id, coalesce(so.variant_id, sk.variant_id) as variant_id,
             coalesce(so.units, 0) as units, greatest(coalesce(sk.qty, 0), 0) as on_hand,
             coalesce(so.revenue, 0) as revenue, so.last_day
        from sold so full join stock sk on sk.store_id = so.store_id and sk.variant_id = so.variant_id
    )
    select x.store_id, x.variant_id, v.sku, p.name, x.units, x.on_hand,
           case when x.units + x.on_hand <= 0 then null
                else round(greatest(x.units, 0) / (greatest(x.units, 0) + x.on_hand), 4) end,
           x.revenue, x.last_day
      from x
      join public.variants v on v.id = x.variant_id
      join public.products p on p.id = v.product_id
     where x.units <> 0 or x.on_hand > 0
     order by case when _worst then coalesce(case when x.units + x.on_hand <= 0 then null
                                                  else greatest(x.units, 0) / (greatest(x.units, 0) + x.on_hand) end, 0) end asc,
              case when not _worst then case when x.units + x.on_hand <= 0 then null
                                             else greatest(x.units, 0) / (greatest(x.units, 0) + x.on_hand) end end desc nulls last,
              case when _worst then x.on_hand end desc, x.revenue desc, v.sku, x.store_id
     limit least(greatest(coalesce(_limit, 50), 1), 500);
end;
$$;
comment on function public.report_sell_through(uuid, date, date, uuid, boolean, int) is
  'Owners and managers only: per variant and store, units sold net of refunds in the range, on hand at the end of '
  'the range (ledger), sell-through = sold / (sold + on hand); best or worst (_worst) first, limit 1..500.';

-- Slow movers: variants on hand now that did not sell in the last _days days or sold little of their stock.
create or replace function public.report_slow_movers(_business_id uuid, _store_id uuid default null, _days int default 30,
                                                     _max_sell_through numeric default 0.1, _limit int default 50)
returns table (store_id uuid, variant_id uuid, sku text, product_name text, on_hand numeric, units_sold numeric,
               sell_through numeric, last_sold_on date, days_since_sale int, cost_value bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_today date := current_date;
begin
  if _days is null or _days < 1 or _days > 365 then
    raise exception 'the number of days must be between 1 and 365' using errcode = '22023';
  end if;
  perform private.report_args(_business_id, v_today - _days + 1, v_today, null);
  return query
    with oh as (
      select b.store_id, b.variant_id, sum(b.qty) as qty
        from public.stock_balances b
       where b.business_id = _business_id and (_store_id is null or b.store_id = _store_id)
       group by 1, 2 having sum(b.qty) > 0
    ),
    -- Sold in the window and the last sale from the ledger (a sale line writes one sale movement, a restocked
    -- refund one refund movement; index on store + variant), so no scan of the sales is needed.
    mv as (
      select oh.store_id, oh.variant_id, oh.qty, x.sold,
             (x.last_at at time zone st.time_zone)::date as last_day
        from oh
        join public.stores st on st.id = oh.store_id
        cross join lateral (
          select coalesce(-sum(m.qty) filter (where m.occurred_at >= ((v_today - _days + 1)::timestamp at time zone st.time_zone)), 0)
                   as sold,
                 max(m.occurred_at) filter (where m.kind = 'sale') as last_at
            from public.stock_movements m
           where m.store_id = oh.store_id and m.variant_id = oh.variant_id and m.kind in ('sale', 'refund')
        ) x
    )
    select mv.store_id, mv.variant_id, v.sku, p.name, mv.qty, mv.sold,
           round(greatest(mv.sold, 0) / (greatest(mv.sold, 0) + mv.qty), 4),
           mv.last_day, (v_today - mv.last_day)::int, round(mv.qty * coalesce(vc.cost, 0))::bigint
      from mv
      join public.variants v on v.id = mv.variant_id
      join public.products p on p.id = v.product_id
      left join public.variant_costs vc on vc.variant_id = mv.variant_id
     where greatest(mv.sold, 0) / (greatest(mv.sold, 0) + mv.qty) <= coalesce(_max_sell_through, 0.1)
     order by mv.sold > 0, mv.last_day nulls first, mv.qty * coalesce(vc.cost, 0) desc, v.sku, mv.store_id
     limit least(greatest(coalesce(_limit, 50), 1), 500);
end;
$$;
comment on function public.report_slow_movers(uuid, uuid, int, numeric, int) is
  'Owners and managers only: variants on hand now whose sell-through over the last _days days (1..365) is at most '
  '_max_sell_through (no sale at all first), with the last sale day and the stock at cost.';

-- Inventory valuation now per store and category: units on hand at cost (moving average) and at retail
-- (the store price, else the variant price). Negative balances are counted as they are.
create or replace function public.report_inventory_valuation(_business_id uuid, _store_id uuid default null)
returns table (store_id uuid, category text, variants bigint, units numeric, cost_value bigint, retail_value bigint,
               variants_without_cost bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.report_args(_business_id, current_date, current_date, null);
  return query
    with oh as (
      select b.store_id, b.variant_id, sum(b.qty) as qty
        from public.stock_balances b
       where b.business_id = _business_id and (_store_id is null or b.store_id = _store_id)
       group by 1, 2 having sum(b.qty) <> 0
    )
    select oh.store_id, coalesce(c.name::text, 'Uncategorised'), count(*)::bigint, sum(oh.qty),
           round(sum(oh.qty * coalesce(vc.cost, 0)))::bigint,
           round(sum(oh.qty * coalesce(sp.price, v.price)))::bigint,
           count(*) filter (where vc.variant_id is null)::bigint
      from oh
      join public.variants v on v.id = oh.variant_id
      join public.products p on p.id = v.product_id
      left join public.categories c on c.id = p.category_id
      left join public.variant_costs vc on vc.variant_id = oh.variant_id
      left join public.store_prices sp on sp.store_id = oh.store_id and sp.variant_id = oh.variant_id
     group by 1, 2
     order by 1, 2;
end;
$$;
comment on function public.report_inventory_valuation(uuid, uuid) is
  'Owners and managers only: stock on hand now per store and category, at cost and at retail, in minor units.';

-- Stock movement history per period, store and kind: how many movements, units in and out, value at the
-- recorded unit cost.
create or replace function public.report_stock_movements(_business_id uuid, _from date, _to date,
                                                         _grain text default 'day', _store_id uuid default null)
returns table (period date, store_id uuid, kind text, movements bigint, units_in numeric, units_out numeric,
               cost_value bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.report_args(_business_id, _from, _to, coalesce(_grain, 'day'));
  return query
    select date_trunc(coalesce(_grain, 'day'), (m.occurred_at at time zone st.time_zone)::date)::date, m.store_id,
           m.kind, count(*)::bigint, coalesce(sum(m.qty) filter (where m.qty > 0), 0),
           coalesce(-sum(m.qty) filter (where m.qty < 0), 0), round(sum(m.qty * coalesce(m.unit_cost, 0)))::bigint
      from public.stock_movements m
      join public.stores st on st.id = m.store_id
     where m.business_id = _business_id
       and (_store_id is null or m.store_id = _store_id)
       and m.occurred_at >= (_from::timestamp at time zone st.time_zone)
       and m.occurred_at < ((_to + 1)::timestamp at time zone st.time_zone)
     group by 1, 2, 3
     order by 1, 2, 3;
end;
$$;
comment on function public.report_stock_movements(uuid, date, date, text, uuid) is
  'Owners and managers only: ledger movements per local day/week/month, store and kind with units in, out and '
  'value at the recorded unit cost.';

-- Z reports: every shift opened in the range with its sales, tenders, refunds, cash in and out, and the cash
-- expected, counted and over (+) or short (-).
create or replace function public.report_shifts(_business_id uuid, _from date, _to date, _store_id uuid default null)
returns table (shift_id uuid, store_id uuid, register_id uuid, register_name text, cashier_id uuid, cashier_name text,
               opened_at timestamptz, closed_at timestamptz, opening_float bigint, sales_count bigint, gross bigint,
               cash bigint, card bigint, other bigint, refunds bigint, cash_refunds bigint, cash_in bigint,
               cash_out bigint, expected_cash bigint, counted_total bigint, over_short bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.report_args(_business_id, _from, _to, null);
  return query
    with sh as (
      select s.*
        from public.shifts s
        join public.stores st on st.id = s.store_id
       where s.business_id = _business_id
         and (_store_id is null or s.store_id = _store_id)
         and (s.opened_at at time zone st.time_zone)::date between _from and _to
    ),
    sa as (
      select x.shift_id, count(*)::bigint as n, sum(x.total)::bigint as gross
        from public.sales x where x.business_id = _business_id and x.shift_id in (select sh.id from sh) group by 1
    ),
    te as (
      select x.shift_id, sum(t.amount) filter (where t.kind = 'cash')::bigint as cash,
             sum(t.amount) filter (where t.kind = 'card')::bigint as card,
             sum(t.amount) filter (where t.kind = 'other')::bigint as other
        from public.sales x join public.sale_tenders t on t.sale_id = x.id and t.business_id = x.business_id
       where x.business_id = _business_id and x.shift_id in (select sh.id from sh) group by 1
    ),
    re as (
      select r.shift_id, sum(r.total)::bigint as total, sum(r.total) filter (where r.tender_kind = 'cash')::bigint as cash
        from public.refunds r where r.business_id = _business_id and r.shift_id in (select sh.id from sh) group by 1
    ),
    cm as (
      select m.shift_id, sum(m.amount) filter (where m.kind = 'in')::bigint as cash_in,
             sum(m.amount) filter (where m.kind = 'out')::bigint as cash_out
        from public.cash_movements m where m.business_id = _business_id and m.shift_id in (select sh.id from sh) group by 1
    )
    select sh.id, sh.store_id, sh.register_id, rg.name::text, sh.cashier_id,
           coalesce((select m.name from private.member_names(_business_id) m where m.user_id = sh.cashier_id), 'Former member'),
           sh.opened_at, sh.closed_at, sh.opening_float, coalesce(sa.n, 0), coalesce(sa.gross, 0), coalesce(te.cash, 0),
           coalesce(te.card, 0), coalesce(te.other, 0), coalesce(re.total, 0), coalesce(re.cash, 0),
           coalesce(cm.cash_in, 0), coalesce(cm.cash_out, 0),
           coalesce(sh.expected_cash, sh.opening_float + coalesce(te.cash, 0) - coalesce(re.cash, 0)
                                      + coalesce(cm.cash_in, 0) - coalesce(cm.cash_out, 0)),
           sh.counted_total, sh.difference
      from sh
      join public.registers rg on rg.id = sh.register_id
      left join sa on sa.shift_id = sh.id
      left join te on te.shift_id = sh.id
      left join re on re.shift_id = sh.id
      left join cm on cm.shift_id = sh.id
     order by sh.opened_at desc, rg.name;
end;
$$;
comment on function public.report_shifts(uuid, date, date, uuid) is
  'Owners and managers only: Z reports of the shifts opened in the range, with the tenders, refunds, cash in and '
  'out, expected and counted cash and the difference (over positive, short negative) as close_shift recorded it.';

-- ---------------------------------------------------------------------------------------------------
-- The dashboard's business overview (issue 14). Owners and managers: today against the same weekday last week
-- (sales net of refunds, transactions, average basket, gross profit), 30 days of sales, the top five products
-- of those 30 days (as rung up), low stock and lots expiring within 14 days. Cashiers: their own open (or last) shift only,
-- without cost or profit. _today (default: each store's own local date) fixes the day for tests.
create or replace function public.business_overview(_business_id uuid, _store_id uuid default null, _today date default null)
returns jsonb
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  v_role text := private.my_role(_business_id);
  v_today date := coalesce(_today, (select (now() at time zone coalesce(min(st.time_zone), 'UTC'))::date
                                      from public.stores st where st.business_id = _business_id
                                       and (_store_id is null or st.id = _store_id)));
  v_shift record;
  v_out jsonb;
begin
  if v_role is null or v_role not in ('owner', 'manager', 'cashier') then
    raise exception 'permission denied: your role in this business does not allow this' using errcode = '42501';
  end if;
  if v_role = 'cashier' then
    select s.id, s.store_id, s.register_id, r.name::text as register_name, s.opened_at, s.closed_at, s.opening_float
      into v_shift
      from public.shifts s join public.registers r on r.id = s.register_id
     where s.business_id = _business_id and s.cashier_id = (select auth.uid())
     order by s.closed_at is null desc, s.opened_at desc
     limit 1;
    if v_shift.id is null then
      return jsonb_build_object('role', v_role, 'shift', null);
    end if;
    return jsonb_build_object('role', v_role, 'shift', jsonb_build_object(
      'shift_id', v_shift.id, 'store_id', v_shift.store_id, 'register_name', v_shift.register_name,
      'opened_at', v_shift.opened_at, 'closed_at', v_shift.closed_at, 'opening_float', v_shift.opening_float,
      'sales_count', (select count(*) from public.sales x where x.shift_id = v_shift.id),
      'sales_total', (select coalesce(sum(x.total), 0) from public.sales x where x.shift_id = v_shift.id),
      'refunds_total', (select coalesce(sum(r.total), 0) from public.refunds r where r.shift_id = v_shift.id),
      'cash_sales', (select coalesce(sum(t.amount), 0) from public.sale_tenders t join public.sales x on x.id = t.sale_id
                      where x.shift_id = v_shift.id and t.kind = 'cash')));
  end if;

  -- Sales, refunds and receipts per day from the maintained daily summary (ADR 0143); gross profit net of
  -- refunds (tax share, restocked cost) needs the refund lines, so it comes from the line facts of the two days.
  with day_figures as (
    select d.day, sum(d.gross) as gross, sum(d.refunds) as refunds, sum(d.receipts) as transactions
      from public.sales_daily d
     where d.business_id = _business_id and (_store_id is null or d.store_id = _store_id)
       and d.day between v_today - 29 and v_today
     group by 1
  ),
  gp as (
    select f.local_day as day, sum(f.gross - f.tax) - round(sum(f.cost)) as gross_profit
      from private.report_facts(_business_id, v_today - 7, v_today, _store_id) f
     where f.local_day in (v_today, v_today - 7)
     group by 1
  ),
  pick as (
    select coalesce(d.day, gp.day) as day, coalesce(d.gross, 0) as gross, coalesce(d.refunds, 0) as refunds,
           coalesce(d.transactions, 0) as transactions, coalesce(gp.gross_profit, 0) as gross_profit
      from day_figures d full join gp on gp.day = d.day
  )
  select jsonb_build_object(
    'role', v_role,
    'today_date', v_today,
    'today', (select jsonb_build_object('sales', coalesce(p.gross - p.refunds, 0), 'refunds', coalesce(p.refunds, 0),
                                        'transactions', coalesce(p.transactions, 0),
                                        'average_basket', case when coalesce(p.transactions, 0) = 0 then 0
                                                               else round(p.gross::numeric / p.transactions) end,
                                        'gross_profit', coalesce(p.gross_profit, 0))
                from (select 1) one left join pick p on p.day = v_today),
    'last_week', (select jsonb_build_object('sales', coalesce(p.gross - p.refunds, 0), 'refunds', coalesce(p.refunds, 0),
                                            'transactions', coalesce(p.transactions, 0),
                                            'average_basket', case when coalesce(p.transactions, 0) = 0 then 0
                                                                   else round(p.gross::numeric / p.transactions) end,
                                            'gross_profit', coalesce(p.gross_profit, 0))
                    from (select 1) one left join pick p on p.day = v_today - 7),
    'daily', (select jsonb_agg(jsonb_build_object('day', g.day, 'sales', coalesce(p.gross - p.refunds, 0)) order by g.day)
                from (select v_today - 29 + k as day from generate_series(0, 29) as k) g
                left join pick p on p.day = g.day),
    -- As rung up (gross of refunds), like report_top_products, from the per-variant daily summary.
    'top_products', coalesce((select jsonb_agg(t order by t.revenue desc, t.variant_id) from (
                       select v.variant_id, max(v.description) as description, sum(v.units) as units,
                              sum(v.revenue) as revenue
                         from public.sales_daily_variant v
                        where v.business_id = _business_id and (_store_id is null or v.store_id = _store_id)
                          and v.day between v_today - 29 and v_today
                        group by v.variant_id order by 4 desc, 1 limit 5) t), '[]'::jsonb),
    'low_stock', coalesce((select jsonb_agg(t order by t.on_hand - t.reorder_point, t.sku) from (
                    select rp.store_id, rp.variant_id, v.sku, p.name as product_name, coalesce(sum(b.qty), 0) as on_hand,
                           rp.reorder_point
                      from public.reorder_points rp
                      join public.variants v on v.id = rp.variant_id
                      join public.products p on p.id = v.product_id
                      left join public.stock_balances b on b.store_id = rp.store_id and b.variant_id = rp.variant_id
                     where rp.business_id = _business_id and (_store_id is null or rp.store_id = _store_id)
                     group by rp.store_id, rp.variant_id, v.sku, p.name, rp.reorder_point
                    having coalesce(sum(b.qty), 0) <= rp.reorder_point
                     order by coalesce(sum(b.qty), 0) - rp.reorder_point, v.sku limit 8) t), '[]'::jsonb),
    'low_stock_count', (select count(*) from (
                    select 1 from public.reorder_points rp
                      left join public.stock_balances b on b.store_id = rp.store_id and b.variant_id = rp.variant_id
                     where rp.business_id = _business_id and (_store_id is null or rp.store_id = _store_id)
                     group by rp.store_id, rp.variant_id, rp.reorder_point
                    having coalesce(sum(b.qty), 0) <= rp.reorder_point) c),
    'expiring', coalesce((select jsonb_agg(t order by t.expires_on, t.lot_number) from (
                   select b.store_id, l.id as lot_id, l.lot_number, l.expires_on, p.name as product_name, b.qty
                     from public.stock_balances b
                     join public.lots l on l.id = b.lot_id
                     join public.variants v on v.id = b.variant_id
                     join public.products p on p.id = v.product_id
                    where b.business_id = _business_id and (_store_id is null or b.store_id = _store_id)
                      and b.qty > 0 and l.expires_on <= v_today + 14
                    order by l.expires_on, l.lot_number limit 8) t), '[]'::jsonb),
    'expiring_count', (select count(*) from public.stock_balances b join public.lots l on l.id = b.lot_id
                        where b.business_id = _business_id and (_store_id is null or b.store_id = _store_id)
                          and b.qty > 0 and l.expires_on <= v_today + 14)
  ) into v_out;
  return v_out;
end;
$$;
comment on function public.business_overview(uuid, uuid, date) is
  'The dashboard overview. Owners and managers (RLS limits managers to their stores): today and the same day last '
  'week, 30 days of sales net of refunds, top products, low stock and expiring lots. Cashiers: their own shift only '
  '(no cost or profit). Anyone else: 42501.';

-- ---------------------------------------------------------------------------------------------------
-- Insights inputs (ADR 0145). Daily units sold (demand, before refunds) of a store's _limit best-selling
-- variants over the range; days without a sale are absent (the client fills zeros).
create or replace function public.demand_history(_business_id uuid, _store_id uuid, _from date, _to date,
                                                 _limit int default 60)
returns table (variant_id uuid, sku text, product_name text, day date, units numeric)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.report_args(_business_id, _from, _to, null);
  if _store_id is null then
    raise exception 'choose a store' using errcode = '22023';
  end if;
  return query
    with f as (
      select f.variant_id, f.local_day, f.units from private.report_facts(_business_id, _from, _to, _store_id) f
       where f.kind = 'sale'
    ),
    top as (
      select f.variant_id from f group by 1 order by sum(f.units) desc, 1
       limit least(greatest(coalesce(_limit, 60), 1), 500)
    )
    select f.variant_id, v.sku, p.name, f.local_day, sum(f.units)
      from f
      join top on top.variant_id = f.variant_id
      join public.variants v on v.id = f.variant_id
      join public.products p on p.id = v.product_id
     group by 1, 2, 3, 4
     order by 1, 4;
end;
$$;
comment on function public.demand_history(uuid, uuid, date, date, int) is
  'Owners and managers only: daily units sold in a store of its _limit (1..500) best-selling variants, for the '
  'demand forecast.';

-- What a reorder suggestion needs per variant of a store: on hand, on order (ordered or partly received purchase
-- orders of the store), the supplier of the variant's latest purchase order line, that supplier's lead time (mean
-- days from ordered to received, 7 when never measured) and the unit cost.
create or replace function public.reorder_inputs(_business_id uuid, _store_id uuid, _variant_ids uuid[])
returns table (variant_id uuid, on_hand numeric, on_order numeric, supplier_id uuid, supplier_name text,
               lead_time_days int, lead_time_measured boolean, unit_cost bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.report_args(_business_id, current_date, current_date, null);
  if _store_id is null or _variant_ids is null or cardinality(_variant_ids) > 500 then
    raise exception 'choose a store and at most 500 variants' using errcode = '22023';
  end if;
  return query
    with ids as (select distinct x as variant_id from unnest(_variant_ids) x),
    lead as (
      select po.supplier_id, round(avg(extract(epoch from po.received_at - po.ordered_at) / 86400))::int as days
        from public.purchase_orders po
       where po.business_id = _business_id and po.ordered_at is not null and po.received_at is not null
         and po.received_at > po.ordered_at
       group by 1
    )
    select ids.variant_id,
           coalesce((select sum(b.qty) from public.stock_balances b where b.store_id = _store_id and b.variant_id = ids.variant_id), 0),
           coalesce((select sum(greatest(l.qty_ordered - l.qty_received, 0)) from public.purchase_order_lines l
                       join public.purchase_orders po on po.id = l.purchase_order_id
                      where po.store_id = _store_id and po.status in ('ordered', 'partly_received')
                        and l.variant_id = ids.variant_id), 0),
           sup.id, sup.name::text, greatest(coalesce(lead.days, 7), 1), lead.days is not null,
           coalesce(vc.cost, 0)
      from ids
      join public.variants v on v.id = ids.variant_id and v.business_id = _business_id
      left join lateral (
        select s.id, s.name from public.purchase_order_lines l
          join public.purchase_orders po on po.id = l.purchase_order_id
          join public.suppliers s on s.id = po.supplier_id and s.archived_at is null
         where l.variant_id = ids.variant_id and po.business_id = _business_id
         order by po.created_at desc limit 1) sup on true
      left join lead on lead.supplier_id = sup.id
      left join public.variant_costs vc on vc.variant_id = ids.variant_id;
end;
$$;
comment on function public.reorder_inputs(uuid, uuid, uuid[]) is
  'Owners and managers only: on hand, on order, supplier, measured lead time and unit cost of up to 500 variants '
  'in a store, for the reorder suggestions.';

-- A purchase order draft from accepted reorder suggestions, in one transaction. Security invoker: the insert
-- policies of purchase_orders and purchase_order_lines decide (owners and managers in their stores), as for a
-- draft typed in the Inventory screen; the unit cost defaults to the variant's current cost.
create or replace function public.create_reorder_purchase_order(_store_id uuid, _supplier_id uuid, _lines jsonb)
returns uuid
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_business uuid := (select s.business_id from public.stores s where s.id = _store_id);
  v_po uuid;
  v_line jsonb;
  v_n int := 0;
begin
  if v_business is null then
    raise exception 'permission denied: not a store you can use' using errcode = '42501';
  end if;
  perform private.assert_role(v_business, array['owner', 'manager']);
  if jsonb_typeof(_lines) is distinct from 'array' or jsonb_array_length(_lines) = 0 or jsonb_array_length(_lines) > 500 then
    raise exception 'choose between 1 and 500 lines' using errcode = '22023';
  end if;
  insert into public.purchase_orders (business_id, store_id, supplier_id, notes)
  values (v_business, _store_id, _supplier_id, 'Suggested by the reorder insights')
  returning id into v_po;
  for v_line in select value from jsonb_array_elements(_lines) loop
    v_n := v_n + 1;
    if jsonb_typeof(v_line -> 'qty') is distinct from 'number' or (v_line ->> 'qty')::numeric <= 0
       or coalesce(v_line ->> 'variant_id', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      raise exception 'line %: a variant and a quantity above zero', v_n using errcode = '22023';
    end if;
    insert into public.purchase_order_lines (business_id, purchase_order_id, variant_id, qty_ordered, unit_cost)
    select v_business, v_po, v.id, (v_line ->> 'qty')::numeric, coalesce(vc.cost, 0)
      from public.variants v left join public.variant_costs vc on vc.variant_id = v.id
     where v.id = (v_line ->> 'variant_id')::uuid and v.business_id = v_business;
    if not found then
      raise exception 'line %: not a product of this business', v_n using errcode = '22023';
    end if;
  end loop;
  return v_po;
exception when unique_violation then
  raise exception 'a product appears twice in the order' using errcode = '22023';
end;
$$;
comment on function public.create_reorder_purchase_order(uuid, uuid, jsonb) is
  'Owners and managers of the store (RLS and 42501): a draft purchase order with the given lines '
  '([{variant_id, qty}]), unit cost from the variant''s cost. Returns its id.';

do $$
declare
  f text;
begin
  foreach f in array array[
    'public.report_sales_by(uuid, date, date, text, uuid)',
    'public.report_sell_through(uuid, date, date, uuid, boolean, int)',
    'public.report_slow_movers(uuid, uuid, int, numeric, int)',
    'public.report_inventory_valuation(uuid, uuid)',
    'public.report_stock_movements(uuid, date, date, text, uuid)',
    'public.report_shifts(uuid, date, date, uuid)',
    'public.business_overview(uuid, uuid, date)',
    'public.demand_history(uuid, uuid, date, date, int)',
    'public.reorder_inputs(uuid, uuid, uuid[])',
    'public.create_reorder_purchase_order(uuid, uuid, jsonb)'
  ] loop
    execute format('revoke all on function %s from public, anon', f);
    execute format('grant execute on function %s to authenticated', f);
  end loop;
end;
$$;
