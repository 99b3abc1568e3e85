-- Products nets every refund of the range (ADR 0172). It listed only the items sold in the range, so a refund today of
-- an item sold on an earlier day (and not today) was missing from Products while the Sales report, the Breakdown and
-- the Overview counted it: found by CI when the demo's refunds fell on such a day. When the best-first list is not full
-- (every item sold in the range is on it), the items only refunded in the range follow it, with negative units and net
-- sales, least negative first, up to the limit. The worst-first list already shows them: an item on sale that did not
-- sell in the range is listed first, and its refunds are netted.

-- _variant_ids null: every item refunded in the range.
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
     and (_variant_ids is null or l.variant_id = any (_variant_ids))
   group by l.variant_id;
$$;
comment on function private.variant_refunds(uuid,date,date,uuid,uuid[]) is 'Refunds in a range of some items (all items when _variant_ids is null): units, net sales and restocked cost given back (report_top_products, ADR 0172).';

-- An item's name as the catalog says it today, for items without a sale line in the range to take it from.
create or replace function private.variant_description(_variant_id uuid)
returns text
language sql
stable
security invoker
set search_path = ''
as $$
  select p.name || coalesce(' ' || nullif(concat_ws(' / ', v.option1, v.option2, v.option3), ''), '')
    from public.variants v join public.products p on p.id = v.product_id
   where v.id = _variant_id;
$$;
comment on function private.variant_description(uuid) is 'An item''s name and options as the catalog says today (report_top_products, for items without a sale line in the range).';
revoke all on function private.variant_description(uuid) from public;
grant execute on function private.variant_description(uuid) to authenticated;

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
  v_listed int;
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
                                              coalesce((select array_agg(r.variant_id) from ranked r), '{}')) b
    )
    select r.variant_id,
           case when r.unsold then private.variant_description(r.variant_id)
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
  get diagnostics v_listed = row_count;
  if coalesce(_worst, false) or v_listed >= v_limit then
    return;
  end if;
  -- The list holds every item sold in the range; the items only refunded in it follow.
  return query
    select b.variant_id, private.variant_description(b.variant_id), -b.units, (-b.revenue)::bigint,
           (-b.revenue + b.cost)::bigint
      from private.variant_refunds(_business_id, _from, _to, _store_id, null) b
     where not exists (select from public.sales_daily_variant d
                        where d.variant_id = b.variant_id and d.business_id = _business_id
                          and (_store_id is null or d.store_id = _store_id) and d.day between _from and _to)
     order by -b.revenue desc, b.variant_id
     limit v_limit - v_listed;
end;
$$;
comment on function public.report_top_products(uuid,date,date,uuid,boolean,integer) is 'Owners and managers only (42501 otherwise): the variants sold in the range, best (or worst, _worst) first by sales revenue net of tax, with units, net sales and gross profit net of the refunds of the range (ADR 0172); limit 1..100. When the best-first list has room, the items only refunded in the range follow it with negative figures. Worst first lists items on sale that did not sell first.';
