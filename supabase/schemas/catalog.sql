-- Catalog (shared/features/catalog): categories, products, variants, barcodes, costs and store prices, the CSV
-- import, and the search the screens and the register use (search_catalog, private.catalog_words for typos).
-- Invariants: a barcode is unique within a business and its check digit is valid; the search words follow the
-- products and variants through triggers.
--
-- Written by scripts/schema-extract.ts from the migrations and kept equal to them by
-- tests/hosted/schema-files.test.ts: change an object here, then generate its migration (README, Contributing).

-- Function bodies are checked when they run, not when created: the files need no order among functions.
set check_function_bodies = off;

-- ==== Schemas, extensions, domains and sequences ==========================================================

create sequence private.internal_barcode_seq;

-- ==== Functions the tables below call in defaults, checks or indexes ======================================

create or replace function private.barcode_is_valid(_code text, _kind text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case _kind
    when 'ean13' then _code ~ '^[0-9]{13}$'
    when 'upca' then _code ~ '^[0-9]{12}$'
    when 'ean8' then _code ~ '^[0-9]{8}$'
    when 'internal' then _code ~ '^2[0-9]{12}$'
    else false end
    and private.gtin_check_digit(left(_code, length(_code) - 1)) = right(_code, 1)::int;
$$;
revoke all on function private.barcode_is_valid(text,text) from public;
grant execute on function private.barcode_is_valid(text,text) to authenticated;
grant execute on function private.barcode_is_valid(text,text) to service_role;

-- A rule's pattern: prefix digits, item-code dots, {N..D..} value, 12 positions (the 13th is the check digit).
create or replace function private.scale_pattern_parts(_pattern text,
  out o_prefix text, out o_code_len int, out o_int_digits int, out o_decimals int)
language plpgsql
immutable
set search_path = ''
as $$
declare
  m text[];
begin
  m := regexp_match(coalesce(_pattern, ''), '^([0-9]{1,4})(\.{1,6})\{(N{1,6})(D{0,3})\}$');
  if m is null or char_length(m[1]) + char_length(m[2]) + char_length(m[3]) + char_length(m[4]) <> 12 then
    return;
  end if;
  o_prefix := m[1];
  o_code_len := char_length(m[2]);
  o_int_digits := char_length(m[3]);
  o_decimals := char_length(m[4]);
end;
$$;
revoke all on function private.scale_pattern_parts(text) from public;
grant execute on function private.scale_pattern_parts(text) to authenticated;
grant execute on function private.scale_pattern_parts(text) to service_role;

-- ==== Tables: columns, constraints, row level security, grants and comments ===============================

create table public.categories (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  name public.entity_name not null,
  created_at timestamp with time zone default now() not null,
  constraint categories_pkey primary key (id),
  constraint categories_business_id_name_key unique (business_id, name),
  constraint categories_id_business_id_key unique (id, business_id),
  constraint categories_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table public.categories enable row level security;
comment on table public.categories is 'Members read; owners and managers create, rename and delete.';
grant delete, insert, select, update on table public.categories to service_role;
grant delete, select on table public.categories to authenticated;
grant insert (business_id, name) on table public.categories to authenticated;
grant update (name) on table public.categories to authenticated;

create table private.catalog_words (
  business_id uuid not null,
  word text not null,
  products integer not null,
  constraint catalog_words_pkey primary key (business_id, word),
  constraint catalog_words_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table private.catalog_words enable row level security;
comment on table private.catalog_words is 'The distinct words (lower case, 2-40 letters or digits) of each business''s product names and brands, with how many products hold each: the dictionary that corrects typos in search_catalog. Written by triggers on public.products, read by private.catalog_typo_page. Not exposed to the API roles.';

create table private.catalog_import_keys (
  import_id uuid not null,
  row_index integer not null,
  business_id uuid not null,
  created_by uuid not null,
  sku text,
  barcode text,
  new_product text,
  created_at timestamp with time zone default now() not null,
  constraint catalog_import_keys_pkey primary key (import_id, row_index),
  constraint catalog_import_keys_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table private.catalog_import_keys enable row level security;
comment on table private.catalog_import_keys is 'The SKUs, barcodes and new product names of the rows an import''s check has already seen (earlier parts of the same file), so a part is checked against the parts before it. Written and read only by public.import_catalog.';

create table public.scale_barcode_rules (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  name text not null,
  pattern text not null,
  kind text not null,
  created_at timestamp with time zone default now() not null,
  constraint scale_barcode_rules_pkey primary key (id),
  constraint scale_barcode_rules_business_id_pattern_key unique (business_id, pattern),
  constraint scale_barcode_rules_kind_check check ((kind = any (array['weight'::text, 'price'::text]))),
  constraint scale_barcode_rules_name_check check (((char_length(btrim(name)) >= 1) and (char_length(btrim(name)) <= 60))),
  constraint scale_barcode_rules_pattern_check check (((private.scale_pattern_parts(pattern)).o_prefix is not null)),
  constraint scale_barcode_rules_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table public.scale_barcode_rules enable row level security;
comment on table public.scale_barcode_rules is 'How this business''s scale labels carry a weight or a price (Odoo-style patterns such as 21.....{NNDDD}). Members read (the register parses labels offline); owners and managers add and delete.';
grant delete, insert, select, update on table public.scale_barcode_rules to service_role;
grant delete, select on table public.scale_barcode_rules to authenticated;
grant insert (business_id, name, pattern, kind) on table public.scale_barcode_rules to authenticated;

create table public.collections (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  name text not null,
  season_code text,
  starts_on date,
  ends_on date,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint collections_pkey primary key (id),
  constraint collections_business_id_name_key unique (business_id, name),
  constraint collections_id_business_id_key unique (id, business_id),
  constraint collections_dates_in_order check (((ends_on is null) or (starts_on is null) or (ends_on >= starts_on))),
  constraint collections_name_check check (((char_length(btrim(name)) >= 1) and (char_length(btrim(name)) <= 100))),
  constraint collections_season_code_check check ((season_code ~ '^[A-Z0-9][A-Z0-9-]{0,15}$'::text)),
  constraint collections_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table public.collections enable row level security;
comment on table public.collections is 'A season''s line of products (clothing pack): name, season code (SS27), start and end dates. Members read; owners and managers write. A product belongs to at most one (products.collection_id).';
grant delete, insert, select, update on table public.collections to service_role;
grant delete, select on table public.collections to authenticated;
grant insert (business_id, name, season_code, starts_on, ends_on) on table public.collections to authenticated;
grant update (name, season_code, starts_on, ends_on) on table public.collections to authenticated;

create table public.products (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  name text not null,
  description text,
  category_id uuid,
  brand text,
  unit text default 'each'::text not null,
  tax_rate public.tax_rate,
  track_stock boolean default true not null,
  has_lots boolean default false not null,
  requires_expiry boolean default false not null,
  option1_name text,
  option2_name text,
  option3_name text,
  archived_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  serial_tracking text,
  warranty_months integer,
  collection_id uuid,
  prescription_only boolean default false not null,
  controlled boolean default false not null,
  constraint products_pkey primary key (id),
  constraint products_id_business_id_key unique (id, business_id),
  constraint products_brand_check check ((char_length(brand) <= 100)),
  constraint products_description_check check ((char_length(description) <= 2000)),
  constraint products_expiry_needs_lots check (((not requires_expiry) or has_lots)),
  constraint products_name_check check (((char_length(btrim(name)) >= 1) and (char_length(btrim(name)) <= 200))),
  constraint products_option1_name_check check (((char_length(btrim(option1_name)) >= 1) and (char_length(btrim(option1_name)) <= 40))),
  constraint products_option2_name_check check (((char_length(btrim(option2_name)) >= 1) and (char_length(btrim(option2_name)) <= 40))),
  constraint products_option3_name_check check (((char_length(btrim(option3_name)) >= 1) and (char_length(btrim(option3_name)) <= 40))),
  constraint products_options_in_order check ((((option2_name is null) or (option1_name is not null)) and ((option3_name is null) or (option2_name is not null)))),
  constraint products_serial_tracking_check check ((serial_tracking = any (array['serial'::text, 'imei'::text]))),
  constraint products_unit_check check ((unit = any (array['each'::text, 'kg'::text]))),
  constraint products_warranty_months_range check (((warranty_months >= 0) and (warranty_months <= 240))),
  constraint products_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint products_category_id_business_id_fkey foreign key (category_id, business_id) references public.categories(id, business_id) on delete set null (category_id),
  constraint products_collection_id_business_id_fkey foreign key (collection_id, business_id) references public.collections(id, business_id) on delete set null (collection_id)
);
alter table public.products enable row level security;
comment on table public.products is 'Members read (cashiers sell from it); owners and managers create, edit and archive. Deleting works only while no stock movement names a variant; afterwards archive. Creation is limited by the plan (max_products).';
comment on column public.products.serial_tracking is 'serial or imei: each unit sold names its serial (imei: 15 digits with the Luhn check); null: not tracked.';
comment on column public.products.warranty_months is 'Months of warranty from the day a unit is sold (find_serial shows the end); null: none recorded.';
comment on column public.products.collection_id is 'The collection (season line) the product belongs to, if any.';
comment on column public.products.prescription_only is 'Sold only with a prescription recorded on the sale line (sale_line_prescriptions); post_sale refuses the line without one (ADR 0390).';
comment on column public.products.controlled is 'A controlled substance: its movements form the controlled register (controlled_register) and it is destroyed only with a witness (destroy_controlled_stock).';
grant delete, insert, select, update on table public.products to service_role;
grant delete, select on table public.products to authenticated;
grant insert (business_id, name, description, category_id, brand, unit, tax_rate, track_stock, has_lots, requires_expiry, option1_name, option2_name, option3_name, serial_tracking, warranty_months, collection_id, prescription_only, controlled) on table public.products to authenticated;
grant update (name, description, category_id, brand, unit, tax_rate, track_stock, has_lots, requires_expiry, option1_name, option2_name, option3_name, archived_at, serial_tracking, warranty_months, collection_id, prescription_only, controlled) on table public.products to authenticated;

create table public.variants (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  product_id uuid not null,
  option1 text,
  option2 text,
  option3 text,
  sku text not null,
  price bigint default 0 not null,
  archived_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint variants_pkey primary key (id),
  constraint variants_business_id_sku_key unique (business_id, sku),
  constraint variants_id_business_id_key unique (id, business_id),
  constraint variants_option1_check check (((char_length(btrim(option1)) >= 1) and (char_length(btrim(option1)) <= 60))),
  constraint variants_option2_check check (((char_length(btrim(option2)) >= 1) and (char_length(btrim(option2)) <= 60))),
  constraint variants_option3_check check (((char_length(btrim(option3)) >= 1) and (char_length(btrim(option3)) <= 60))),
  constraint variants_price_check check ((price >= 0)),
  constraint variants_sku_check check ((sku ~ '^[A-Z0-9][A-Z0-9._/-]{0,39}$'::text)),
  constraint variants_product_id_business_id_fkey foreign key (product_id, business_id) references public.products(id, business_id) on delete cascade
);
alter table public.variants enable row level security;
comment on table public.variants is 'One sellable item (a product''s size x colour, or the product itself). Members read; owners and managers write. The SKU is unique in the business and suggested when left empty.';
grant delete, insert, select, update on table public.variants to service_role;
grant delete, select on table public.variants to authenticated;
grant insert (business_id, product_id, option1, option2, option3, sku, price) on table public.variants to authenticated;
grant update (option1, option2, option3, sku, price, archived_at) on table public.variants to authenticated;

create table public.variant_costs (
  variant_id uuid not null,
  business_id uuid not null,
  cost bigint default 0 not null,
  updated_at timestamp with time zone default now() not null,
  constraint variant_costs_pkey primary key (variant_id),
  constraint variant_costs_cost_check check ((cost >= 0)),
  constraint variant_costs_variant_id_business_id_fkey foreign key (variant_id, business_id) references public.variants(id, business_id) on delete cascade
);
alter table public.variant_costs enable row level security;
alter publication supabase_realtime add table public.variant_costs;
comment on table public.variant_costs is 'Owners and managers read and set a variant''s cost; receipts update it as a moving average. Cashiers: nothing.';
grant delete, insert, select, update on table public.variant_costs to service_role;
grant select on table public.variant_costs to authenticated;
grant insert (variant_id, business_id, cost) on table public.variant_costs to authenticated;
grant update (cost) on table public.variant_costs to authenticated;

create table public.barcodes (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  variant_id uuid not null,
  code text not null,
  kind text not null,
  created_at timestamp with time zone default now() not null,
  constraint barcodes_pkey primary key (id),
  constraint barcodes_business_id_code_key unique (business_id, code),
  constraint barcodes_check_digit check (private.barcode_is_valid(code, kind)),
  constraint barcodes_kind_check check ((kind = any (array['ean13'::text, 'upca'::text, 'ean8'::text, 'internal'::text]))),
  constraint barcodes_variant_id_business_id_fkey foreign key (variant_id, business_id) references public.variants(id, business_id) on delete cascade
);
alter table public.barcodes enable row level security;
comment on table public.barcodes is 'Several per variant, unique in the business, check digit validated. Members read; owners and managers write.';
grant delete, insert, select, update on table public.barcodes to service_role;
grant delete, select on table public.barcodes to authenticated;
grant insert (business_id, variant_id, code, kind) on table public.barcodes to authenticated;

create table public.store_prices (
  business_id uuid not null,
  store_id uuid not null,
  variant_id uuid not null,
  price bigint not null,
  updated_at timestamp with time zone default now() not null,
  constraint store_prices_pkey primary key (store_id, variant_id),
  constraint store_prices_price_check check ((price >= 0)),
  constraint store_prices_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade,
  constraint store_prices_variant_id_business_id_fkey foreign key (variant_id, business_id) references public.variants(id, business_id) on delete cascade
);
alter table public.store_prices enable row level security;
comment on table public.store_prices is 'A store''s own sell price for a variant. Members read those of stores they may use; owners and managers set them.';
grant delete, insert, select, update on table public.store_prices to service_role;
grant delete, select on table public.store_prices to authenticated;
grant insert (business_id, store_id, variant_id, price) on table public.store_prices to authenticated;
grant update (price) on table public.store_prices to authenticated;

create table public.product_images (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  product_id uuid not null,
  path text not null,
  small_path text not null,
  medium_path text not null,
  "position" integer default 0 not null,
  is_main boolean default false not null,
  created_at timestamp with time zone default now() not null,
  constraint product_images_pkey primary key (id),
  constraint product_images_path_key unique (path),
  constraint product_images_medium_path_in_folder check (((medium_path ~~ ((((business_id)::text || '/'::text) || (product_id)::text) || '/_%'::text)) and (medium_path !~ '(^|/)\.\.?(/|$)'::text))),
  constraint product_images_path_in_folder check (((path ~~ ((((business_id)::text || '/'::text) || (product_id)::text) || '/_%'::text)) and (path !~ '(^|/)\.\.?(/|$)'::text))),
  constraint product_images_position_check check ((("position" >= 0) and ("position" < 100))),
  constraint product_images_small_path_in_folder check (((small_path ~~ ((((business_id)::text || '/'::text) || (product_id)::text) || '/_%'::text)) and (small_path !~ '(^|/)\.\.?(/|$)'::text))),
  constraint product_images_product_id_business_id_fkey foreign key (product_id, business_id) references public.products(id, business_id) on delete cascade
);
alter table public.product_images enable row level security;
comment on table public.product_images is 'A product''s pictures (docs/adr/0320): the full-size file in bucket product-images, its small and medium previews in product-thumbnails, all under <business>/<product>/. Members read; owners and managers add, order, choose the main one (set_main_product_image) and remove. One main picture per product at most.';
grant delete, insert, select, update on table public.product_images to service_role;
grant delete, select on table public.product_images to authenticated;
grant insert (business_id, product_id, path, small_path, medium_path, "position", is_main) on table public.product_images to authenticated;
grant update ("position", is_main) on table public.product_images to authenticated;

-- ==== Indexes =============================================================================================

create index products_business_name_idx on public.products (business_id, name);

create index products_category_idx on public.products (category_id, business_id);

create index products_name_trgm_idx on public.products using gin (name extensions.gin_trgm_ops);

create index variants_product_idx on public.variants (product_id, business_id);

create index variants_sku_pattern_idx on public.variants (business_id, sku text_pattern_ops);

create index variant_costs_variant_business_idx on public.variant_costs (variant_id, business_id);

create index barcodes_variant_idx on public.barcodes (variant_id, business_id);

create index store_prices_store_business_idx on public.store_prices (store_id, business_id);

create index store_prices_variant_idx on public.store_prices (variant_id, business_id);

create index if not exists variants_business_id_idx on public.variants (business_id, id);

create index if not exists variants_business_updated_idx on public.variants (business_id, updated_at);

create index if not exists products_business_updated_idx on public.products (business_id, updated_at);

create index if not exists barcodes_business_created_idx on public.barcodes (business_id, created_at);

create index if not exists store_prices_store_updated_idx on public.store_prices (store_id, updated_at);

create index if not exists products_business_archived_idx on public.products (business_id) where archived_at is not null;

-- Browsing counts the live variants: an index-only scan of this instead of the table.
create index if not exists variants_business_live_idx on public.variants (business_id) where archived_at is null;

create index catalog_words_trgm_idx on private.catalog_words using gin (word extensions.gin_trgm_ops);

-- A product's brand is searched like its name when a typed word was corrected to a brand's word.
create index if not exists products_brand_trgm_idx on public.products using gin (brand extensions.gin_trgm_ops);

create index catalog_import_keys_business_idx on private.catalog_import_keys (business_id);

create index catalog_import_keys_sku_idx on private.catalog_import_keys (import_id, sku) where sku is not null;

create index catalog_import_keys_barcode_idx on private.catalog_import_keys (import_id, barcode) where barcode is not null;

create index catalog_import_keys_product_idx on private.catalog_import_keys (import_id, new_product) where new_product is not null;

create index catalog_import_keys_created_idx on private.catalog_import_keys (created_at);

create index scale_barcode_rules_business_idx on public.scale_barcode_rules (business_id);

-- The product's pictures in order (the FK's columns lead, for the cascade from products).
create index product_images_product_id_business_id_idx on public.product_images (product_id, business_id, position);

-- At most one main picture per product.
create unique index product_images_one_main on public.product_images (product_id) where is_main;

-- The register reads a business's main pictures at once (pos_catalog_images).
create index product_images_business_id_idx on public.product_images (business_id);

create index products_collection_idx on public.products (collection_id, business_id);

-- The register's start reads the serial-tracked and prescription-only products (shop-packs.ts): few, so partial
-- indexes answer without a scan of every product (ADR 0446).
create index if not exists products_business_serial_idx on public.products (business_id)
  where serial_tracking is not null and archived_at is null;

create index if not exists products_business_prescription_idx on public.products (business_id)
  where prescription_only and archived_at is null;

-- ==== Functions ===========================================================================================

-- ---------------------------------------------------------------------------------------------------
-- Barcode rules: GTIN check digits (EAN-13, UPC-A, EAN-8) and internal codes (EAN-13 in the GS1
-- in-store range 20-29, so a scanner reads them like any other EAN).
create or replace function private.gtin_check_digit(_body text)
returns int
language sql
immutable
strict
set search_path = ''
as $$
  select (10 - (coalesce(sum(substr(reverse(_body), i, 1)::int * case when i % 2 = 1 then 3 else 1 end), 0) % 10)::int) % 10
    from generate_series(1, length(_body)) i;
$$;
revoke all on function private.gtin_check_digit(text) from public;
grant execute on function private.gtin_check_digit(text) to authenticated;
grant execute on function private.gtin_check_digit(text) to service_role;

-- Variants: SKUs are upper case and suggested from the product name when left empty; options follow the
-- product's option names.
create or replace function private.variants_guard()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_product public.products;
begin
  if tg_op = 'UPDATE' and (new.product_id, new.business_id) is distinct from (old.product_id, old.business_id) then
    raise exception 'a variant cannot move to another product' using errcode = '42501';
  end if;
  select * into v_product from public.products p where p.id = new.product_id;
  if nullif(btrim(coalesce(new.sku, '')), '') is null then
    new.sku := coalesce(nullif(upper(left(regexp_replace(coalesce(v_product.name, ''), '[^A-Za-z0-9]', '', 'g'), 6)), ''), 'SKU')
               || '-' || lpad((nextval('private.internal_barcode_seq') % 1000000)::text, 6, '0');
  else
    new.sku := upper(btrim(new.sku));
  end if;
  if (new.option1 is not null and v_product.option1_name is null)
     or (new.option2 is not null and v_product.option2_name is null)
     or (new.option3 is not null and v_product.option3_name is null) then
    raise exception 'this product has no such option: name the option on the product first' using errcode = '22023';
  end if;
  return new;
end;
$$;
revoke all on function private.variants_guard() from public;

-- An internal EAN-13 (GS1 in-store range) for a variant that has no barcode.
create or replace function public.add_internal_barcode(_variant_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid;
  v_body text;
  v_code text;
begin
  select v.business_id into v_business from public.variants v where v.id = _variant_id;
  perform private.assert_role(v_business, array['owner', 'manager']);
  loop
    v_body := '2' || lpad((nextval('private.internal_barcode_seq') % 100000000000)::text, 11, '0');
    v_code := v_body || private.gtin_check_digit(v_body)::text;
    exit when not exists (select 1 from public.barcodes b where b.business_id = v_business and b.code = v_code);
  end loop;
  insert into public.barcodes (business_id, variant_id, code, kind) values (v_business, _variant_id, v_code, 'internal');
  return v_code;
end;
$$;
revoke all on function public.add_internal_barcode(uuid) from public;
grant execute on function public.add_internal_barcode(uuid) to authenticated;

-- The words of a text: lower case, split at anything but letters and digits, 2 to 40 characters, each once.
create or replace function private.catalog_words_of(_text text)
returns text[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(array_agg(distinct w order by w), '{}')
    from regexp_split_to_table(lower(coalesce(_text, '')), '[^[:alnum:]]+') as w
   where char_length(w) between 2 and 40;
$$;
revoke all on function private.catalog_words_of(text) from public;

-- Adds per (business, word) the given number of products (negative: removed), in key order (two writers lock
-- rows in the same order), and drops words no product holds any more. A business being deleted is skipped:
-- its words go with it (on delete cascade) and its products' delete trigger must not re-insert them.
create or replace function private.catalog_words_apply(_business_ids uuid[], _words text[], _deltas int[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.catalog_words as c (business_id, word, products)
  select d.business_id, d.word, sum(d.delta)
    from unnest(_business_ids, _words, _deltas) as d (business_id, word, delta)
   where d.word is not null and exists (select 1 from public.businesses b where b.id = d.business_id)
   group by d.business_id, d.word
  having sum(d.delta) <> 0
   order by d.business_id, d.word
  on conflict (business_id, word) do update set products = c.products + excluded.products;
  delete from private.catalog_words c
   using (select distinct d.business_id, d.word from unnest(_business_ids, _words) as d (business_id, word)) d
   where c.business_id = d.business_id and c.word = d.word and c.products <= 0;
end;
$$;
revoke all on function private.catalog_words_apply(uuid[],text[],integer[]) from public;

-- Statement triggers with transition tables: a CSV import of 10,000 products is one dictionary update, not
-- 10,000. One function per event, so each names only the transition tables it has.
create or replace function private.catalog_words_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.catalog_words_apply(array_agg(x.business_id), array_agg(x.word), array_agg(1))
     from (select n.business_id, w.word from new_products n
            cross join lateral unnest(private.catalog_words_of(concat_ws(' ', n.name, n.brand))) as w (word)) x;
  return null;
end;
$$;
revoke all on function private.catalog_words_inserted() from public;

create or replace function private.catalog_words_deleted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.catalog_words_apply(array_agg(x.business_id), array_agg(x.word), array_agg(-1))
     from (select o.business_id, w.word from old_products o
            cross join lateral unnest(private.catalog_words_of(concat_ws(' ', o.name, o.brand))) as w (word)) x;
  return null;
end;
$$;
revoke all on function private.catalog_words_deleted() from public;

-- Only products whose name or brand changed count (an archive or a price-only edit touches no word).
create or replace function private.catalog_words_updated()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.catalog_words_apply(array_agg(x.business_id), array_agg(x.word), array_agg(x.delta))
     from (select o.business_id, w.word, -1 as delta
             from old_products o join new_products n on n.id = o.id
            cross join lateral unnest(private.catalog_words_of(concat_ws(' ', o.name, o.brand))) as w (word)
            where (o.name, o.brand, o.business_id) is distinct from (n.name, n.brand, n.business_id)
           union all
           select n.business_id, w.word, 1
             from old_products o join new_products n on n.id = o.id
            cross join lateral unnest(private.catalog_words_of(concat_ws(' ', n.name, n.brand))) as w (word)
            where (o.name, o.brand, o.business_id) is distinct from (n.name, n.brand, n.business_id)) x;
  return null;
end;
$$;
revoke all on function private.catalog_words_updated() from public;

-- Rebuilds a business's words from its products (null: every business). For rows written with triggers off
-- (npm run seed:large loads in replica mode); idempotent. Returns the number of words.
create or replace function private.refresh_catalog_words(_business_id uuid default null)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_n bigint;
begin
  delete from private.catalog_words c where _business_id is null or c.business_id = _business_id;
  insert into private.catalog_words (business_id, word, products)
  select p.business_id, w.word, count(*)
    from public.products p
   cross join lateral unnest(private.catalog_words_of(concat_ws(' ', p.name, p.brand))) as w (word)
   where _business_id is null or p.business_id = _business_id
   group by p.business_id, w.word;
  get diagnostics v_n = row_count;
  return v_n;
end;
$$;
revoke all on function private.refresh_catalog_words(uuid) from public;

create or replace function private.no_category()
returns uuid
language sql
immutable
set search_path = ''
as $$ select '00000000-0000-0000-0000-000000000000'::uuid $$;
revoke all on function private.no_category() from public;
grant execute on function private.no_category() to authenticated;

-- Each typed word (2+ characters, at most 8 words) is corrected against the business's dictionary as in
-- private.catalog_typo_matches: the word itself if the catalog has it, else up to 5 words it begins or resembles.
-- A product qualifies when every typed word is matched (as a substring of its name and brand) by one of its
-- corrections; its score is the mean over the typed words of the best matching correction's closeness (1 for
-- the word as typed, else similarity(word, typed word)). Candidates come from the name's trigram index for the
-- driving word's corrections (the typed word whose corrections the fewest products hold), the brand's only when
-- no name holds them. Returns the live variants (or all, _include_archived) of the first _offset + _limit
-- qualifying products by (score desc, name) that have such a variant, plus the products tied with the last one:
-- enough for the page search_catalog cuts by (score desc, name, sku), as each of them has one variant or more.
-- total is the number of such variants over all qualifying products (for the pager), the same on every row.
-- The caller checks membership of _business_id (search_catalog does).
create or replace function private.catalog_typo_page(
  _business_id uuid, _query text, _limit int, _offset int, _include_archived boolean
)
returns table (variant_id uuid, score real, total bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_tokens text[] := private.catalog_words_of(_query);
  v_n int := cardinality(v_tokens);
  v_i int;
  v_words text[];
  v_close real[];
  v_held bigint;
  v_least bigint;
  v_driver text[];
  v_word text;
  -- Every correction: its word, the typed word it corrects (index into v_tokens), its closeness.
  v_cw text[] := '{}';
  v_ct int[] := '{}';
  v_cs real[] := '{}';
  v_ids uuid[] := '{}';
  v_names text[] := '{}';
  v_patterns text[] := '{}';
  v_scores real[] := '{}';
  -- search_catalog's page bounds: the products needed to fill the variants before and on the page.
  v_take int := least(greatest(coalesce(_limit, 50), 1), 200) + greatest(coalesce(_offset, 0), 0);
begin
  if v_n = 0 or v_n > 8 then
    return;
  end if;
  for v_i in 1 .. v_n loop
    v_words := null;
    select array[c.word], array[1::real], c.products into v_words, v_close, v_held
      from private.catalog_words c where c.business_id = _business_id and c.word = v_tokens[v_i];
    if v_words is null then
      select array_agg(m.word order by m.rank), array_agg(m.close order by m.rank), sum(m.products)
        into v_words, v_close, v_held
        from (select c.word, c.products, extensions.similarity(c.word, v_tokens[v_i]) as close,
                     row_number() over (order by c.word like v_tokens[v_i] || '%' desc,
                                                 extensions.similarity(c.word, v_tokens[v_i]) desc, c.word) as rank
                from private.catalog_words c
               where c.business_id = _business_id
                 and (c.word like v_tokens[v_i] || '%' or c.word operator(extensions.%) v_tokens[v_i])
               order by rank
               limit 5) m;
    end if;
    if v_words is null then
      return;  -- a typed word like nothing in the catalog: no product can match every word
    end if;
    -- Words are letters and digits only: nothing to escape in the regular expression.
    v_patterns := v_patterns || ('(' || array_to_string(v_words, '|') || ')');
    v_cw := v_cw || v_words;
    v_cs := v_cs || v_close;
    v_ct := v_ct || array_fill(v_i, array[cardinality(v_words)]);
    if v_least is null or v_held < v_least then
      v_least := v_held;
      v_driver := v_words;
    end if;
  end loop;

  -- The candidates, each scored as it is read: one plain ILIKE per driving word, so the name's trigram index
  -- serves each (an OR with the brand, or ILIKE ANY (array), made PGlite's planner scan the whole table; ADR
  -- 0152), then a substring test per correction on that row (no trigram similarity of the name). Words are
  -- letters and digits only: nothing to escape.
  foreach v_word in array v_driver loop
    select v_ids || array_agg(p.id), v_names || array_agg(p.name), v_scores || array_agg(s.score)
      into v_ids, v_names, v_scores
      from public.products p
      cross join lateral (
        -- Null unless every typed word is matched by a correction; else the mean of the best closeness per word.
        select case when count(*) = v_n then (sum(b.best) / v_n)::real end as score
          from (select max(c.close) as best
                  from unnest(v_cw, v_ct, v_cs) as c (word, token, close)
                 where strpos(lower(concat_ws(' ', p.name, p.brand)), c.word) > 0
                 group by c.token) b) s
     where p.business_id = _business_id and p.name ilike '%' || v_word || '%'
       -- The same test as the score's, as a filter of the scan: it also keeps PGlite's planner on the trigram
       -- index (without it, it scanned all products for a word in 1,000 of 50,000 names).
       and concat_ws(' ', p.name, p.brand) operator(pg_catalog.~*) all (v_patterns)
       and (_include_archived or p.archived_at is null) and s.score is not null;
  end loop;
  -- The driving words are only in brands: the brand's trigram index, only then.
  if cardinality(v_ids) = 0 then
    foreach v_word in array v_driver loop
      select v_ids || array_agg(p.id), v_names || array_agg(p.name), v_scores || array_agg(s.score)
        into v_ids, v_names, v_scores
        from public.products p
        cross join lateral (
          select case when count(*) = v_n then (sum(b.best) / v_n)::real end as score
            from (select max(c.close) as best
                    from unnest(v_cw, v_ct, v_cs) as c (word, token, close)
                   where strpos(lower(concat_ws(' ', p.name, p.brand)), c.word) > 0
                   group by c.token) b) s
       where p.business_id = _business_id and p.brand ilike '%' || v_word || '%'
         and concat_ws(' ', p.name, p.brand) operator(pg_catalog.~*) all (v_patterns)
         and (_include_archived or p.archived_at is null) and s.score is not null;
    end loop;
  end if;
  if cardinality(v_ids) = 0 then
    return;
  end if;

  return query
    with qualified as materialized (
      -- A product found by two driving words once.
      select q.id, min(q.name) as name, max(q.score) as score
        from unnest(v_ids, v_names, v_scores) as q (id, name, score)
       group by q.id
    ), ranked as (
      -- The first _offset + _limit products with a variant to show, by score then name, and those tied with the
      -- last: the sort is of products' (score, name) only; the variants are read for these alone.
      select q.id, q.score
        from (select q.id, q.name, q.score from qualified q order by q.score desc, q.name offset 0) q
       where exists (select 1 from public.variants v
                      where v.product_id = q.id and (_include_archived or v.archived_at is null))
       order by q.score desc, q.name
       fetch first (v_take) rows with ties
    )
    select v.id, r.score,
           -- The pager's total: every qualifying product's variants (an index probe each, no sort).
           (select count(*) from qualified q join public.variants v2 on v2.product_id = q.id
             where _include_archived or v2.archived_at is null)
      from ranked r
      join public.variants v on v.product_id = r.id
     where _include_archived or v.archived_at is null;
end;
$$;
comment on function private.catalog_typo_page(uuid,text,integer,integer,boolean) is 'The typo step of search_catalog: the variants of the best offset + limit products whose name or brand holds a correction of every typed word, scored by how close the corrections are. Called by search_catalog only.';
revoke all on function private.catalog_typo_page(uuid,text,integer,integer,boolean) from public;

-- The text search of search_catalog, its statement unchanged except the typo step (private.catalog_typo_page,
-- which returns only what the page needs and the total of its matches). Exact candidates (barcode, SKU prefix,
-- name substring) first; typo tolerance only when nothing matched as typed. The caller checks membership of
-- _business_id and the bounds of the text, limit and offset (search_catalog does).
create or replace function private.catalog_search_text(
  _business_id uuid, _q text, _limit int, _offset int, _include_archived boolean
)
returns table (
  variant_id uuid, product_id uuid, product_name text, category_id uuid, brand text, unit text, sku text,
  option1 text, option2 text, option3 text, price bigint, barcode text, has_lots boolean, track_stock boolean,
  archived boolean, total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_like text := replace(replace(replace(_q, '\', '\\'), '%', '\%'), '_', '\_');
  -- SKU prefix as a range, so the (business_id, sku text_pattern_ops) index serves it even in a generic plan.
  v_sku text := upper(_q);
  v_sku_end text := left(upper(_q), -1) || chr(ascii(right(upper(_q), 1)) + 1);
begin
  return query
    with exact as materialized (
      select bc.variant_id as id, 4::real as score
        from public.barcodes bc where bc.business_id = _business_id and bc.code = _q
      union all
      select v.id, case when v.sku = v_sku then 4 else 3 end::real
        from public.variants v
       where v.business_id = _business_id
         and v.sku operator(pg_catalog.~>=~) v_sku and v.sku operator(pg_catalog.~<~) v_sku_end
      union all
      select v.id, case when p.name ilike v_like || '%' then 2 else extensions.similarity(p.name, _q) end::real
        from public.products p join public.variants v on v.product_id = p.id
       where p.business_id = _business_id and p.name ilike '%' || v_like || '%'
    ), fuzzy as (
      -- Typo tolerance only when nothing matched as typed (a one-time filter: the function is not called then).
      -- Only the variants the page can need, each row carrying the total of all matches.
      select f.variant_id as id, f.score, f.total
        from private.catalog_typo_page(_business_id, _q, _limit, _offset, _include_archived) f
       where not exists (select 1 from exact)
    ), best as (
      select c.id, max(c.score) as score, max(c.total) as total
        from (select e.id, e.score, null::bigint as total from exact e
              union all select f.id, f.score, f.total from fuzzy f) c
       group by c.id
    ), page as (
      select b.id, b.score, p.name, v.sku, coalesce(b.total, count(*) over ()) as total
        from best b
        join public.variants v on v.id = b.id
        join public.products p on p.id = v.product_id
       where _include_archived or (v.archived_at is null and p.archived_at is null)
       order by b.score desc, p.name, v.sku
       limit _limit offset _offset
    )
    select v.id, p.id, p.name, p.category_id, p.brand, p.unit, v.sku, v.option1, v.option2, v.option3, v.price,
           (select bc.code from public.barcodes bc where bc.variant_id = v.id order by bc.created_at, bc.code limit 1),
           p.has_lots, p.track_stock, (v.archived_at is not null or p.archived_at is not null), page.total
      from page
      join public.variants v on v.id = page.id
      join public.products p on p.id = v.product_id
     order by page.score desc, page.name, page.sku;
end;
$$;
revoke all on function private.catalog_search_text(uuid,text,integer,integer,boolean) from public;

-- search_catalog (20261124120000_catalog_search_words): same signature, checks, results and order. Browsing is
-- unchanged; a search by text is private.catalog_search_text.
create or replace function public.search_catalog(
  _business_id uuid, _query text default null, _limit int default 50, _offset int default 0,
  _include_archived boolean default false
)
returns table (
  variant_id uuid, product_id uuid, product_name text, category_id uuid, brand text, unit text, sku text,
  option1 text, option2 text, option3 text, price bigint, barcode text, has_lots boolean, track_stock boolean,
  archived boolean, total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_q text := nullif(btrim(coalesce(_query, '')), '');
  v_limit int := least(greatest(coalesce(_limit, 50), 1), 200);
  v_offset int := greatest(coalesce(_offset, 0), 0);
begin
  if char_length(v_q) > 100 then
    raise exception 'search text is too long (100 characters at most)' using errcode = '22023';
  end if;
  -- The select policy of products, variants and barcodes, once: a member of the (unsuspended) business.
  if _business_id is null or not exists (select 1 from private.my_business_ids() m where m = _business_id) then
    return;
  end if;

  if v_q is not null then
    return query
      select * from private.catalog_search_text(_business_id, v_q, v_limit, v_offset, coalesce(_include_archived, false));
    return;
  end if;

  return query
    -- Products in name order from (business_id, name), each product's variants by SKU: an incremental sort
    -- that stops after the page instead of sorting the whole catalog.
    with page as (
      select v.id, p.name, v.sku
        from public.products p
        cross join lateral (
          select v.id, v.sku from public.variants v
           where v.product_id = p.id and (_include_archived or v.archived_at is null)) v
       where p.business_id = _business_id
         and (_include_archived or p.archived_at is null)
       order by p.name, v.sku
       limit v_limit offset v_offset
    ), total as (
      -- Live variants, less the live variants of archived products (a partial index finds those).
      select (select count(*) from public.variants v
               where v.business_id = _business_id and (_include_archived or v.archived_at is null))
           - case when _include_archived then 0
                  else (select count(*) from public.products p join public.variants v on v.product_id = p.id
                         where p.business_id = _business_id and p.archived_at is not null and v.archived_at is null)
             end as n
    )
    select v.id, p.id, p.name, p.category_id, p.brand, p.unit, v.sku, v.option1, v.option2, v.option3, v.price,
           (select bc.code from public.barcodes bc where bc.variant_id = v.id order by bc.created_at, bc.code limit 1),
           p.has_lots, p.track_stock, (v.archived_at is not null or p.archived_at is not null), total.n
      from page
      join public.variants v on v.id = page.id
      join public.products p on p.id = v.product_id
      cross join total
     order by page.name, page.sku;
end;
$$;
revoke all on function public.search_catalog(uuid,text,integer,integer,boolean) from public;
grant execute on function public.search_catalog(uuid,text,integer,integer,boolean) to authenticated;

-- products_guard (20261122120000_catalog.sql): a new product needs room for one item; restoring a product brings
-- back its unarchived variants.
create or replace function private.products_guard()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.business_id is distinct from old.business_id then
    raise exception 'a product cannot move to another business' using errcode = '42501';
  end if;
  if tg_op = 'INSERT' and new.archived_at is null then
    perform private.assert_items_allow(new.business_id, 1);
  elsif tg_op = 'UPDATE' and old.archived_at is not null and new.archived_at is null then
    perform private.assert_items_allow(new.business_id,
      (select count(*) from public.variants v where v.product_id = new.id and v.archived_at is null));
  end if;
  return new;
end;
$$;
comment on function private.products_guard() is 'Products stay in their business; creating or restoring one is limited by the plan''s sellable items.';
revoke all on function private.products_guard() from public;

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
revoke all on function private.catalog_import_barcode_kind(text) from public;

-- Minor digits per currency, as the register's Intl knows them (CLDR): 0 for JPY and HUF, 3 for KWD.
-- tests/db/scale-barcode-parity.test.ts compares it with Intl for every code the currency_code domain allows.
create or replace function private.currency_digits(_currency text)
returns int
language sql
immutable
set search_path = ''
as $$
  select case
    when upper(_currency) in ('AFN', 'ALL', 'BIF', 'CLP', 'COP', 'DJF', 'GNF', 'HUF', 'IDR', 'IQD', 'IRR', 'ISK', 'JPY',
                              'KMF', 'KPW', 'KRW', 'LAK', 'LBP', 'MGA', 'MMK', 'PKR', 'PYG', 'RWF', 'SLL', 'SOS', 'SYP',
                              'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF', 'YER') then 0
    when upper(_currency) in ('BHD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND') then 3
    else 2 end;
$$;
revoke all on function private.currency_digits(text) from public;

-- A 13-digit label read by one pattern: its item code, its value as digits, and the item's own barcode (value
-- zeroed, check digit recomputed). Null when the code is not 13 digits with a right check digit or not this
-- pattern's prefix.
create or replace function private.scale_barcode_parse(_code text, _pattern text)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  p record;
  v_value_len int;
  v_base text;
begin
  select * into p from private.scale_pattern_parts(_pattern);
  if p.o_prefix is null or coalesce(_code, '') !~ '^[0-9]{13}$'
     or private.gtin_check_digit(left(_code, 12)) <> right(_code, 1)::int or left(_code, char_length(p.o_prefix)) <> p.o_prefix then
    return null;
  end if;
  v_value_len := p.o_int_digits + p.o_decimals;
  v_base := left(_code, 12 - v_value_len) || repeat('0', v_value_len);
  return jsonb_build_object(
    'item_code', substr(_code, char_length(p.o_prefix) + 1, p.o_code_len),
    'value_digits', substr(_code, 13 - v_value_len, v_value_len),
    'decimals', p.o_decimals,
    'base_code', v_base || private.gtin_check_digit(v_base)::text);
end;
$$;
revoke all on function private.scale_barcode_parse(text,text) from public;

-- A label read by the business's rules, the longest prefix first (a '21' rule before a '2' rule).
create or replace function private.scale_barcode_match(_business_id uuid, _code text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select x.parsed || jsonb_build_object('rule_id', r.id, 'kind', r.kind)
    from public.scale_barcode_rules r
    cross join lateral (select private.scale_barcode_parse(_code, r.pattern) as parsed) x
   where r.business_id = _business_id and x.parsed is not null
   order by char_length((private.scale_pattern_parts(r.pattern)).o_prefix) desc, r.pattern
   limit 1;
$$;
revoke all on function private.scale_barcode_match(uuid,text) from public;

-- The quantity a price label stands for at a unit price: the label's amount over the price, to 3 decimals,
-- half away from zero (shared/lib/scale-barcode.ts quantityForPrice).
create or replace function private.scale_price_qty(_label_minor bigint, _unit_price bigint)
returns numeric
language sql
immutable
set search_path = ''
as $$
  select case when coalesce(_unit_price, 0) <= 0 then null else round(_label_minor::numeric / _unit_price, 3) end;
$$;
revoke all on function private.scale_price_qty(bigint,bigint) from public;

-- What is wrong with a sale line that names a scale label (null: nothing, or no label).
create or replace function private.scale_line_problem(_business_id uuid, _line jsonb, _qty numeric, _unit_price bigint,
                                                      _currency text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_label text;
  v_match jsonb;
  v_digits int;
  v_expected numeric;
begin
  if not (_line ? 'scale_label') or jsonb_typeof(_line -> 'scale_label') = 'null' then
    return null;
  end if;
  v_label := _line ->> 'scale_label';
  v_match := private.scale_barcode_match(_business_id, v_label);
  if v_match is null then
    return format('%s is not a scale label of this business (or its check digit is wrong)', left(v_label, 20));
  end if;
  if not exists (select 1 from public.barcodes b
                  where b.business_id = _business_id and b.code = v_match ->> 'base_code'
                    and b.variant_id::text = lower(_line ->> 'variant_id')) then
    return format('the scale label is for the item with barcode %s, not this one', v_match ->> 'base_code');
  end if;
  if v_match ->> 'kind' = 'weight' then
    v_expected := (v_match ->> 'value_digits')::numeric / power(10::numeric, (v_match ->> 'decimals')::int);
  else
    v_digits := private.currency_digits(_currency);
    if (v_match ->> 'decimals')::int > v_digits then
      return format('the label''s price has %s decimals but %s has %s', v_match ->> 'decimals', _currency, v_digits);
    end if;
    v_expected := private.scale_price_qty(
      (v_match ->> 'value_digits')::bigint * power(10::numeric, v_digits - (v_match ->> 'decimals')::int)::bigint, _unit_price);
  end if;
  if v_expected is null or v_expected <> _qty then
    return format('the label says %s but the line has %s', coalesce(v_expected::text, 'no quantity'), _qty);
  end if;
  return null;
end;
$$;
revoke all on function private.scale_line_problem(uuid,jsonb,numeric,bigint,text) from public;

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
revoke all on function public.preview_catalog_import(uuid,jsonb,integer) from public;
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

-- The plan: old and new price of each variant (store_id null) and of each store price the caller may set (the
-- store_prices policies' rule), with the variant's cost. Arguments are checked by markdown_collection.
create or replace function private.markdown_plan(_business_id uuid, _collection_id uuid, _kind text, _value numeric)
returns table (variant_id uuid, store_id uuid, sku text, product_name text, option1 text, option2 text,
               old_price bigint, new_price bigint, cost bigint)
language sql
stable
security definer
set search_path = ''
as $$
  with variants as (
    select v.id, v.sku, p.name, v.option1, v.option2, v.price, vc.cost
      from public.products p
      join public.variants v on v.product_id = p.id and v.business_id = p.business_id
      left join public.variant_costs vc on vc.variant_id = v.id
     where p.collection_id = _collection_id and p.business_id = _business_id
       and p.archived_at is null and v.archived_at is null
  ),
  prices as (
    select v.id, null::uuid as store_id, v.price from variants v
    union all
    select sp.variant_id, sp.store_id, sp.price
      from public.store_prices sp
     where sp.business_id = _business_id and sp.variant_id in (select v.id from variants v)
       and (_business_id in (select private.my_full_access_business_ids())
            or sp.store_id in (select private.my_listed_store_ids()))
  )
  select v.id, x.store_id, v.sku, v.name, v.option1, v.option2, x.price,
         case when _kind = 'percent' then round(x.price * (100 - _value) / 100)::bigint
              else least(x.price, _value::bigint) end,
         v.cost
    from prices x join variants v on v.id = x.id;
$$;
revoke all on function private.markdown_plan(uuid,uuid,text,numeric) from public;

create or replace function public.markdown_collection(_collection_id uuid, _kind text, _value numeric,
                                                      _apply boolean default false, _below_cost_ok boolean default false)
returns table (variant_id uuid, store_id uuid, sku text, product_name text, option1 text, option2 text,
               old_price bigint, new_price bigint)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_collection public.collections;
  v_below text;
  v_plan jsonb;
  v_count int;
  v_store_count int;
begin
  select c.* into v_collection from public.collections c where c.id = _collection_id;
  if v_collection.id is null then
    raise exception 'no such collection' using errcode = '42501';
  end if;
  perform private.assert_role(v_collection.business_id, array['owner', 'manager']);
  if _kind is null or _kind not in ('percent', 'price') then
    raise exception 'a markdown is a percentage off (percent) or a fixed price (price)' using errcode = '22023';
  elsif _kind = 'percent' and (_value is null or _value <= 0 or _value >= 100 or _value <> round(_value, 2)) then
    raise exception 'the percentage off must be more than 0 and less than 100 (at most 2 decimals)' using errcode = '22023';
  elsif _kind = 'price' and (_value is null or _value < 0 or _value <> trunc(_value) or _value > 999999999999) then
    raise exception 'the fixed price must be a whole number of minor units, 0 or more' using errcode = '22023';
  end if;
  -- The prices are locked first so the plan, the cost check and the writes see the same figures.
  perform 1 from public.variants v
    join public.products p on p.id = v.product_id and p.business_id = v.business_id
   where p.collection_id = v_collection.id and p.business_id = v_collection.business_id
   for update of v;

  -- One plan, read once: the cost check, the writes and the answer all use it.
  select coalesce(jsonb_agg(to_jsonb(m) order by m.product_name, m.sku, m.store_id nulls first), '[]'::jsonb)
    into v_plan
    from private.markdown_plan(v_collection.business_id, v_collection.id, _kind, _value) m;

  if not coalesce(_below_cost_ok, false) then
    select string_agg(distinct m.sku, ', ' order by m.sku) into v_below
      from jsonb_to_recordset(v_plan) as m (sku text, old_price bigint, new_price bigint, cost bigint)
     where m.cost is not null and m.new_price < m.cost and m.new_price < m.old_price;
    if v_below is not null then
      raise exception 'the markdown would sell below cost: %', v_below
        using errcode = '22023', hint = 'lower the markdown, or confirm selling below cost';
    end if;
  end if;

  if coalesce(_apply, false) then
    update public.variants v set price = m.new_price
      from jsonb_to_recordset(v_plan) as m (variant_id uuid, store_id uuid, old_price bigint, new_price bigint)
     where m.store_id is null and v.id = m.variant_id and m.new_price <> m.old_price;
    get diagnostics v_count = row_count;
    update public.store_prices sp set price = m.new_price
      from jsonb_to_recordset(v_plan) as m (variant_id uuid, store_id uuid, old_price bigint, new_price bigint)
     where m.store_id is not null and sp.store_id = m.store_id and sp.variant_id = m.variant_id
       and m.new_price <> m.old_price
       -- A store price changed since the plan was read keeps its new figure (not locked above, unlike the variants).
       and sp.price = m.old_price;
    get diagnostics v_store_count = row_count;
    perform private.log_activity(v_collection.business_id, null, 'collection.marked_down', 'collection',
      v_collection.id, null,
      jsonb_build_object('name', v_collection.name, 'kind', _kind, 'value', _value, 'variants_changed', v_count,
                         'store_prices_changed', v_store_count, 'below_cost_ok', coalesce(_below_cost_ok, false)));
  end if;

  return query
    select m.variant_id, m.store_id, m.sku, m.product_name, m.option1, m.option2, m.old_price, m.new_price
      from jsonb_to_recordset(v_plan) as m (variant_id uuid, store_id uuid, sku text, product_name text, option1 text,
                                            option2 text, old_price bigint, new_price bigint);
end;
$$;
comment on function public.markdown_collection(uuid,text,numeric,boolean,boolean) is 'Owners and managers (42501 otherwise): a collection''s variant prices and store prices (the stores the caller may use) to percent off or a fixed price, never raised; _apply false previews. All or nothing: refused (22023) if a price would go below cost unless _below_cost_ok. Each price change is audited by the variant and store price triggers, the markdown as collection.marked_down (ADR 0340).';
revoke all on function public.markdown_collection(uuid,text,numeric,boolean,boolean) from public;
grant execute on function public.markdown_collection(uuid,text,numeric,boolean,boolean) to authenticated;

-- The main picture: one statement cannot swap it (the unique index is checked row by row), so the old main is
-- cleared first, then the new one set, in one call. Security invoker: the table's policies decide (a cashier's
-- update reaches no row and is refused).
create or replace function public.set_main_product_image(_image_id uuid)
returns void
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_product uuid;
begin
  select i.product_id into v_product from public.product_images i where i.id = _image_id;
  if v_product is null then
    raise exception 'picture not found' using errcode = 'PT404';
  end if;
  update public.product_images set is_main = false where product_id = v_product and is_main and id <> _image_id;
  update public.product_images set is_main = true where id = _image_id;
  if not found then
    raise exception 'only owners and managers choose the main picture' using errcode = '42501';
  end if;
end;
$$;
comment on function public.set_main_product_image(uuid) is 'Makes the picture its product''s main one (and no other). Owners and managers (the table''s policies, security invoker).';
revoke all on function public.set_main_product_image(uuid) from public;
grant execute on function public.set_main_product_image(uuid) to authenticated;
grant execute on function public.set_main_product_image(uuid) to service_role;

create or replace function public.catalog_import_images(_business_id uuid, _rows jsonb)
returns table (row_index int, product_id uuid, image_id uuid, is_main boolean, main_path text, message text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if jsonb_typeof(_rows) is distinct from 'array' or jsonb_array_length(_rows) = 0 then
    raise exception 'the file has no rows' using errcode = '22023';
  end if;
  if jsonb_array_length(_rows) > 500 then
    raise exception 'check at most 500 pictures in one call: send the file in parts' using errcode = '22023';
  end if;
  if exists (select 1 from jsonb_array_elements(_rows) x
              where jsonb_typeof(x) <> 'object' or coalesce(x ->> 'row_index', '') !~ '^[0-9]{1,7}$'
                 or jsonb_typeof(x -> 'path') is distinct from 'string') then
    raise exception 'each row names its row_index and the picture''s path' using errcode = '22023';
  end if;
  return query
    with r as (
      select (x ->> 'row_index')::int as n, x ->> 'path' as path,
             upper(nullif(btrim(coalesce(x ->> 'sku', '')), '')) as sku,
             nullif(btrim(coalesce(x ->> 'product_name', '')), '') as name
        from jsonb_array_elements(_rows) x
    ),
    k as (
      select r.*, coalesce(bysku.id, byname.id) as product,
             exists (select 1 from storage.objects o where o.bucket_id = 'product-images' and o.name = r.path) as stored
        from r
        left join lateral (select v.product_id as id from public.variants v
                            where v.business_id = _business_id and v.sku = r.sku and v.archived_at is null) bysku on r.sku is not null
        left join lateral (select p.id from public.products p
                            where p.business_id = _business_id and p.name = r.name and p.archived_at is null
                            order by p.created_at limit 1) byname on bysku.id is null
    )
    select k.n, k.product, img.id, coalesce(img.is_main, false), main.path,
           case
             when k.path !~~ (_business_id::text || '/_%') then
               'the image_url is in another business''s folder: use a picture of this business'
             when k.path ~ '(^|/)\.\.?(/|$)' or k.path ~ '//' or char_length(k.path) > 1024 then
               'the image_url has an empty, "." or ".." part'
             when not k.stored then
               'there is no picture at this image_url in your product images: upload it first'
           end
      from k
      left join lateral (select i.id, i.is_main from public.product_images i
                          where i.product_id = k.product and i.business_id = _business_id and i.path = k.path) img on true
      left join lateral (select i.path from public.product_images i
                          where i.product_id = k.product and i.business_id = _business_id and i.is_main) main on true
     order by k.n;
end;
$$;
comment on function public.catalog_import_images(uuid,jsonb) is 'Owners and managers: for catalog-import rows with an image_url ({row_index, sku, product_name, path} with path the object''s name in product-images), the row''s product (by SKU, else by name), the product''s picture at that path if any, the product''s main picture now, and the row''s problem (another business''s folder, a "." or ".." part, no such object). Writes nothing.';
revoke all on function public.catalog_import_images(uuid,jsonb) from public;
grant execute on function public.catalog_import_images(uuid,jsonb) to authenticated;

-- ==== Triggers ============================================================================================

create trigger products_set_updated_at before update on public.products
  for each row execute function public.set_updated_at();

create trigger variants_set_updated_at before update on public.variants
  for each row execute function public.set_updated_at();

create trigger variant_costs_set_updated_at before update on public.variant_costs
  for each row execute function public.set_updated_at();

create trigger store_prices_set_updated_at before update on public.store_prices
  for each row execute function public.set_updated_at();

create trigger products_guard before insert or update of archived_at, business_id on public.products
  for each row execute function private.products_guard();

create trigger variants_guard before insert or update on public.variants
  for each row execute function private.variants_guard();

create trigger audit_product after insert or update or delete on public.products
  for each row execute function private.audit_row('product');

create trigger audit_variant after insert or update or delete on public.variants
  for each row execute function private.audit_row('variant');

create trigger catalog_words_inserted after insert on public.products
  referencing new table as new_products
  for each statement execute function private.catalog_words_inserted();

create trigger catalog_words_updated after update on public.products
  referencing old table as old_products new table as new_products
  for each statement execute function private.catalog_words_updated();

create trigger catalog_words_deleted after delete on public.products
  referencing old table as old_products
  for each statement execute function private.catalog_words_deleted();

create trigger audit_store_price after insert or update or delete on public.store_prices
  for each row execute function private.audit_keyed_row('store_price', 'variant_id');

create trigger audit_variant_cost after insert or update or delete on public.variant_costs
  for each row execute function private.audit_keyed_row('variant_cost', 'variant_id');

create trigger audit_barcode after insert or update or delete on public.barcodes
  for each row execute function private.audit_keyed_row('barcode', 'id');

create trigger audit_category after insert or update or delete on public.categories
  for each row execute function private.audit_keyed_row('category', 'id');

create trigger variants_plan_limit before insert or update of archived_at on public.variants
  for each row execute function private.variants_plan_limit();

create trigger audit_scale_barcode_rule after insert or update or delete on public.scale_barcode_rules
  for each row execute function private.audit_keyed_row('scale_barcode_rule', 'id');

create trigger read_only_guard before insert or update or delete on private.catalog_import_keys
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on private.catalog_words
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.barcodes
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.categories
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.products
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.scale_barcode_rules
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.store_prices
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.variant_costs
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.variants
  for each statement execute function private.read_only_guard();

create trigger collections_set_updated_at before update on public.collections
  for each row execute function public.set_updated_at();

create trigger audit_collection after insert or update or delete on public.collections
  for each row execute function private.audit_keyed_row('collection', 'id');

-- Read-only maintenance (docs/adr/0280) on the tables that arrived beside it: collections and product images are
-- business data and wait like the rest. Exempt, with their reasons in tests/db/read-only-mode.test.ts: the till's
-- PINs and switches (the counter keeps selling during maintenance, and a wrong PIN must still count toward the
-- lockout), the registers' outbox reports (what waits to sync is what a manager needs to see then), and the
-- business export's job row (an export only reads the business).
create trigger read_only_guard before insert or update or delete on public.collections
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.product_images
  for each statement execute function private.read_only_guard();

-- ==== Policies ============================================================================================

create policy "categories: members read" on public.categories for select to authenticated
  using (business_id in (select private.my_business_ids()));

create policy "categories: owners and managers insert" on public.categories for insert to authenticated
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "categories: owners and managers delete" on public.categories for delete to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "categories: owners and managers update" on public.categories for update to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])))
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "products: members read" on public.products for select to authenticated
  using (business_id in (select private.my_business_ids()));

create policy "products: owners and managers insert" on public.products for insert to authenticated
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "products: owners and managers delete" on public.products for delete to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "products: owners and managers update" on public.products for update to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])))
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "variants: members read" on public.variants for select to authenticated
  using (business_id in (select private.my_business_ids()));

create policy "variants: owners and managers insert" on public.variants for insert to authenticated
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "variants: owners and managers delete" on public.variants for delete to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "variants: owners and managers update" on public.variants for update to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])))
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "variant_costs: owners and managers read" on public.variant_costs for select to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "variant_costs: owners and managers insert" on public.variant_costs for insert to authenticated
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "variant_costs: owners and managers update" on public.variant_costs for update to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])))
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "barcodes: members read" on public.barcodes for select to authenticated
  using (business_id in (select private.my_business_ids()));

