-- Issue 22, finding 9: per-call work caps, so no account's call holds the embedded stack's single PGlite connection
-- for long (docs/adr/0180, 0181). Measured on PGlite (2 shared cores) to finish well under 1 s at the cap.
-- * import_catalog: at most 500 rows checked (dry run) or 25 rows written per call; the browser sends a file in
--   parts with a progress bar. The check is one set-based pass without writes or per-row subtransactions (the old
--   loop opened one subtransaction per row and appended errors to a jsonb array: both grew quadratically), and it
--   sees the parts of the same import already checked (private.catalog_import_keys) so a SKU or barcode repeated
--   across parts, or products past the plan's limit, are reported on the check as they would be in one call.
-- * post_sales: at most 50 sales and 60 sale lines in one batch; the register's outbox splits its batches by
--   lines too (shared/features/pos/outbox.ts).
-- post_sale, private.post_sale_core, private.sale_lines_priced and post_refund are not redefined here.

-- ---------------------------------------------------------------------------------------------------------------
-- Catalog import.

-- What the check of one import has seen so far, keyed by the import id the browser makes for a file: the parts
-- checked before this one. Kept until the import's first write (or a day), never read through the API.
create table private.catalog_import_keys (
  import_id uuid not null,
  row_index int not null,
  business_id uuid not null references public.businesses (id) on delete cascade,
  created_by uuid not null,
  sku text,
  barcode text,
  -- Set when the row would create a product (no product of that name yet): counted against the plan's limit.
  new_product text,
  created_at timestamptz not null default now(),
  primary key (import_id, row_index)
);
-- No policy: only the security definer import reads or writes it (RLS on, as on every table, refuses everyone else).
alter table private.catalog_import_keys enable row level security;
create index catalog_import_keys_business_idx on private.catalog_import_keys (business_id);
create index catalog_import_keys_sku_idx on private.catalog_import_keys (import_id, sku) where sku is not null;
create index catalog_import_keys_barcode_idx on private.catalog_import_keys (import_id, barcode) where barcode is not null;
create index catalog_import_keys_product_idx on private.catalog_import_keys (import_id, new_product) where new_product is not null;
create index catalog_import_keys_created_idx on private.catalog_import_keys (created_at);
comment on table private.catalog_import_keys is
  'The SKUs, barcodes and new product names of the rows an import''s check has already seen (earlier parts of the '
  'same file), so a part is checked against the parts before it. Written and read only by public.import_catalog.';
revoke all on table private.catalog_import_keys from public, anon, authenticated;

-- The barcode kind the import gives a code (as the import always did): by length, 2-prefixed EAN-13 internal.
create or replace function private.catalog_import_barcode_kind(_code text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case length(_code) when 8 then 'ean8' when 12 then 'upca'
              else case when left(_code, 1) = '2' then 'internal' else 'ean13' end end;
$$;
revoke all on function private.catalog_import_barcode_kind(text) from public, anon, authenticated;

-- The first problem of each row, in the order the rows were sent, without writing anything. Row numbers are the
-- file's (_first_row is the number of the part's first row). Linear: one pass with window functions and index
-- lookups, no subtransaction per row.
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
           case when r.code is null then null else min(r.n) over (partition by r.code) end as first_code_row
      from r
      left join lateral (select p.id, p.unit, p.option1_name from public.products p
                          where p.business_id = _business_id and p.name = r.name and p.archived_at is null
                          order by p.created_at limit 1) p on true
    window w_name as (partition by r.name order by r.n)
  ),
  limits as (
    select l.plan, l.max_products,
           (select count(*) from public.products p where p.business_id = _business_id and p.archived_at is null) as used,
           (select count(distinct c.new_product) from private.catalog_import_keys c
             where c.import_id = _import_id and c.row_index < _first_row and c.new_product is not null) as earlier
      from private.plan_limits(_business_id) l
  ),
  -- The rows that would create a product, numbered in order: the ones past the plan's limit are refused.
  news as (
    select k.n, row_number() over (order by k.n) as nth
      from k
     where k.product_id is null and k.name is not null and k.nth_of_name = 1
       and not exists (select 1 from private.catalog_import_keys c
                        where c.import_id = _import_id and c.row_index < _first_row and c.new_product = k.name)
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
      when k.option_value is not null and coalesce(k.product_option, case when k.product_id is null then k.first_option end) is null then
        'this product has no such option: name the option on the product first'
      when k.sku is not null and k.sku !~ '^[A-Z0-9][A-Z0-9._/-]{0,39}$' then
        'the SKU may hold only letters, digits, dots, dashes and slashes (40 at most)'
      when k.sku is not null and k.first_sku_row < k.n then format('this SKU is also on row %s', k.first_sku_row)
      when k.sku is not null and exists (select 1 from public.variants x where x.business_id = _business_id and x.sku = k.sku) then
        'this SKU is already used in the business'
      when k.sku is not null and exists (select 1 from private.catalog_import_keys c
                                          where c.import_id = _import_id and c.row_index < _first_row and c.sku = k.sku) then
        format('this SKU is also on row %s', (select min(c.row_index) from private.catalog_import_keys c
                                               where c.import_id = _import_id and c.row_index < _first_row and c.sku = k.sku))
      when k.code is not null and k.code !~ '^([0-9]{8}|[0-9]{12}|[0-9]{13})$' then
        format('the barcode "%s" is not 8, 12 or 13 digits', k.code)
      when k.code is not null and not private.barcode_is_valid(k.code, private.catalog_import_barcode_kind(k.code)) then
        'the barcode''s check digit is wrong'
      when k.code is not null and k.first_code_row < k.n then format('this barcode is also on row %s', k.first_code_row)
      when k.code is not null and exists (select 1 from public.barcodes b where b.business_id = _business_id and b.code = k.code) then
        'this barcode is already used in the business'
      when k.code is not null and exists (select 1 from private.catalog_import_keys c
                                           where c.import_id = _import_id and c.row_index < _first_row and c.barcode = k.code) then
        format('this barcode is also on row %s', (select min(c.row_index) from private.catalog_import_keys c
                                                   where c.import_id = _import_id and c.row_index < _first_row and c.barcode = k.code))
      when k.qty is not null and _store_id is null then 'choose a store for the opening stock'
      when k.qty is not null and k.qty !~ '^\s*[0-9]{1,9}(\.[0-9]+)?\s*$' then
        format('the opening quantity must be a number, 0 or more (got "%s")', k.v ->> 'opening_qty')
      when k.qty is not null and k.qty::numeric > 0
           and private.quantity_problem(coalesce(k.product_unit, k.first_unit), k.qty::numeric) is not null then
        private.quantity_problem(coalesce(k.product_unit, k.first_unit), k.qty::numeric)
      when l.max_products is not null and news.nth is not null and l.used + l.earlier + news.nth > l.max_products then
        format('plan limit reached: the %s plan allows %s products', l.plan, l.max_products)
    end as message
      from k
      cross join limits l
      left join news on news.n = k.n
  )
  select c.n, c.message from checked c where c.message is not null order by c.n;
