-- The breakdowns of report_sales_by (by store, staff member and category) read every sale and refund of the
-- business: a local day ((occurred_at at time zone store's zone)::date) cannot use an index, so 30 days cost what
-- the whole history costs (ADR 0151 measured 1.1 s and more at 200,000 lines). report_facts now also bounds
-- occurred_at by a UTC range that surely holds every local day of the range (time zones span UTC-12 to UTC+14),
-- which the (business_id, occurred_at) and (store_id, business_id, occurred_at) indexes serve; the exact local-day
-- test stays. Each line's cost is rounded to minor units here, once, so every breakdown of the same range adds up
-- to the same total (rounding each group's summed cost made categories and stores differ by a unit now and then).

-- The first instant (UTC) that can fall on local day _from anywhere, with a day to spare.
create or replace function private.report_utc_lower(_from date)
returns timestamptz
language sql
immutable
set search_path = ''
as $$ select ((_from - 2)::timestamp at time zone 'UTC') $$;

-- An instant (UTC) after every instant of local day _to anywhere, with a day to spare.
create or replace function private.report_utc_upper(_to date)
returns timestamptz
language sql
immutable
set search_path = ''
as $$ select ((_to + 3)::timestamp at time zone 'UTC') $$;

revoke all on function private.report_utc_lower(date), private.report_utc_upper(date) from public, anon;
grant execute on function private.report_utc_lower(date), private.report_utc_upper(date) to authenticated;

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
         round(l.qty * coalesce(c.unit_cost, 0))
    from public.sales s
    join public.stores st on st.id = s.store_id
    join public.sale_lines l on l.sale_id = s.id and l.business_id = s.business_id
    left join public.variants v on v.id = l.variant_id
    left join public.products p on p.id = v.product_id
    left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
   where s.business_id = _business_id
     and (_store_id is null or s.store_id = _store_id)
     and s.occurred_at >= private.report_utc_lower(_from) and s.occurred_at < private.report_utc_upper(_to)
     and (s.occurred_at at time zone st.time_zone)::date between _from and _to
  union all
  select 'refund', r.sale_id, r.store_id, r.actor_id, p.category_id, l.variant_id, l.description,
         (r.occurred_at at time zone st.time_zone)::date, -rl.qty, -rl.amount,
         -case when l.line_total = 0 then 0 else round(rl.amount::numeric * l.tax_amount / l.line_total) end::bigint,
         -case when rl.disposition = 'restock' then round(rl.qty * coalesce(c.unit_cost, 0)) else 0 end
    from public.refunds r
    join public.stores st on st.id = r.store_id
    join public.refund_lines rl on rl.refund_id = r.id and rl.business_id = r.business_id
    join public.sale_lines l on l.id = rl.sale_line_id and l.business_id = rl.business_id
    left join public.variants v on v.id = l.variant_id
    left join public.products p on p.id = v.product_id
    left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
   where r.business_id = _business_id
     and (_store_id is null or r.store_id = _store_id)
     and r.occurred_at >= private.report_utc_lower(_from) and r.occurred_at < private.report_utc_upper(_to)
     and (r.occurred_at at time zone st.time_zone)::date between _from and _to;
$$;
