-- The exact totals of a manager's candidates read only the manager's stores (issue 32, ADR 0438).
--
-- private.seller_totals sums each candidate's rows per store when the all-stores table does not serve the caller.
-- It left the stores to row level security, so for a manager of 2 stores out of 100 each check read every store's
-- months and days of the variant from the (variant, month) and (variant, day) indexes, and the policy dropped 98 of
-- every 100 rows: "manager (2 stores): top 10 products, a year" took 250 ms at 10,000,000 sale lines. The stores the
-- caller reads as owner or manager are now named in the query (private.stock_pair_stores), so each check is an index
-- range on (variant, store, month) and (store, variant, day). Callers who read every store and asked for none keep
-- the variant's ranges over all stores. Row level security still applies.

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
  -- The stores to read: null for a caller who reads every store and gave none, else those the caller reads.
  v_stores uuid[] := case when _store_id is null and _business_id in (select private.my_full_access_business_ids())
                          then null else private.stock_pair_stores(_business_id, _store_id) end;
begin
  if v_first >= v_after then
    v_first := _to + 1;
    v_after := _to + 1;
  end if;
  -- Per variant (a lateral join): each part is an index range on (variant, month), (variant, store, month),
  -- (variant, day) or (store, variant, day), whatever the number of variants (a plan over the whole table would
  -- evaluate the policy on every row).
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
           and (v_stores is null or m.store_id = any (v_stores))
           and m.month >= v_first and m.month < v_after
        union all
        select d.revenue, d.units, d.cost
          from public.sales_daily_variant d
         where d.variant_id = v.id and d.business_id = _business_id
           and (v_stores is null or d.store_id = any (v_stores))
           and d.day >= _from and d.day < v_first
        union all
        select d.revenue, d.units, d.cost
          from public.sales_daily_variant d
         where d.variant_id = v.id and d.business_id = _business_id
           and (v_stores is null or d.store_id = any (v_stores))
           and d.day >= greatest(_from, v_after) and d.day <= _to
      ) x
     group by v.id;
end;
$$;
