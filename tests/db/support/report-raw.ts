/**
 * ADR 0144's definitions of sell-through and slow movers, computed from the raw rows (the sale and refund lines and
 * the whole stock ledger) as the report functions computed them before the summaries: the report tests compare
 * report_sell_through and report_slow_movers with these, whatever path the functions take now.
 */

/**
 * report_sell_through from the raw rows, in its order, over the pairs with a stock ledger (ADR 0170). Parameters: $1 business, $2 from, $3 to (local days),
 * $4 store or null, $5 worst first, $6 limit. Columns as text, as the tests select the report's.
 */
export const rawSellThrough = `
  with f as (
    select s.store_id, l.variant_id, 'sale' as kind, (s.occurred_at at time zone st.time_zone)::date as local_day,
           l.qty as units, l.line_total as gross, l.tax_amount as tax
      from public.sales s join public.stores st on st.id = s.store_id join public.sale_lines l on l.sale_id = s.id
     where s.business_id = $1 and ($4::uuid is null or s.store_id = $4)
       and (s.occurred_at at time zone st.time_zone)::date between $2::date and $3::date
    union all
    select r.store_id, l.variant_id, 'refund', (r.occurred_at at time zone st.time_zone)::date, -x.qty, -x.amount,
           -case when l.line_total = 0 then 0 else round(x.amount::numeric * l.tax_amount / l.line_total) end::bigint
      from public.refunds r join public.stores st on st.id = r.store_id
      join public.refund_lines x on x.refund_id = r.id join public.sale_lines l on l.id = x.sale_line_id
     where r.business_id = $1 and ($4::uuid is null or r.store_id = $4)
       and (r.occurred_at at time zone st.time_zone)::date between $2::date and $3::date
  ), sold as (
    select store_id, variant_id, sum(units) as units, sum(gross - tax)::bigint as revenue,
           max(local_day) filter (where kind = 'sale') as last_day
      from f group by 1, 2
  ), stock as (
    select m.store_id, m.variant_id, sum(m.qty) as qty
      from public.stock_movements m join public.stores st on st.id = m.store_id
     where m.business_id = $1 and ($4::uuid is null or m.store_id = $4)
       and m.occurred_at < (($3::date + 1)::timestamp at time zone st.time_zone)
     group by 1, 2
  ), x as (
    select coalesce(so.store_id, sk.store_id) as store_id, coalesce(so.variant_id, sk.variant_id) as variant_id,
           coalesce(so.units, 0) as units, greatest(coalesce(sk.qty, 0), 0) as on_hand,
           coalesce(so.revenue, 0) as revenue, so.last_day
      from sold so full join stock sk on sk.store_id = so.store_id and sk.variant_id = so.variant_id
  )
  select x.store_id, x.variant_id, v.sku, x.units::text as units_sold, x.on_hand::text as on_hand_end,
         (case when x.units + x.on_hand <= 0 then null
               else round(greatest(x.units, 0) / (greatest(x.units, 0) + x.on_hand), 4) end)::text as sell_through,
         x.revenue::text as revenue, x.last_day::text as last_sold_on
    from x join public.variants v on v.id = x.variant_id
   where (x.units <> 0 or x.on_hand > 0)
     -- Only pairs with a stock record (ADR 0170): a ledger at any time.
     and exists (select 1 from public.stock_movements m where m.store_id = x.store_id and m.variant_id = x.variant_id)
   order by case when $5 then coalesce(case when x.units + x.on_hand <= 0 then null
                                           else greatest(x.units, 0) / (greatest(x.units, 0) + x.on_hand) end, 0) end asc,
            case when not $5 then case when x.units + x.on_hand <= 0 then null
                                       else greatest(x.units, 0) / (greatest(x.units, 0) + x.on_hand) end end desc nulls last,
            case when $5 then x.on_hand end desc, x.revenue desc, v.sku, x.store_id
   limit $6`;

/**
 * report_slow_movers from the raw rows, in its order, over the whole ledger of every pair on hand. Parameters:
 * $1 business, $2 store or null, $3 days, $4 limit, $5 highest sell-through. Columns as text but days_since_sale.
 */
export const rawSlowMovers = `
  with oh as (
    select b.store_id, b.variant_id, sum(b.qty) as qty from public.stock_balances b
     where b.business_id = $1 and ($2::uuid is null or b.store_id = $2) group by 1, 2 having sum(b.qty) > 0
  ), mv as (
    select oh.store_id, oh.variant_id, oh.qty,
           coalesce(-(select sum(m.qty) from public.stock_movements m
                       where m.store_id = oh.store_id and m.variant_id = oh.variant_id and m.kind in ('sale', 'refund')
                         and m.occurred_at >= ((current_date - $3::int + 1)::timestamp at time zone st.time_zone)), 0) as sold,
           ((select max(m.occurred_at) from public.stock_movements m
              where m.store_id = oh.store_id and m.variant_id = oh.variant_id and m.kind = 'sale')
             at time zone st.time_zone)::date as last_day
      from oh join public.stores st on st.id = oh.store_id
  )
  select mv.store_id, mv.variant_id, v.sku, mv.qty::text as on_hand, mv.sold::text as units_sold,
         round(greatest(mv.sold, 0) / (greatest(mv.sold, 0) + mv.qty), 4)::text as sell_through,
         mv.last_day::text as last_sold_on, (current_date - mv.last_day)::int as days_since_sale,
         round(mv.qty * coalesce(vc.cost, 0))::text as cost_value
    from mv join public.variants v on v.id = mv.variant_id left join public.variant_costs vc on vc.variant_id = mv.variant_id
   where greatest(mv.sold, 0) / (greatest(mv.sold, 0) + mv.qty) <= $5
   order by mv.sold > 0, mv.last_day nulls first, mv.qty * coalesce(vc.cost, 0) desc, v.sku, mv.store_id
   limit $4`;