$$;
revoke all on function private.catalog_import_problems(uuid, jsonb, uuid, uuid, int) from public, anon, authenticated;

drop function public.import_catalog(uuid, jsonb, uuid, boolean);

-- Import catalog rows (20261122120200_catalog_import: fields, rules and messages as before), in parts:
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
    begin
      for r in select (x.ord)::int + _first_row - 1 as n, x.value as v from jsonb_array_elements(_rows) with ordinality as x (value, ord) loop
        v_n := r.n;
        v_category := null;
        if nullif(btrim(coalesce(r.v ->> 'category', '')), '') is not null then
          select c.id into v_category from public.categories c
           where c.business_id = _business_id and c.name = btrim(r.v ->> 'category');
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
      when others then
        v_problems := jsonb_build_array(jsonb_build_object('row', v_n, 'message', sqlerrm));
    end;
  end if;
  return query select (e ->> 'row')::int, e ->> 'message' from jsonb_array_elements(v_problems) e order by 1;
end;
$$;
comment on function public.import_catalog(uuid, jsonb, uuid, boolean, uuid, int) is
  'Owners and managers check (dry run, up to 500 rows) or import (up to 25 rows, all or nothing) a part of a '
  'catalog file; returns each failing row''s message with its row number in the file. _import_id links the parts of '
  'one file''s check; _first_row numbers the part''s first row.';
revoke all on function public.import_catalog(uuid, jsonb, uuid, boolean, uuid, int) from public, anon;
grant execute on function public.import_catalog(uuid, jsonb, uuid, boolean, uuid, int) to authenticated;

-- ---------------------------------------------------------------------------------------------------------------
-- post_sales: bounded by the lines of the whole batch as well as by its sales (body as in 20261124100000_pos_speed).
create or replace function public.post_sales(_payloads jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_max_sales constant int := 50;
  c_max_lines constant int := 60;
  v_lines bigint;
  v_payload jsonb;
  v record;
  v_out jsonb[] := '{}';
begin
  if jsonb_typeof(_payloads) is distinct from 'array' or jsonb_array_length(_payloads) = 0 then
    raise exception 'send the sales as a list' using errcode = '22023';
  elsif jsonb_array_length(_payloads) > c_max_sales then
    raise exception 'send at most % sales at a time', c_max_sales using errcode = '22023';
  end if;
  select coalesce(sum(case when jsonb_typeof(p -> 'lines') = 'array' then jsonb_array_length(p -> 'lines') else 0 end), 0)
    into v_lines
    from jsonb_array_elements(_payloads) p
   where jsonb_typeof(p) = 'object';
  if v_lines > c_max_lines then
    raise exception 'send at most % sale lines in one batch (this one has %): send fewer sales at a time', c_max_lines, v_lines
      using errcode = '22023';
  end if;
  for v_payload in select value from jsonb_array_elements(_payloads) loop
    begin
      select * into v from private.post_sale_core(v_payload);
      v_out := v_out || jsonb_build_object('id', v_payload ->> 'id', 'ok', true, 'replayed', v.o_replayed,
                                           'receipt_number', v.o_receipt);
    exception when others then
      v_out := v_out || jsonb_build_object('id', v_payload ->> 'id', 'ok', false, 'code', sqlstate, 'message', sqlerrm);
    end;
  end loop;
  return to_jsonb(v_out);
end;
$$;
comment on function public.post_sales(jsonb) is
  'A register''s outbox in batches: at most 50 sales and 60 sale lines; each sale posted or refused on its own, one '
  'result per sale in order.';
revoke all on function public.post_sales(jsonb) from public, anon;
grant execute on function public.post_sales(jsonb) to authenticated;
