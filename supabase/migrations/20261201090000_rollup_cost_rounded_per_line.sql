-- One profit, to the cent (ADR 0172): the daily and monthly rollups summed cost unrounded (qty x unit cost of a
-- weighed line has fractions of a cent), and the Products report rounded once per item, while the Sales report,
-- Breakdown and Overview round cost per line. On a day with fractional-cost lines the two could differ by a cent.
-- The rollups now sum the cost of each line rounded to the minor unit, as every other figure does; existing rows
-- are rebuilt.

create or replace function private.sales_summaries_costs_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.sales_daily as d (business_id, store_id, day, cost, lines_without_cost)
  select s.business_id, s.store_id, (s.occurred_at at time zone st.time_zone)::date, sum(round(l.qty * n.unit_cost)), -count(*)
    from new_rows n
    join public.sale_lines l on l.id = n.sale_line_id and l.business_id = n.business_id
    join public.sales s on s.id = l.sale_id
    join public.stores st on st.id = s.store_id
   group by 1, 2, 3
  on conflict (store_id, day) do update
    set cost = d.cost + excluded.cost, lines_without_cost = d.lines_without_cost + excluded.lines_without_cost;
  insert into public.sales_daily_variant as d (business_id, store_id, day, variant_id, description, cost,
                                               lines_without_cost)
  select s.business_id, s.store_id, (s.occurred_at at time zone st.time_zone)::date, l.variant_id, max(l.description),
         sum(round(l.qty * n.unit_cost)), -count(*)
    from new_rows n
    join public.sale_lines l on l.id = n.sale_line_id and l.business_id = n.business_id
    join public.sales s on s.id = l.sale_id
    join public.stores st on st.id = s.store_id
   group by 1, 2, 3, 4
  on conflict (store_id, day, variant_id) do update
    set cost = d.cost + excluded.cost, lines_without_cost = d.lines_without_cost + excluded.lines_without_cost;
  return null;
end;
$$;
revoke all on function private.sales_summaries_costs_inserted() from public;

create or replace function private.compute_sales_summaries_daily(_business_id uuid, _stores uuid[] default null,
                                                           _days date[] default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if _stores is null then
    delete from public.sales_daily d where d.business_id = _business_id;
    delete from public.sales_daily_tax d where d.business_id = _business_id;
    delete from public.sales_daily_variant d where d.business_id = _business_id;
  else
    delete from public.sales_daily d using unnest(_stores, _days) as k (store_id, day)
     where d.store_id = k.store_id and d.day = k.day;
    delete from public.sales_daily_tax d using unnest(_stores, _days) as k (store_id, day)
     where d.store_id = k.store_id and d.day = k.day;
    delete from public.sales_daily_variant d using unnest(_stores, _days) as k (store_id, day)
     where d.store_id = k.store_id and d.day = k.day;
  end if;

  insert into public.sales_daily (business_id, store_id, day, receipts, gross, discounts, tax)
  select x.business_id, x.store_id, x.day, count(*), sum(s.total), sum(s.discount_total), sum(s.tax_total)
    from private.sales_summary_scope(_business_id, _stores, _days) x join public.sales s on s.id = x.sale_id
   group by 1, 2, 3;
  insert into public.sales_daily as d (business_id, store_id, day, lines, units, revenue, cost, lines_without_cost)
  select x.business_id, x.store_id, x.day, count(*), sum(l.qty), sum(l.line_total - l.tax_amount),
         sum(round(l.qty * coalesce(c.unit_cost, 0))), count(*) filter (where c.sale_line_id is null)
    from private.sales_summary_scope(_business_id, _stores, _days) x
    join public.sale_lines l on l.sale_id = x.sale_id and l.business_id = x.business_id
    left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
   group by 1, 2, 3
  on conflict (store_id, day) do update
    set lines = excluded.lines, units = excluded.units, revenue = excluded.revenue, cost = excluded.cost,
        lines_without_cost = excluded.lines_without_cost;
  insert into public.sales_daily_tax (business_id, store_id, day, tax_rate, lines, taxable, tax)
  select x.business_id, x.store_id, x.day, l.tax_rate, count(*), sum(l.line_total - l.tax_amount), sum(l.tax_amount)
    from private.sales_summary_scope(_business_id, _stores, _days) x
    join public.sale_lines l on l.sale_id = x.sale_id and l.business_id = x.business_id
   group by 1, 2, 3, 4;
  insert into public.sales_daily_variant (business_id, store_id, day, variant_id, description, lines, units, revenue,
                                          cost, lines_without_cost)
  select x.business_id, x.store_id, x.day, l.variant_id, max(l.description), count(*), sum(l.qty),
         sum(l.line_total - l.tax_amount), sum(round(l.qty * coalesce(c.unit_cost, 0))),
         count(*) filter (where c.sale_line_id is null)
    from private.sales_summary_scope(_business_id, _stores, _days) x
    join public.sale_lines l on l.sale_id = x.sale_id and l.business_id = x.business_id
    left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
   group by 1, 2, 3, 4;

  -- Refunds on their own day.
  insert into public.sales_daily as d (business_id, store_id, day, refunds, refund_count)
  select r.business_id, r.store_id, (r.occurred_at at time zone st.time_zone)::date, sum(r.total), count(*)
    from public.refunds r join public.stores st on st.id = r.store_id
   where (_stores is null and r.business_id = _business_id)
      or (_stores is not null and exists (
            select 1 from unnest(_stores, _days) as k (store_id, day)
             where k.store_id = r.store_id
               and r.occurred_at >= (k.day::timestamp at time zone st.time_zone)
               and r.occurred_at < ((k.day + 1)::timestamp at time zone st.time_zone)))
   group by 1, 2, 3
  on conflict (store_id, day) do update set refunds = excluded.refunds, refund_count = excluded.refund_count;
end;
$$;
revoke all on function private.compute_sales_summaries_daily(uuid,uuid[],date[]) from public;

-- Rebuild what is already summed (the monthly rollups follow by their triggers on sales_daily_variant).
select private.compute_sales_summaries(b.id) from public.businesses b;
