-- CSV import of products, variants, barcodes and opening stock (issue 12), all or nothing.
-- The browser parses the file (papaparse) and sends rows as JSON; this function writes them in one
-- subtransaction, collecting every row's error in plain words. A dry run, or any error, rolls the whole
-- subtransaction back, so the dry run checks exactly what the import would (SKU and barcode uniqueness,
-- check digits, quantities, the plan's product limit) and nothing is ever half-imported.
--
-- Row fields: product_name, unit (each|kg), category, brand, sku (optional: suggested), price (minor units),
-- cost (minor units, optional), barcode (optional: 8, 12 or 13 digits), opening_qty (optional, into _store_id).
-- Rows with the same product_name become variants of one product (option1 names them: option_name/option_value).
create or replace function public.import_catalog(_business_id uuid, _rows jsonb, _store_id uuid default null,
                                                 _dry_run boolean default true)
returns table (row_index int, message text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_errors jsonb := '[]';
  r record;
  v_product uuid;
  v_variant uuid;
  v_category uuid;
  v_code text;
  v_price bigint;
  v_cost bigint;
  v_qty numeric;
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if jsonb_typeof(_rows) is distinct from 'array' or jsonb_array_length(_rows) = 0 then
    raise exception 'the file has no rows' using errcode = '22023';
  end if;
  if jsonb_array_length(_rows) > 20000 then
    raise exception 'import at most 20,000 rows at once' using errcode = '22023';
  end if;
  if _store_id is not null then
    if (select private.assert_store_role(_store_id, array['owner', 'manager'])) is distinct from _business_id then
      raise exception 'the store belongs to another business' using errcode = '22023';
    end if;
  end if;
  begin
    for r in select (x.ord)::int as n, x.value as v from jsonb_array_elements(_rows) with ordinality as x (value, ord) loop
      begin
        if nullif(btrim(coalesce(r.v ->> 'product_name', '')), '') is null then
          raise exception 'the product name is missing' using errcode = '22023';
        end if;
        if coalesce(r.v ->> 'price', '') !~ '^\s*[0-9]{1,12}\s*$' then
          raise exception 'the price must be a whole number of cents, 0 or more (got "%")', coalesce(r.v ->> 'price', '');
        end if;
        v_price := (r.v ->> 'price')::bigint;
        v_cost := null;
        if nullif(btrim(coalesce(r.v ->> 'cost', '')), '') is not null then
          if (r.v ->> 'cost') !~ '^\s*[0-9]{1,12}\s*$' then
            raise exception 'the cost must be a whole number of cents, 0 or more (got "%")', r.v ->> 'cost';
          end if;
          v_cost := (r.v ->> 'cost')::bigint;
        end if;
        if coalesce(nullif(btrim(r.v ->> 'unit'), ''), 'each') not in ('each', 'kg') then
          raise exception 'the unit must be "each" or "kg" (got "%")', r.v ->> 'unit';
        end if;
        v_category := null;
        if nullif(btrim(coalesce(r.v ->> 'category', '')), '') is not null then
          insert into public.categories (business_id, name) values (_business_id, btrim(r.v ->> 'category'))
          on conflict (business_id, name) do nothing;
          select c.id into v_category from public.categories c
           where c.business_id = _business_id and c.name = btrim(r.v ->> 'category');
        end if;
        select p.id into v_product from public.products p
         where p.business_id = _business_id and p.name = btrim(r.v ->> 'product_name') and p.archived_at is null
         order by p.created_at limit 1;
        if v_product is null then
          insert into public.products (business_id, name, category_id, brand, unit, option1_name)
          values (_business_id, btrim(r.v ->> 'product_name'), v_category, nullif(btrim(coalesce(r.v ->> 'brand', '')), ''),
                  coalesce(nullif(btrim(r.v ->> 'unit'), ''), 'each'), nullif(btrim(coalesce(r.v ->> 'option_name', '')), ''))
          returning id into v_product;
        end if;
        insert into public.variants (business_id, product_id, sku, price, option1)
        values (_business_id, v_product, coalesce(r.v ->> 'sku', ''), v_price,
                nullif(btrim(coalesce(r.v ->> 'option_value', '')), ''))
        returning id into v_variant;
        if v_cost is not null then
          insert into public.variant_costs (variant_id, business_id, cost) values (v_variant, _business_id, v_cost);
        end if;
        v_code := nullif(btrim(coalesce(r.v ->> 'barcode', '')), '');
        if v_code is not null then
          if v_code !~ '^([0-9]{8}|[0-9]{12}|[0-9]{13})$' then
            raise exception 'the barcode "%" is not 8, 12 or 13 digits', v_code;
          end if;
          insert into public.barcodes (business_id, variant_id, code, kind)
          values (_business_id, v_variant, v_code,
                  case length(v_code) when 8 then 'ean8' when 12 then 'upca'
                       else case when left(v_code, 1) = '2' then 'internal' else 'ean13' end end);
        end if;
        if nullif(btrim(coalesce(r.v ->> 'opening_qty', '')), '') is not null then
          if _store_id is null then
            raise exception 'choose a store for the opening stock';
          end if;
          if (r.v ->> 'opening_qty') !~ '^\s*[0-9]{1,9}(\.[0-9]+)?\s*$' then
            raise exception 'the opening quantity must be a number, 0 or more (got "%")', r.v ->> 'opening_qty';
          end if;
          v_qty := (r.v ->> 'opening_qty')::numeric;
          if v_qty > 0 then
            perform private.apply_movement(_business_id, _store_id, v_variant, null, 'opening', v_qty, null, v_cost,
                                           null, 'import', null, null);
          end if;
        end if;
      exception
        when unique_violation then
          v_errors := v_errors || jsonb_build_object('row', r.n, 'message',
            case when sqlerrm like '%barcodes%' then 'this barcode is already used in the business'
                 else 'this SKU is already used in the business' end);
        when check_violation then
          v_errors := v_errors || jsonb_build_object('row', r.n, 'message',
            case when sqlerrm like '%barcodes_check_digit%' then 'the barcode''s check digit is wrong'
                 when sqlerrm like '%sku%' then 'the SKU may hold only letters, digits, dots, dashes and slashes (40 at most)'
                 else 'a value is out of range: ' || sqlerrm end);
        when others then
          v_errors := v_errors || jsonb_build_object('row', r.n, 'message', sqlerrm);
      end;
    end loop;
    if _dry_run or jsonb_array_length(v_errors) > 0 then
      -- Roll back everything this block wrote; the outer handler returns the errors.
      raise exception 'storewise-import-rollback' using errcode = 'SW002';
    end if;
  exception
    when sqlstate 'SW002' then
      null;
  end;
  return query select (e ->> 'row')::int, e ->> 'message' from jsonb_array_elements(v_errors) e order by 1;
end;
$$;
comment on function public.import_catalog(uuid, jsonb, uuid, boolean) is
  'Owners and managers import catalog rows all or nothing; returns each failing row''s message (none: imported, '
  'or a clean dry run).';
revoke all on function public.import_catalog(uuid, jsonb, uuid, boolean) from public, anon;
grant execute on function public.import_catalog(uuid, jsonb, uuid, boolean) to authenticated;
