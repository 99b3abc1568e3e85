-- The export's CSV pages compared and sorted the keys as text (x.id::text > _after order by x.id::text), which no
-- index serves: every page read and sorted the whole business's rows (review of 20261202170000). They page on the
-- real keys now, the primary keys' order: v.id > _after::uuid order by v.id; the stock by (store_id, variant_id).
-- The same rows in the same order (a uuid's text is its bytes in hex, fixed-width, so both orders agree) and the
-- same "key" in each row; an _after that is not such a key is refused (22023) instead of compared as text.
-- business_export_csv_rows as in the schema otherwise.

create or replace function public.business_export_csv_rows(_export_id uuid, _file text, _after text default null,
                                                           _limit integer default 1000)
returns setof jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_key constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  v_pair constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  v_business uuid;
  v_first_store uuid;
  v_catalog_currency text;
begin
  if _limit is null or _limit not between 1 and 5000 then
    raise exception 'limit must be between 1 and 5000' using errcode = '22023';
  end if;
  select e.business_id into v_business from private.business_exports e where e.id = _export_id and e.state = 'building';
  if v_business is null then
    raise exception 'no export being built with this id' using errcode = 'P0002';
  end if;
  -- The key the previous page ended on, as each row carries it: a uuid, or the stock's store/variant pair.
  if _after is not null and not ((_file = 'stock' and _after ~ v_pair) or (_file <> 'stock' and _after ~ v_key)) then
    raise exception 'after is the key of the previous page''s last row' using errcode = '22023';
  end if;
  if _file = 'products' then
    select s.id into v_first_store from public.stores s
     where s.business_id = v_business and s.archived_at is null order by s.created_at, s.id limit 1;
    -- The import reads prices in the stores' one currency (two decimals when they differ), as the screens do.
    select case when count(distinct upper(s.currency)) = 1 then min(s.currency) end into v_catalog_currency
      from public.stores s where s.business_id = v_business and s.archived_at is null;
    return query
      select jsonb_build_object(
               'key', v.id::text, 'product_name', p.name, 'unit', p.unit, 'category', coalesce(c.name, ''),
               'brand', coalesce(p.brand, ''), 'option_name', concat_ws(' / ', p.option1_name, p.option2_name, p.option3_name),
               'option_value', concat_ws(' / ', v.option1, v.option2, v.option3), 'sku', v.sku, 'price', private.minor_to_plain(v.price, v_catalog_currency),
               'cost', coalesce(private.minor_to_plain(vc.cost, v_catalog_currency), ''),
               'barcode', coalesce((select b.code from public.barcodes b where b.variant_id = v.id order by b.created_at, b.code limit 1), ''),
               'opening_qty', coalesce((select nullif(greatest(sum(sb.qty), 0), 0)::text from public.stock_balances sb
                                         where sb.variant_id = v.id and sb.store_id = v_first_store), ''))
        from public.variants v
        join public.products p on p.id = v.product_id and p.archived_at is null
        left join public.categories c on c.id = p.category_id
        left join public.variant_costs vc on vc.variant_id = v.id
       where v.business_id = v_business and v.archived_at is null and (_after is null or v.id > _after::uuid)
       order by v.id
       limit _limit;
  elsif _file = 'stock' then
    return query
      select jsonb_build_object(
               'key', x.store_id::text || '/' || x.variant_id::text, 'store', s.name, 'sku', v.sku, 'product_name', p.name,
               'variant', concat_ws(' / ', v.option1, v.option2, v.option3), 'unit', p.unit, 'on_hand', x.qty,
               'reorder_point', coalesce(rp.reorder_point::text, ''), 'target_level', coalesce(rp.target_level::text, ''))
        from (select sb.store_id, sb.variant_id, sum(sb.qty) as qty from public.stock_balances sb
               where sb.business_id = v_business
                 and (_after is null or (sb.store_id, sb.variant_id)
                                         > (split_part(_after, '/', 1)::uuid, split_part(_after, '/', 2)::uuid))
               group by sb.store_id, sb.variant_id) x
        join public.stores s on s.id = x.store_id
        join public.variants v on v.id = x.variant_id
        join public.products p on p.id = v.product_id
        left join public.reorder_points rp on rp.store_id = x.store_id and rp.variant_id = x.variant_id
       order by x.store_id, x.variant_id
       limit _limit;
  elsif _file = 'sales' then
    return query
      select jsonb_build_object(
               'key', sa.id::text, 'receipt_number', sa.receipt_number, 'occurred_at', sa.occurred_at, 'store', st.name,
               'customer', coalesce(cu.name, ''), 'currency', sa.currency, 'subtotal', private.minor_to_plain(sa.subtotal, sa.currency),
               'discount_total', private.minor_to_plain(sa.discount_total, sa.currency), 'tax_total', private.minor_to_plain(sa.tax_total, sa.currency), 'cash_rounding', private.minor_to_plain(sa.cash_rounding, sa.currency),
               'total', private.minor_to_plain(sa.total, sa.currency), 'tendered_total', private.minor_to_plain(sa.tendered_total, sa.currency), 'change_total', private.minor_to_plain(sa.change_total, sa.currency))
        from public.sales sa
        join public.stores st on st.id = sa.store_id
        left join public.customers cu on cu.id = sa.customer_id
       where sa.business_id = v_business and (_after is null or sa.id > _after::uuid)
       order by sa.id
       limit _limit;
  elsif _file = 'customers' then
    return query
      select jsonb_build_object('key', cu.id::text, 'name', cu.name, 'email', coalesce(cu.email::text, ''),
                                'phone', coalesce(cu.phone::text, ''))
        from public.customers cu
       where cu.business_id = v_business and (_after is null or cu.id > _after::uuid)
       order by cu.id
       limit _limit;
  else
    raise exception 'the export''s CSV files are products, stock, sales and customers' using errcode = '22023';
  end if;
end;
$$;
revoke all on function public.business_export_csv_rows(uuid, text, text, integer) from public;
grant execute on function public.business_export_csv_rows(uuid, text, text, integer) to service_role;
