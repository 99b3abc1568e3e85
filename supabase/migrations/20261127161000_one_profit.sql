-- One profit on every screen (issue 25, ADR 0172). The same day showed profit 9.20 on the Sales report and Products
-- and 8.70 on Breakdown and the Overview: report_profit and report_top_products counted sales only, the others netted
-- refunds. One definition now, the one report_sales_by and the Overview already used:
--   net sales    = what customers paid less tax, discounts and refunds (a refund's tax share given back);
--   gross profit = net sales less the cost of what was sold, a restocked refund's cost given back (a damaged one's
--                  cost stays a loss), refunds counted on the day they happened.
-- report_profit reads the 'store' rows of sales_daily_breakdown (the Breakdown's own summary, so the two agree by
-- construction); report_top_products nets each listed item's refunds in the range (at most 100 items a page).

create or replace function public.report_profit(_business_id uuid, _from date, _to date, _grain text default 'day',
                                                _store_id uuid default null)
returns table (period date, store_id uuid, revenue bigint, cost bigint, profit bigint, margin numeric,
               lines_without_cost bigint)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
as $$
begin
  perform private.report_args(_business_id, _from, _to, _grain);
  return query
    with b as (
      select date_trunc(_grain, d.day)::date as period, d.store_id,
             (sum(d.gross) - sum(d.refunds) - sum(d.tax))::bigint as revenue, sum(d.cost)::bigint as cost
        from public.sales_daily_breakdown d
       where d.business_id = _business_id and d.dimension = 'store'
         and (_store_id is null or d.store_id = _store_id)
         and d.day between _from and _to
       group by 1, 2
    ), m as (
      select date_trunc(_grain, d.day)::date as period, d.store_id, sum(d.lines_without_cost)::bigint as missing
        from public.sales_daily d
       where d.business_id = _business_id
         and (_store_id is null or d.store_id = _store_id)
         and d.day between _from and _to
       group by 1, 2
    )
    select b.period, b.store_id, b.revenue, b.cost, b.revenue - b.cost,
           case when b.revenue = 0 then null else round((b.revenue - b.cost)::numeric / b.revenue, 4) end,
           coalesce(m.missing, 0)
      from b left join m on m.period = b.period and m.store_id = b.store_id
     order by 1, 2;
end;
$$;
comment on function public.report_profit(uuid,date,date,text,uuid) is 'Owners and managers only (42501 otherwise): net sales (revenue less tax, discounts and refunds), cost (less restocked refunds), gross profit and margin per period and store, refunds on the day they happened: the figures of report_sales_by and the Overview (ADR 0172). lines_without_cost counts lines sold without a recorded cost (counted at 0).';

-- The refunds in the range of the listed items: units back, net sales given back (amount less its tax share) and
-- cost given back (restocked lines), as the breakdown summary counts them.
create or replace function private.variant_refunds(_business_id uuid, _from date, _to date, _store_id uuid,
                                                   _variant_ids uuid[])
returns table (variant_id uuid, units numeric, revenue numeric, cost numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  select l.variant_id, sum(rl.qty),
         sum(rl.amount - case when l.line_total = 0 then 0 else round(rl.amount::numeric * l.tax_amount / l.line_total) end),
         sum(case when rl.disposition = 'restock' then round(rl.qty * coalesce(c.unit_cost, 0)) else 0 end)
    from public.stores st
    join public.refunds r on r.store_id = st.id and r.business_id = _business_id
                         and r.occurred_at >= (_from::timestamp at time zone st.time_zone) - interval '2 hours'
                         and r.occurred_at < ((_to + 1)::timestamp at time zone st.time_zone) + interval '2 hours'
                         and (r.occurred_at at time zone st.time_zone)::date between _from and _to
    join public.refund_lines rl on rl.refund_id = r.id and rl.business_id = r.business_id
    join public.sale_lines l on l.id = rl.sale_line_id and l.business_id = rl.business_id
    left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
   where st.business_id = _business_id and (_store_id is null or st.id = _store_id)
     and l.variant_id = any (_variant_ids)
   group by l.variant_id;
$$;
revoke all on function private.variant_refunds(uuid, date, date, uuid, uuid[]) from public, anon;
grant execute on function private.variant_refunds(uuid, date, date, uuid, uuid[]) to authenticated;
comment on function private.variant_refunds(uuid, date, date, uuid, uuid[]) is
  'Refunds in a range of some items: units, net sales and restocked cost given back (report_top_products, ADR 0172).';

create or replace function public.report_top_products(_business_id uuid, _from date, _to date,
                                                      _store_id uuid default null, _worst boolean default false,
                                                      _limit int default 10)
returns table (variant_id uuid, description text, units numeric, revenue bigint, profit bigint)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
as $$
#variable_conflict use_column
declare
  v_limit int := least(greatest(coalesce(_limit, 10), 1), 100);
begin
  perform private.report_args(_business_id, _from, _to, null);
  return query
    with ranked as materialized (
      select t.variant_id, t.revenue, t.units, t.cost, false as unsold, t.n
        from private.top_sellers(_business_id, _from, _to, _store_id, v_limit)
             with ordinality as t (variant_id, revenue, units, cost, n)
       where not coalesce(_worst, false)
      union all
      select w.variant_id, w.revenue, w.units, w.cost, w.unsold, w.n
        from private.worst_sellers(_business_id, _from, _to, _store_id, v_limit)
             with ordinality as w (variant_id, revenue, units, cost, unsold, n)
       where coalesce(_worst, false)
    ), back as (
      select b.* from private.variant_refunds(_business_id, _from, _to, _store_id,
                                              (select array_agg(r.variant_id) from ranked r)) b
    )
    select r.variant_id,
           case when r.unsold then (select p.name || coalesce(' ' || concat_ws(' / ', v.option1, v.option2, v.option3), '')
                                      from public.variants v join public.products p on p.id = v.product_id
                                     where v.id = r.variant_id)
                else (select d.description from public.sales_daily_variant d
                       where d.variant_id = r.variant_id and d.business_id = _business_id
                         and (_store_id is null or d.store_id = _store_id) and d.day between _from and _to
                       order by d.day desc, d.description desc limit 1) end,
           r.units - coalesce(b.units, 0),
           (r.revenue - coalesce(b.revenue, 0))::bigint,
           ((r.revenue - coalesce(b.revenue, 0)) - (round(r.cost) - coalesce(b.cost, 0)))::bigint
      from ranked r
      left join back b on b.variant_id = r.variant_id
     order by r.n;
end;
$$;
comment on function public.report_top_products(uuid,date,date,uuid,boolean,integer) is 'Owners and managers only (42501 otherwise): the variants sold in the range, best (or worst, _worst) first by sales revenue net of tax, with units, net sales and gross profit net of the refunds of the range (ADR 0172); limit 1..100. Variants that did not sell at all are not listed.';