create policy "barcodes: owners and managers insert" on public.barcodes for insert to authenticated
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "barcodes: owners and managers delete" on public.barcodes for delete to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "store_prices: owners and managers insert in their stores" on public.store_prices for insert to authenticated
  with check (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "store_prices: owners and managers update in their stores" on public.store_prices for update to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))))
  with check (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "store_prices: members read in their stores" on public.store_prices for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids())));

create policy "store_prices: owners and managers delete in their stores" on public.store_prices for delete to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "scale_barcode_rules: members read" on public.scale_barcode_rules for select to authenticated
  using (business_id in (select private.my_business_ids()));

create policy "scale_barcode_rules: owners and managers insert" on public.scale_barcode_rules for insert to authenticated
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "scale_barcode_rules: owners and managers delete" on public.scale_barcode_rules for delete to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "product images: members read" on public.product_images for select to authenticated
  using (business_id in (select private.my_business_ids()));

create policy "product images: owners and managers add" on public.product_images for insert to authenticated
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "product images: owners and managers order" on public.product_images for update to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])))
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "product images: owners and managers remove" on public.product_images for delete to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "collections: members read" on public.collections for select to authenticated
  using (business_id in (select private.my_business_ids()));

create policy "collections: owners and managers insert" on public.collections for insert to authenticated
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "collections: owners and managers update" on public.collections for update to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])))
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "collections: owners and managers delete" on public.collections for delete to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));
