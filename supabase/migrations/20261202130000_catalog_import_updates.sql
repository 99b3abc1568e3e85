-- Issue 25: the catalog import updates existing items by SKU (docs/adr/0310).
-- * A row whose SKU is an unarchived item of the business updates it: price, cost, product name, category, brand,
--   barcode and (for a product with one option) the option value. Empty cells leave a value as it is, so the
--   catalog's own export (which leaves cost out for a cashier) re-imports as "nothing changes".
-- * private.catalog_import_changes is the one place that compares a row with the item (old -> new): the preview
--   (public.preview_catalog_import) shows it, the import applies it, both through it.
-- * The check no longer refuses every row past the plan's limit: the preview counts the file's new items against
--   the plan's room, so the browser says it once ("your plan allows 99 more items; this file adds 150") and offers
--   the rows that fit. The variants_plan_limit trigger still refuses a write past the limit.
-- * Updates go through the same audited triggers as every catalog change (audit_product, audit_variant,
--   audit_variant_cost, audit_barcode).

-- The changes a row makes to the existing item with its SKU (rows without such an item are not returned). Money in
-- minor units; a cell that is empty or malformed changes nothing here (the check names it).
create or replace function private.catalog_import_changes(_business_id uuid, _rows jsonb, _first_row int)
returns table (row_index int, variant_id uuid, product_id uuid, changes jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  with r as (
    select (x.ord)::int + _first_row - 1 as n,
           nullif(btrim(coalesce(x.value ->> 'product_name', '')), '') as name,
           upper(nullif(btrim(coalesce(x.value ->> 'sku', '')), '')) as sku,
           nullif(btrim(coalesce(x.value ->> 'barcode', '')), '') as code,
           nullif(btrim(coalesce(x.value ->> 'price', '')), '') as price,
           nullif(btrim(coalesce(x.value ->> 'cost', '')), '') as cost,
           nullif(btrim(coalesce(x.value ->> 'category', '')), '') as category,
           nullif(btrim(coalesce(x.value ->> 'brand', '')), '') as brand,
           nullif(btrim(coalesce(x.value ->> 'option_value', '')), '') as option_value
      from jsonb_array_elements(_rows) with ordinality as x (value, ord)
  )
  select r.n, v.id, p.id,
         (select coalesce(jsonb_object_agg(c.field, c.change), '{}'::jsonb)
            from (values
              ('product_name', case when r.name is not null and r.name <> p.name
                                    then jsonb_build_object('old', p.name, 'new', r.name) end),
              ('category', case when r.category is not null and r.category is distinct from cat.name
                                then jsonb_build_object('old', cat.name, 'new', r.category) end),
              ('brand', case when r.brand is not null and r.brand is distinct from p.brand
                             then jsonb_build_object('old', p.brand, 'new', r.brand) end),
              ('price', case when r.price ~ '^[0-9]{1,12}$' and r.price::bigint <> v.price
                             then jsonb_build_object('old', v.price, 'new', r.price::bigint) end),
              ('cost', case when r.cost ~ '^[0-9]{1,12}$' and r.cost::bigint is distinct from vc.cost
                            then jsonb_build_object('old', vc.cost, 'new', r.cost::bigint) end),
              ('barcode', case when r.code ~ '^([0-9]{8}|[0-9]{12}|[0-9]{13})$'
                                    and not exists (select 1 from public.barcodes b where b.variant_id = v.id and b.code = r.code)
                               then jsonb_build_object('old', fb.code, 'new', r.code, 'id', fb.id) end),
              ('option_value', case when r.option_value is not null and p.option1_name is not null and p.option2_name is null
                                         and r.option_value is distinct from v.option1
                                    then jsonb_build_object('old', v.option1, 'new', r.option_value) end)
            ) as c (field, change)
           where c.change is not null)
    from r
    join public.variants v on v.business_id = _business_id and v.sku = r.sku and v.archived_at is null
    join public.products p on p.id = v.product_id and p.archived_at is null
    left join public.categories cat on cat.id = p.category_id
    left join public.variant_costs vc on vc.variant_id = v.id
    left join lateral (select b.id, b.code from public.barcodes b where b.variant_id = v.id
                        order by b.created_at, b.code limit 1) fb on true
   where r.sku is not null;
$$;
comment on function private.catalog_import_changes(uuid,jsonb,integer) is 'For each catalog-import row whose SKU is an unarchived item of the business: the item and what the row changes ({field: {old, new}}, money in minor units; barcode also names the replaced barcode row). Read by public.preview_catalog_import and applied by public.import_catalog.';
revoke all on function private.catalog_import_changes(uuid,jsonb,integer) from public;

-- What a part of a catalog file would do, for the preview: each row's action (new item, update, unchanged) with
-- its changes, and the plan's room for new items. Writes nothing. Owners and managers; at most 500 rows.
create or replace function public.preview_catalog_import(_business_id uuid, _rows jsonb, _first_row int default 1)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_limits record;
  v_used bigint;
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if jsonb_typeof(_rows) is distinct from 'array' or jsonb_array_length(_rows) = 0 then
    raise exception 'the file has no rows' using errcode = '22023';
  end if;
  if jsonb_array_length(_rows) > 500 then
    raise exception 'preview at most 500 rows in one call: send the file in parts' using errcode = '22023';
  end if;
  if _first_row is null or _first_row < 1 or _first_row > 1000000 then
    raise exception 'the first row number must be between 1 and 1,000,000' using errcode = '22023';
  end if;
  select * into v_limits from private.plan_limits(_business_id);
  -- Counted as private.assert_items_allow counts (the plan's items are unarchived variants of unarchived products).
  select count(*) into v_used
    from public.variants v join public.products p on p.id = v.product_id
   where v.business_id = _business_id and v.archived_at is null and p.archived_at is null;
  return jsonb_build_object(
    'plan', v_limits.plan,
    'max_items', v_limits.max_products,
    'room', case when v_limits.max_products is null then null else greatest(v_limits.max_products - v_used, 0) end,
    'rows', coalesce((
      select jsonb_agg(jsonb_build_object(
               'row_index', x.n,
               'action', case when c.variant_id is null then 'new' when c.changes = '{}'::jsonb then 'same' else 'update' end,
               'changes', coalesce(c.changes, '{}'::jsonb)) order by x.n)
        from (select (e.ord)::int + _first_row - 1 as n from jsonb_array_elements(_rows) with ordinality as e (value, ord)) x
        left join private.catalog_import_changes(_business_id, _rows, _first_row) c on c.row_index = x.n), '[]'::jsonb));
end;
$$;
comment on function public.preview_catalog_import(uuid,jsonb,integer) is 'Owners and managers: what a part of a catalog file (up to 500 rows) would do: each row new, update (with {field: {old, new}}) or same, and the plan''s room for new items (null: unlimited). Writes nothing.';
revoke all on function public.preview_catalog_import(uuid,jsonb,integer) from public, anon;
grant execute on function public.preview_catalog_import(uuid,jsonb,integer) to authenticated;

-- catalog_import_problems (20261127120000_work_caps.sql): rows with an item's SKU are updates, checked for what an import
-- cannot change; the plan's limit is counted once by the preview instead of on every row past it.
create or replace function private.catalog_import_problems(_business_id uuid, _rows jsonb, _store_id uuid,
                                                           _import_id uuid, _first_row int)
returns table (row_index int, message text)
language sql
stable
security definer
set search_path = ''
as $$
  with r as (
    select (x.ord)::int + _first_row - 1 as n, x.value as v,
           nullif(btrim(coalesce(x.value ->> 'product_name', '')), '') as name,
           upper(nullif(btrim(coalesce(x.value ->> 'sku', '')), '')) as sku,
           nullif(btrim(coalesce(x.value ->> 'barcode', '')), '') as code,
           nullif(btrim(coalesce(x.value ->> 'opening_qty', '')), '') as qty,
           nullif(btrim(coalesce(x.value ->> 'cost', '')), '') as cost,
           coalesce(nullif(btrim(x.value ->> 'unit'), ''), 'each') as unit,
           nullif(btrim(coalesce(x.value ->> 'unit', '')), '') as unit_given,
           nullif(btrim(coalesce(x.value ->> 'option_value', '')), '') as option_value,
           nullif(btrim(coalesce(x.value ->> 'option_name', '')), '') as option_name,
           nullif(btrim(coalesce(x.value ->> 'category', '')), '') as category,
           nullif(btrim(coalesce(x.value ->> 'brand', '')), '') as brand
      from jsonb_array_elements(_rows) with ordinality as x (value, ord)
  ),
  k as (
    select r.*,
           p.id as product_id, p.unit as product_unit, p.option1_name as product_option,
           -- A new product takes the unit and option name of its first row, as the import creates it.
           first_value(r.unit) over w_name as first_unit,
           first_value(r.option_name) over w_name as first_option,
           row_number() over w_name as nth_of_name,
           case when r.sku is null then null else min(r.n) over (partition by r.sku) end as first_sku_row,
           case when r.code is null then null else min(r.n) over (partition by r.code) end as first_code_row,
           ev.id as item_id, ev.archived as item_archived, ev.product_id as item_product, ev.product_name as item_product_name,
           ev.unit as item_unit, ev.option_names as item_option_names, ev.option_values as item_option_values,
           ev.option_count as item_option_count,
           -- Rows updating variants of one product must agree on its name (it is the product's, not the row's).
           case when ev.id is null then false
                else min(r.name) over (partition by ev.product_id) is distinct from max(r.name) over (partition by ev.product_id)
           end as item_names_differ
      from r
      -- The item this row's SKU names (the row updates it), archived or not.
      left join lateral (select v.id, (v.archived_at is not null or vp.archived_at is not null) as archived, vp.id as product_id,
                                vp.name as product_name, vp.unit,
                                concat_ws(' / ', vp.option1_name, vp.option2_name, vp.option3_name) as option_names,
                                concat_ws(' / ', v.option1, v.option2, v.option3) as option_values,
                                num_nonnulls(vp.option1_name, vp.option2_name, vp.option3_name) as option_count
                           from public.variants v join public.products vp on vp.id = v.product_id
                          where v.business_id = _business_id and v.sku = r.sku) ev on r.sku is not null
      left join lateral (select p.id, p.unit, p.option1_name from public.products p
                          where p.business_id = _business_id and p.name = r.name and p.archived_at is null
                          order by p.created_at limit 1) p on true
    window w_name as (partition by r.name order by r.n)
  ),
  checked as (
    select k.n, case
      when k.name is null then 'the product name is missing'
      when coalesce(k.v ->> 'price', '') !~ '^\s*[0-9]{1,12}\s*$' then
        format('the price must be a whole number of cents, 0 or more (got "%s")', coalesce(k.v ->> 'price', ''))
      when k.cost is not null and k.cost !~ '^\s*[0-9]{1,12}\s*$' then
        format('the cost must be a whole number of cents, 0 or more (got "%s")', k.v ->> 'cost')
      when k.unit not in ('each', 'kg') then format('the unit must be "each" or "kg" (got "%s")', k.v ->> 'unit')
      when char_length(k.name) > 200 then 'the product name is longer than 200 characters'
      -- Categories are written for the whole part before its rows: a bad one must be caught here, with its row.
      when k.category is not null and char_length(k.category) not between 2 and 100 then
        'the category must be 2 to 100 characters'
      when k.brand is not null and char_length(k.brand) > 100 then 'the brand is longer than 100 characters'
      -- A row for an existing item (its SKU) updates it: what an import cannot change there is named.
      when k.item_id is not null and k.item_archived then
        'this SKU belongs to an archived item: restore the item first, or use another SKU'
      when k.item_id is not null and k.unit_given is not null and k.unit_given <> k.item_unit then
        format('the unit of an existing item cannot change by import (it is "%s")', k.item_unit)
      when k.item_id is not null and k.option_name is not null and k.option_name <> k.item_option_names then
        'the options of an existing item cannot change by import: edit the product instead'
      when k.item_id is not null and k.option_value is not null and k.option_value <> k.item_option_values
           and k.item_option_count <> 1 then
        'the options of an existing item cannot change by import: edit the product instead'
      when k.item_id is not null and k.qty is not null and k.qty ~ '^\s*[0-9]{1,9}(\.[0-9]+)?\s*$' and k.qty::numeric > 0 then
        'opening stock is for new items only: count this item''s stock on the Stock page'
      when k.item_id is not null and k.item_names_differ then
        'the rows of this product''s items give it different names: use one name'
      when k.item_id is not null and k.name <> k.item_product_name
           and exists (select 1 from public.products o where o.business_id = _business_id and o.name = k.name
                          and o.archived_at is null and o.id <> k.item_product) then
        format('another product is already called "%s": choose another name', k.name)
      when k.item_id is null and k.option_value is not null and coalesce(k.product_option, case when k.product_id is null then k.first_option end) is null then
        'this product has no such option: name the option on the product first'
      when k.sku is not null and k.sku !~ '^[A-Z0-9][A-Z0-9._/-]{0,39}$' then
        'the SKU may hold only letters, digits, dots, dashes and slashes (40 at most)'
      when k.sku is not null and k.first_sku_row < k.n then format('this SKU is also on row %s', k.first_sku_row)
      when k.sku is not null and exists (select 1 from private.catalog_import_keys c
                                          where c.import_id = _import_id and c.row_index < _first_row and c.sku = k.sku) then
        format('this SKU is also on row %s', (select min(c.row_index) from private.catalog_import_keys c
                                               where c.import_id = _import_id and c.row_index < _first_row and c.sku = k.sku))
      when k.code is not null and k.code !~ '^([0-9]{8}|[0-9]{12}|[0-9]{13})$' then
        format('the barcode "%s" is not 8, 12 or 13 digits', k.code)
      when k.code is not null and not private.barcode_is_valid(k.code, private.catalog_import_barcode_kind(k.code)) then
        'the barcode''s check digit is wrong'
      when k.code is not null and k.first_code_row < k.n then format('this barcode is also on row %s', k.first_code_row)
      when k.code is not null and exists (select 1 from public.barcodes b where b.business_id = _business_id and b.code = k.code
                                             and b.variant_id is distinct from k.item_id) then
        'this barcode is already used in the business'
      when k.code is not null and exists (select 1 from private.catalog_import_keys c
                                           where c.import_id = _import_id and c.row_index < _first_row and c.barcode = k.code) then
        format('this barcode is also on row %s', (select min(c.row_index) from private.catalog_import_keys c
                                                   where c.import_id = _import_id and c.row_index < _first_row and c.barcode = k.code))
      when k.item_id is null and k.qty is not null and _store_id is null then 'choose a store for the opening stock'
      when k.qty is not null and k.qty !~ '^\s*[0-9]{1,9}(\.[0-9]+)?\s*$' then
        format('the opening quantity must be a number, 0 or more (got "%s")', k.v ->> 'opening_qty')
      when k.qty is not null and k.qty::numeric > 0
           and private.quantity_problem(coalesce(k.product_unit, k.first_unit), k.qty::numeric) is not null then
        private.quantity_problem(coalesce(k.product_unit, k.first_unit), k.qty::numeric)
    end as message
      from k
  )
  select c.n, c.message from checked c where c.message is not null order by c.n;
$$;
revoke all on function private.catalog_import_problems(uuid,jsonb,uuid,uuid,integer) from public;

-- Import catalog rows (20261122120200_catalog_import: fields, rules and messages as before), in parts:
-- * a row whose SKU is an unarchived item updates it with private.catalog_import_changes (20261202130000);
-- * a dry run checks at most 500 rows and writes nothing but the import's keys (with _import_id: the next parts
--   are checked against them);
-- * an import writes at most 25 rows, all or nothing: if any row fails, nothing of the part is written;
-- * _first_row numbers the part's rows as the file's, in the messages.
-- The browser checks every part of a file first and writes only a file without errors (docs/adr/0180).
create or replace function public.import_catalog(_business_id uuid, _rows jsonb, _store_id uuid default null,
                                                 _dry_run boolean default true, _import_id uuid default null,
                                                 _first_row int default 1)
returns table (row_index int, message text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_check_cap constant int := 500;
  c_write_cap constant int := 25;
  v_problems jsonb;
  r record;
  v_n int;
  v_product uuid;
  v_variant uuid;
  v_category uuid;
  v_cost bigint;
  v_qty numeric;
  v_updates jsonb;
  v_update jsonb;
  v_changes jsonb;
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if jsonb_typeof(_rows) is distinct from 'array' or jsonb_array_length(_rows) = 0 then
    raise exception 'the file has no rows' using errcode = '22023';
  end if;
  if _dry_run and jsonb_array_length(_rows) > c_check_cap then
    raise exception 'check at most % rows in one call: send the file in parts', c_check_cap using errcode = '22023';
  elsif not _dry_run and jsonb_array_length(_rows) > c_write_cap then
    raise exception 'import at most % rows in one call: send the file in parts', c_write_cap using errcode = '22023';
  end if;
  if _first_row is null or _first_row < 1 or _first_row > 1000000 then
    raise exception 'the first row number must be between 1 and 1,000,000' using errcode = '22023';
  end if;
  if _store_id is not null then
    if (select private.assert_store_role(_store_id, array['owner', 'manager'])) is distinct from _business_id then
      raise exception 'the store belongs to another business' using errcode = '22023';
    end if;
  end if;
  if _import_id is not null then
    if exists (select 1 from private.catalog_import_keys c where c.import_id = _import_id
                and (c.business_id <> _business_id or c.created_by is distinct from (select auth.uid()))) then
      raise exception 'this import id belongs to another import: start the import again' using errcode = '42501';
    end if;
    -- Forgotten checks (a closed tab) go after a day, a bounded number at a time.
    delete from private.catalog_import_keys c
     where c.ctid in (select x.ctid from private.catalog_import_keys x where x.created_at < now() - interval '1 day' limit 1000);
  end if;

  select coalesce(jsonb_agg(jsonb_build_object('row', p.row_index, 'message', p.message) order by p.row_index), '[]')
    into v_problems
    from private.catalog_import_problems(_business_id, _rows, _store_id, _import_id, _first_row) p;

  if _dry_run then
    if _import_id is not null then
      -- A part sent again (a retry) replaces its keys.
      delete from private.catalog_import_keys c where c.import_id = _import_id and c.row_index >= _first_row;
      insert into private.catalog_import_keys (import_id, row_index, business_id, created_by, sku, barcode, new_product)
      select _import_id, (x.ord)::int + _first_row - 1, _business_id, (select auth.uid()),
             upper(nullif(btrim(coalesce(x.value ->> 'sku', '')), '')), nullif(btrim(coalesce(x.value ->> 'barcode', '')), ''),
             case when not exists (select 1 from public.products p where p.business_id = _business_id and p.archived_at is null
                                      and p.name = btrim(x.value ->> 'product_name'))
                  then nullif(btrim(coalesce(x.value ->> 'product_name', '')), '') end
        from jsonb_array_elements(_rows) with ordinality as x (value, ord);
      -- The keys of a big file grow within a minute; PGlite has no autovacuum, and with the statistics of an empty
      -- table the planner scanned every earlier key for each row (a 20,000-row check's last parts took 2-4 s
      -- instead of 0.2 s). The part holding row 1,000, 4,000 or 10,000 refreshes them.
      if exists (select 1 from unnest(array[1000, 4000, 10000]) t (n)
                  where t.n >= _first_row and t.n < _first_row + jsonb_array_length(_rows)) then
        analyze private.catalog_import_keys;
      end if;
    end if;
  elsif jsonb_array_length(v_problems) = 0 then
    if _import_id is not null then
      -- The writes have begun: the check's keys are no longer needed (the written rows are in the catalog).
      delete from private.catalog_import_keys c where c.import_id = _import_id;
    end if;
    -- Categories in one statement; then each row (its triggers: plan limit, trail, search words, stock).
    insert into public.categories (business_id, name)
    select distinct _business_id, btrim(x.value ->> 'category') from jsonb_array_elements(_rows) x
     where nullif(btrim(coalesce(x.value ->> 'category', '')), '') is not null
    on conflict (business_id, name) do nothing;
    -- The rows that update an item, by row number, compared before any row is written.
    select coalesce(jsonb_object_agg(c.row_index::text, jsonb_build_object('variant', c.variant_id, 'product', c.product_id,
                                                                            'changes', c.changes)), '{}'::jsonb)
      into v_updates
      from private.catalog_import_changes(_business_id, _rows, _first_row) c;
    begin
      for r in select (x.ord)::int + _first_row - 1 as n, x.value as v from jsonb_array_elements(_rows) with ordinality as x (value, ord) loop
        v_n := r.n;
        v_category := null;
        if nullif(btrim(coalesce(r.v ->> 'category', '')), '') is not null then
          select c.id into v_category from public.categories c
           where c.business_id = _business_id and c.name = btrim(r.v ->> 'category');
        end if;
        v_update := v_updates -> (r.n::text);
        if v_update is not null then
          -- An update writes only what changes (each write is in the catalog's trail).
          v_changes := v_update -> 'changes';
          if v_changes ?| array['product_name', 'category', 'brand'] then
            update public.products p
               set name = case when v_changes ? 'product_name' then v_changes -> 'product_name' ->> 'new' else p.name end,
                   category_id = case when v_changes ? 'category' then v_category else p.category_id end,
                   brand = case when v_changes ? 'brand' then v_changes -> 'brand' ->> 'new' else p.brand end
             where p.id = (v_update ->> 'product')::uuid;
          end if;
          if v_changes ?| array['price', 'option_value'] then
            update public.variants v
               set price = case when v_changes ? 'price' then (v_changes -> 'price' ->> 'new')::bigint else v.price end,
                   option1 = case when v_changes ? 'option_value' then v_changes -> 'option_value' ->> 'new' else v.option1 end
             where v.id = (v_update ->> 'variant')::uuid;
          end if;
          if v_changes ? 'cost' then
            insert into public.variant_costs (variant_id, business_id, cost)
            values ((v_update ->> 'variant')::uuid, _business_id, (v_changes -> 'cost' ->> 'new')::bigint)
            on conflict (variant_id) do update set cost = excluded.cost;
          end if;
          if v_changes ? 'barcode' then
            -- The item's first barcode (the one the export writes) takes the new code; an item without one gets it.
            if v_changes -> 'barcode' ->> 'id' is not null then
              update public.barcodes b
                 set code = v_changes -> 'barcode' ->> 'new',
                     kind = private.catalog_import_barcode_kind(v_changes -> 'barcode' ->> 'new')
               where b.id = (v_changes -> 'barcode' ->> 'id')::uuid;
            else
              insert into public.barcodes (business_id, variant_id, code, kind)
              values (_business_id, (v_update ->> 'variant')::uuid, v_changes -> 'barcode' ->> 'new',
                      private.catalog_import_barcode_kind(v_changes -> 'barcode' ->> 'new'));
            end if;
          end if;
          continue;
        end if;
        v_product := null;
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
        values (_business_id, v_product, coalesce(r.v ->> 'sku', ''), (r.v ->> 'price')::bigint,
                nullif(btrim(coalesce(r.v ->> 'option_value', '')), ''))
        returning id into v_variant;
        v_cost := nullif(btrim(coalesce(r.v ->> 'cost', '')), '')::bigint;
        if v_cost is not null then
          insert into public.variant_costs (variant_id, business_id, cost) values (v_variant, _business_id, v_cost);
        end if;
        if nullif(btrim(coalesce(r.v ->> 'barcode', '')), '') is not null then
          insert into public.barcodes (business_id, variant_id, code, kind)
          values (_business_id, v_variant, btrim(r.v ->> 'barcode'), private.catalog_import_barcode_kind(btrim(r.v ->> 'barcode')));
        end if;
        v_qty := nullif(btrim(coalesce(r.v ->> 'opening_qty', '')), '')::numeric;
        if v_qty > 0 then
          perform private.apply_movement(_business_id, _store_id, v_variant, null, 'opening', v_qty, null, v_cost,
                                         null, 'import', null, null);
        end if;
      end loop;
    exception
      -- What the check could not see (a row changed by someone else meanwhile): the part is not written, and the
      -- row it stopped at is named.
      when unique_violation then
        v_problems := jsonb_build_array(jsonb_build_object('row', v_n, 'message',
          case when sqlerrm like '%barcodes%' then 'this barcode is already used in the business'
               else 'this SKU is already used in the business' end));
      when check_violation then
        v_problems := jsonb_build_array(jsonb_build_object('row', v_n, 'message',
          case when sqlerrm like '%barcodes_check_digit%' then 'the barcode''s check digit is wrong'
               when sqlerrm like '%sku%' then 'the SKU may hold only letters, digits, dots, dashes and slashes (40 at most)'
               else 'a value is out of range: ' || sqlerrm end));
      -- The plan's limit (variants_plan_limit), reached since the check: its sentence and what to do.
      when sqlstate 'SW001' then
        v_problems := jsonb_build_array(jsonb_build_object('row', v_n, 'message',
          rtrim(sqlerrm, '.') || ': archive some items or upgrade your plan, then import the rows not yet imported'));
      when others then
        v_problems := jsonb_build_array(jsonb_build_object('row', v_n, 'message', sqlerrm));
    end;
  end if;
  return query select (e ->> 'row')::int, e ->> 'message' from jsonb_array_elements(v_problems) e order by 1;
end;
$$;
comment on function public.import_catalog(uuid,jsonb,uuid,boolean,uuid,integer) is 'Owners and managers check (dry run, up to 500 rows) or import (up to 25 rows, all or nothing) a part of a catalog file; returns each failing row''s message with its row number in the file. _import_id links the parts of one file''s check; _first_row numbers the part''s first row.';
revoke all on function public.import_catalog(uuid,jsonb,uuid,boolean,uuid,integer) from public;
grant execute on function public.import_catalog(uuid,jsonb,uuid,boolean,uuid,integer) to authenticated;
