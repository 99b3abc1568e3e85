-- Catalog and inventory (issue 12): products with options and variants, barcodes, per-store prices, lots,
-- suppliers, purchase orders, transfers, reorder points, and stock as an append-only ledger with balances.
--
-- Who may do what is docs/permissions.md (Catalog, Stock, Cost prices rows) and ADR 0110:
-- * every member reads the catalog (sell prices); owners and managers write it;
-- * cost prices live in variant_costs, and the ledger and purchase order lines (which carry unit costs) are read
--   by owners and managers only: a cashier's API request never returns a cost;
-- * stock changes only through the security definer functions of 20261122120100_inventory_functions.sql,
--   which write the ledger row, the balance delta and the activity entry in one transaction. Nobody (not even
--   the service role) updates or deletes a ledger row; balances have no write grant at all.
-- Hosted Supabase no longer grants new tables to the API roles, so every grant below is explicit.

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
revoke all on function private.gtin_check_digit(text), private.barcode_is_valid(text, text) from public, anon;
grant execute on function private.gtin_check_digit(text), private.barcode_is_valid(text, text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------
create table public.categories (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null references public.businesses (id) on delete cascade,
  name public.entity_name not null,
  created_at timestamptz not null default now(),
  unique (business_id, name),
  unique (id, business_id)
);
alter table public.categories enable row level security;
comment on table public.categories is 'Members read; owners and managers create, rename and delete.';

create table public.products (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null references public.businesses (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 200),
  description text check (char_length(description) <= 2000),
  category_id uuid,
  brand text check (char_length(brand) <= 100),
  unit text not null default 'each' check (unit in ('each', 'kg')),
  -- null: the store's default tax rate applies.
  tax_rate public.tax_rate,
  track_stock boolean not null default true,
  has_lots boolean not null default false,
  requires_expiry boolean not null default false,
  option1_name text check (char_length(btrim(option1_name)) between 1 and 40),
  option2_name text check (char_length(btrim(option2_name)) between 1 and 40),
  option3_name text check (char_length(btrim(option3_name)) between 1 and 40),
  archived_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, business_id),
  foreign key (category_id, business_id) references public.categories (id, business_id) on delete set null (category_id),
  constraint products_expiry_needs_lots check (not requires_expiry or has_lots),
  constraint products_options_in_order check ((option2_name is null or option1_name is not null)
                                               and (option3_name is null or option2_name is not null))
);
alter table public.products enable row level security;
comment on table public.products is
  'Members read (cashiers sell from it); owners and managers create, edit and archive. Deleting works only '
  'while no stock movement names a variant; afterwards archive. Creation is limited by the plan (max_products).';
create index products_business_name_idx on public.products (business_id, name);
create index products_category_idx on public.products (category_id, business_id);
create index products_name_trgm_idx on public.products using gin (name extensions.gin_trgm_ops);
create trigger products_set_updated_at before update on public.products
  for each row execute function public.set_updated_at();

create table public.variants (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null,
  product_id uuid not null,
  option1 text check (char_length(btrim(option1)) between 1 and 60),
  option2 text check (char_length(btrim(option2)) between 1 and 60),
  option3 text check (char_length(btrim(option3)) between 1 and 60),
  sku text not null check (sku ~ '^[A-Z0-9][A-Z0-9._/-]{0,39}$'),
  -- Sell price in minor units of the store currency (cents); store_prices overrides it per store.
  price bigint not null default 0 check (price >= 0),
  archived_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (business_id, sku),
  unique (id, business_id),
  foreign key (product_id, business_id) references public.products (id, business_id) on delete cascade
);
alter table public.variants enable row level security;
comment on table public.variants is
  'One sellable item (a product''s size x colour, or the product itself). Members read; owners and managers '
  'write. The SKU is unique in the business and suggested when left empty.';
create index variants_product_idx on public.variants (product_id, business_id);
create index variants_sku_pattern_idx on public.variants (business_id, sku text_pattern_ops);
create trigger variants_set_updated_at before update on public.variants
  for each row execute function public.set_updated_at();

-- Cost prices apart from the catalog (ADR 0110): only owners and managers have a policy here.
create table public.variant_costs (
  variant_id uuid primary key,
  business_id uuid not null,
  -- Moving-average unit cost in minor units; receiving stock recomputes it.
  cost bigint not null default 0 check (cost >= 0),
  updated_at timestamptz not null default now(),
  foreign key (variant_id, business_id) references public.variants (id, business_id) on delete cascade
);
alter table public.variant_costs enable row level security;
comment on table public.variant_costs is
  'Owners and managers read and set a variant''s cost; receipts update it as a moving average. Cashiers: nothing.';
create index variant_costs_variant_business_idx on public.variant_costs (variant_id, business_id);
create trigger variant_costs_set_updated_at before update on public.variant_costs
  for each row execute function public.set_updated_at();

create table public.barcodes (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null,
  variant_id uuid not null,
  code text not null,
  kind text not null check (kind in ('ean13', 'upca', 'ean8', 'internal')),
  created_at timestamptz not null default now(),
  unique (business_id, code),
  foreign key (variant_id, business_id) references public.variants (id, business_id) on delete cascade,
  constraint barcodes_check_digit check (private.barcode_is_valid(code, kind))
);
alter table public.barcodes enable row level security;
comment on table public.barcodes is
  'Several per variant, unique in the business, check digit validated. Members read; owners and managers write.';
create index barcodes_variant_idx on public.barcodes (variant_id, business_id);

create sequence private.internal_barcode_seq;
revoke all on sequence private.internal_barcode_seq from public, anon, authenticated;

create table public.store_prices (
  business_id uuid not null,
  store_id uuid not null,
  variant_id uuid not null,
  price bigint not null check (price >= 0),
  updated_at timestamptz not null default now(),
  primary key (store_id, variant_id),
  foreign key (store_id, business_id) references public.stores (id, business_id) on delete cascade,
  foreign key (variant_id, business_id) references public.variants (id, business_id) on delete cascade
);
alter table public.store_prices enable row level security;
comment on table public.store_prices is
  'A store''s own sell price for a variant. Members read those of stores they may use; owners and managers set them.';
create index store_prices_store_business_idx on public.store_prices (store_id, business_id);
create index store_prices_variant_idx on public.store_prices (variant_id, business_id);
create trigger store_prices_set_updated_at before update on public.store_prices
  for each row execute function public.set_updated_at();

create table public.lots (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null,
  variant_id uuid not null,
  lot_number text not null check (char_length(btrim(lot_number)) between 1 and 60),
  expires_on date,
  created_at timestamptz not null default now(),
  unique (variant_id, lot_number),
  foreign key (variant_id, business_id) references public.variants (id, business_id) on delete cascade
);
alter table public.lots enable row level security;
comment on table public.lots is
  'Batches of a lot-tracked variant with their expiry. Members read; created by receiving stock only.';
create index lots_variant_business_idx on public.lots (variant_id, business_id);
create index lots_business_expiry_idx on public.lots (business_id, expires_on);

create table public.suppliers (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null references public.businesses (id) on delete cascade,
  name public.entity_name not null,
  contact_name text check (char_length(contact_name) <= 100),
  email public.email_address,
  phone public.phone_number,
  notes public.short_text,
  archived_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, business_id)
);
alter table public.suppliers enable row level security;
comment on table public.suppliers is 'Owners and managers read and write; cashiers nothing.';
create index suppliers_business_name_idx on public.suppliers (business_id, name);
create trigger suppliers_set_updated_at before update on public.suppliers
  for each row execute function public.set_updated_at();

create table public.purchase_orders (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null,
  store_id uuid not null,
  supplier_id uuid not null,
  status text not null default 'draft'
    check (status in ('draft', 'ordered', 'partly_received', 'received', 'closed')),
  notes public.short_text,
  expected_on date,
  ordered_at timestamptz,
  received_at timestamptz,
  closed_at timestamptz,
  created_by uuid default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, business_id),
  foreign key (store_id, business_id) references public.stores (id, business_id) on delete cascade,
  foreign key (supplier_id, business_id) references public.suppliers (id, business_id)
);
alter table public.purchase_orders enable row level security;
comment on table public.purchase_orders is
  'Owners and managers of the store read and write drafts, order and close; receive_purchase_order receives.';
create index purchase_orders_store_idx on public.purchase_orders (store_id, business_id);
create index purchase_orders_supplier_idx on public.purchase_orders (supplier_id, business_id);
create index purchase_orders_business_idx on public.purchase_orders (business_id, created_at desc);
create trigger purchase_orders_set_updated_at before update on public.purchase_orders
  for each row execute function public.set_updated_at();

create table public.purchase_order_lines (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null,
  purchase_order_id uuid not null,
  variant_id uuid not null,
  qty_ordered numeric(12, 3) not null check (qty_ordered > 0),
  qty_received numeric(12, 3) not null default 0 check (qty_received >= 0),
  unit_cost bigint not null default 0 check (unit_cost >= 0),
  unique (purchase_order_id, variant_id),
  foreign key (purchase_order_id, business_id) references public.purchase_orders (id, business_id) on delete cascade,
  foreign key (variant_id, business_id) references public.variants (id, business_id)
);
alter table public.purchase_order_lines enable row level security;
comment on table public.purchase_order_lines is
  'Lines of a purchase order (with unit costs): owners and managers who read the order; editable while draft.';
create index purchase_order_lines_po_idx on public.purchase_order_lines (purchase_order_id, business_id);
create index purchase_order_lines_variant_idx on public.purchase_order_lines (variant_id, business_id);

create table public.transfers (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null,
  from_store_id uuid not null,
  to_store_id uuid not null,
  status text not null default 'sent' check (status in ('sent', 'received')),
  note public.short_text,
  sent_by uuid,
  sent_at timestamptz not null default now(),
  received_by uuid,
  received_at timestamptz,
  unique (id, business_id),
  check (from_store_id <> to_store_id),
  foreign key (from_store_id, business_id) references public.stores (id, business_id) on delete cascade,
  foreign key (to_store_id, business_id) references public.stores (id, business_id) on delete cascade
);
alter table public.transfers enable row level security;
comment on table public.transfers is
  'Stock sent between two stores of a business. Owners and managers of either store read; written only by '
  'send_transfer and receive_transfer.';
create index transfers_from_idx on public.transfers (from_store_id, business_id);
create index transfers_to_idx on public.transfers (to_store_id, business_id);

create table public.transfer_lines (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null,
  transfer_id uuid not null,
  variant_id uuid not null,
  lot_id uuid references public.lots (id),
  qty_sent numeric(12, 3) not null check (qty_sent > 0),
  qty_received numeric(12, 3) check (qty_received >= 0),
  qty_damaged numeric(12, 3) check (qty_damaged >= 0),
  qty_missing numeric(12, 3) check (qty_missing >= 0),
  foreign key (transfer_id, business_id) references public.transfers (id, business_id) on delete cascade,
  foreign key (variant_id, business_id) references public.variants (id, business_id)
);
alter table public.transfer_lines enable row level security;
comment on table public.transfer_lines is 'Lines of a transfer; same readers as transfers; written by its functions.';
create index transfer_lines_transfer_idx on public.transfer_lines (transfer_id, business_id);
create index transfer_lines_variant_idx on public.transfer_lines (variant_id, business_id);
create index transfer_lines_lot_idx on public.transfer_lines (lot_id);

create table public.reorder_points (
  business_id uuid not null,
  store_id uuid not null,
  variant_id uuid not null,
  reorder_point numeric(12, 3) not null check (reorder_point >= 0),
  target_level numeric(12, 3) not null,
  primary key (store_id, variant_id),
  check (target_level >= reorder_point),
  foreign key (store_id, business_id) references public.stores (id, business_id) on delete cascade,
  foreign key (variant_id, business_id) references public.variants (id, business_id) on delete cascade
);
alter table public.reorder_points enable row level security;
comment on table public.reorder_points is
  'When to reorder (on hand <= reorder_point) and up to which level. Owners and managers of the store.';
create index reorder_points_store_business_idx on public.reorder_points (store_id, business_id);
create index reorder_points_variant_idx on public.reorder_points (variant_id, business_id);

-- The ledger. Signed quantities: what entered the store is positive, what left it negative.
create table public.stock_movements (
  id bigint generated always as identity primary key,
  business_id uuid not null references public.businesses (id) on delete cascade,
  store_id uuid not null references public.stores (id),
  variant_id uuid not null references public.variants (id),
  lot_id uuid references public.lots (id),
  kind text not null check (kind in ('receive', 'sale', 'refund', 'adjust', 'count', 'transfer_out',
                                     'transfer_in', 'damage', 'opening')),
  qty numeric(12, 3) not null check (qty <> 0),
  reason text check (reason in ('damaged', 'lost', 'theft', 'found', 'correction', 'count', 'expired')),
  unit_cost bigint check (unit_cost >= 0),
  -- occurred_at: the device's clock (a till offline for hours); recorded_at: when the server wrote it.
  occurred_at timestamptz not null default now(),
  recorded_at timestamptz not null default now(),
  actor_id uuid,
  reference_type text check (reference_type in ('purchase_order', 'transfer', 'sale', 'refund', 'import')),
  reference_id uuid,
  note public.short_text,
  constraint stock_movements_sign check (
    case when kind in ('receive', 'refund', 'transfer_in', 'opening') then qty > 0
         when kind in ('sale', 'transfer_out', 'damage') then qty < 0
         else true end),
  constraint stock_movements_adjust_reason check (kind not in ('adjust', 'damage') or reason is not null)
);
alter table public.stock_movements enable row level security;
comment on table public.stock_movements is
  'Append-only stock ledger. Owners and managers of the store read it (it carries unit costs); written only by '
  'the inventory functions; an append-only trigger refuses every update and delete.';
create index stock_movements_store_variant_idx on public.stock_movements (store_id, variant_id, id);
create index stock_movements_variant_idx on public.stock_movements (variant_id);
create index stock_movements_lot_idx on public.stock_movements (lot_id);
create index stock_movements_business_idx on public.stock_movements (business_id, recorded_at desc);

create or replace function private.stock_movements_append_only()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- Only the cascade of a deleted business removes ledger rows.
  if tg_op = 'DELETE' and not exists (select 1 from public.businesses b where b.id = old.business_id) then
    return old;
  end if;
  raise exception 'the stock ledger is append-only: record a correcting movement instead' using errcode = '42501';
end;
$$;
revoke all on function private.stock_movements_append_only() from public, anon, authenticated;
create trigger stock_movements_append_only before update or delete on public.stock_movements
  for each row execute function private.stock_movements_append_only();

create table public.stock_balances (
  id bigint generated always as identity primary key,
  business_id uuid not null references public.businesses (id) on delete cascade,
  store_id uuid not null references public.stores (id),
  variant_id uuid not null references public.variants (id),
  lot_id uuid references public.lots (id),
  qty numeric(12, 3) not null default 0,
  updated_at timestamptz not null default now(),
  constraint stock_balances_key unique nulls not distinct (store_id, variant_id, lot_id)
);
alter table public.stock_balances enable row level security;
comment on table public.stock_balances is
  'On hand per (store, variant, lot), always the sum of the ledger: changed only by the inventory functions with '
  'an atomic delta in the ledger row''s transaction. Members read the stores they may use (cashiers included).';
create index stock_balances_business_variant_idx on public.stock_balances (business_id, variant_id);
create index stock_balances_variant_idx on public.stock_balances (variant_id);
create index stock_balances_lot_idx on public.stock_balances (lot_id);

-- ---------------------------------------------------------------------------------------------------
-- Plan limit on products (counted per product, archived ones excluded), under the business row lock so two
-- concurrent creations are counted one after the other.
create or replace function private.products_guard()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_limits record;
  v_used bigint;
begin
  if tg_op = 'UPDATE' and new.business_id is distinct from old.business_id then
    raise exception 'a product cannot move to another business' using errcode = '42501';
  end if;
  if tg_op = 'INSERT' and new.archived_at is null
     or tg_op = 'UPDATE' and old.archived_at is not null and new.archived_at is null then
    perform 1 from public.businesses b where b.id = new.business_id for update;
    select * into v_limits from private.plan_limits(new.business_id);
    select count(*) into v_used from public.products p
     where p.business_id = new.business_id and p.archived_at is null;
    if v_limits.max_products is not null and v_used >= v_limits.max_products then
      raise exception 'plan limit reached: the % plan allows % products', v_limits.plan, v_limits.max_products
        using errcode = 'SW001',
              detail = format('products:%s/%s', v_used, v_limits.max_products),
              hint = 'Archive a product or upgrade your plan to add another.';
    end if;
  end if;
  return new;
end;
$$;
revoke all on function private.products_guard() from public, anon, authenticated;
create trigger products_guard before insert or update of archived_at, business_id on public.products
  for each row execute function private.products_guard();

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
revoke all on function private.variants_guard() from public, anon, authenticated;
create trigger variants_guard before insert or update on public.variants
  for each row execute function private.variants_guard();

-- Lots of a product that requires expiry must carry one.
create or replace function private.lots_guard()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.variants v join public.products p on p.id = v.product_id
              where v.id = new.variant_id and not p.has_lots) then
    raise exception 'this product is not tracked by lot' using errcode = '22023';
  end if;
  if new.expires_on is null and exists (select 1 from public.variants v join public.products p on p.id = v.product_id
                                         where v.id = new.variant_id and p.requires_expiry) then
    raise exception 'this product needs an expiry date for every lot' using errcode = '22023';
  end if;
  return new;
end;
$$;
revoke all on function private.lots_guard() from public, anon, authenticated;
create trigger lots_guard before insert or update on public.lots
  for each row execute function private.lots_guard();

-- Purchase orders: the status moves draft -> ordered -> (partly_received -> received, by receiving only)
-- -> closed; a draft may be closed (cancelled). Only drafts change supplier or store.
create or replace function private.purchase_orders_guard()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_receiving boolean := coalesce(current_setting('storewise.receiving', true), '') = 'on';
begin
  if tg_op = 'INSERT' then
    if new.status <> 'draft' then
      raise exception 'a purchase order starts as a draft' using errcode = '22023';
    end if;
    return new;
  end if;
  if (new.store_id, new.supplier_id, new.business_id) is distinct from (old.store_id, old.supplier_id, old.business_id)
     and old.status <> 'draft' then
    raise exception 'only a draft purchase order changes supplier or store' using errcode = '22023';
  end if;
  if new.status is distinct from old.status then
    if new.status in ('partly_received', 'received') and not v_receiving then
      raise exception 'receive the goods to mark an order received' using errcode = '22023';
    elsif new.status = 'ordered' and old.status <> 'draft' then
      raise exception 'only a draft can be ordered' using errcode = '22023';
    elsif new.status = 'ordered' and not exists (select 1 from public.purchase_order_lines l where l.purchase_order_id = new.id) then
      raise exception 'add at least one line before ordering' using errcode = '22023';
    elsif new.status = 'draft' then
      raise exception 'an order cannot go back to draft' using errcode = '22023';
    elsif old.status = 'closed' then
      raise exception 'this purchase order is closed' using errcode = '22023';
    end if;
    if new.status = 'ordered' then new.ordered_at := now(); end if;
    if new.status = 'received' then new.received_at := now(); end if;
    if new.status = 'closed' then new.closed_at := now(); end if;
  end if;
  return new;
end;
$$;
revoke all on function private.purchase_orders_guard() from public, anon, authenticated;
create trigger purchase_orders_guard before insert or update on public.purchase_orders
  for each row execute function private.purchase_orders_guard();

create trigger audit_product after insert or update or delete on public.products
  for each row execute function private.audit_row('product');
create trigger audit_variant after insert or update or delete on public.variants
  for each row execute function private.audit_row('variant');
create trigger audit_supplier after insert or update on public.suppliers
  for each row execute function private.audit_row('supplier');
create trigger audit_purchase_order after insert or update on public.purchase_orders
  for each row execute function private.audit_row('purchase_order');

-- ---------------------------------------------------------------------------------------------------
-- Grants and policies.
revoke all on table public.categories, public.products, public.variants, public.variant_costs, public.barcodes,
  public.store_prices, public.lots, public.suppliers, public.purchase_orders, public.purchase_order_lines,
  public.transfers, public.transfer_lines, public.reorder_points, public.stock_movements, public.stock_balances
  from public, anon, authenticated;
-- The back office reads everything and edits the catalog; stock only through the functions (none for it).
grant select, insert, update, delete on table public.categories, public.products, public.variants,
  public.variant_costs, public.barcodes, public.store_prices, public.suppliers, public.purchase_orders,
  public.purchase_order_lines, public.reorder_points to service_role;
grant select on table public.lots, public.transfers, public.transfer_lines, public.stock_movements,
  public.stock_balances to service_role;

grant select, delete on table public.categories, public.products, public.variants, public.barcodes,
  public.store_prices, public.suppliers, public.purchase_order_lines, public.reorder_points to authenticated;
grant select on table public.variant_costs, public.lots, public.purchase_orders, public.transfers,
  public.transfer_lines, public.stock_movements, public.stock_balances to authenticated;
grant delete on table public.purchase_orders to authenticated;
grant insert (business_id, name), update (name) on table public.categories to authenticated;
grant insert (business_id, name, description, category_id, brand, unit, tax_rate, track_stock, has_lots,
              requires_expiry, option1_name, option2_name, option3_name),
      update (name, description, category_id, brand, unit, tax_rate, track_stock, has_lots, requires_expiry,
              option1_name, option2_name, option3_name, archived_at) on table public.products to authenticated;
grant insert (business_id, product_id, option1, option2, option3, sku, price),
      update (option1, option2, option3, sku, price, archived_at) on table public.variants to authenticated;
grant insert (variant_id, business_id, cost), update (cost) on table public.variant_costs to authenticated;
grant insert (business_id, variant_id, code, kind) on table public.barcodes to authenticated;
grant insert (business_id, store_id, variant_id, price), update (price) on table public.store_prices to authenticated;
grant insert (business_id, name, contact_name, email, phone, notes),
      update (name, contact_name, email, phone, notes, archived_at) on table public.suppliers to authenticated;
grant insert (business_id, store_id, supplier_id, notes, expected_on),
      update (store_id, supplier_id, notes, expected_on, status) on table public.purchase_orders to authenticated;
grant insert (business_id, purchase_order_id, variant_id, qty_ordered, unit_cost),
      update (qty_ordered, unit_cost) on table public.purchase_order_lines to authenticated;
grant insert (business_id, store_id, variant_id, reorder_point, target_level),
      update (reorder_point, target_level) on table public.reorder_points to authenticated;

-- Catalog tables: members read, owners and managers write.
do $$
declare
  t text;
begin
  foreach t in array array['categories', 'products', 'variants', 'barcodes'] loop
    execute format($p$create policy "%1$s: members read" on public.%1$I for select to authenticated
      using (business_id in (select private.my_business_ids()))$p$, t);
    execute format($p$create policy "%1$s: owners and managers insert" on public.%1$I for insert to authenticated
      with check (business_id in (select private.my_business_ids(array['owner', 'manager'])))$p$, t);
    execute format($p$create policy "%1$s: owners and managers delete" on public.%1$I for delete to authenticated
      using (business_id in (select private.my_business_ids(array['owner', 'manager'])))$p$, t);
  end loop;
  foreach t in array array['categories', 'products', 'variants'] loop
    execute format($p$create policy "%1$s: owners and managers update" on public.%1$I for update to authenticated
      using (business_id in (select private.my_business_ids(array['owner', 'manager'])))
      with check (business_id in (select private.my_business_ids(array['owner', 'manager'])))$p$, t);
  end loop;
  -- Owner/manager-only tables (costs, suppliers).
  foreach t in array array['variant_costs', 'suppliers'] loop
    execute format($p$create policy "%1$s: owners and managers read" on public.%1$I for select to authenticated
      using (business_id in (select private.my_business_ids(array['owner', 'manager'])))$p$, t);
    execute format($p$create policy "%1$s: owners and managers insert" on public.%1$I for insert to authenticated
      with check (business_id in (select private.my_business_ids(array['owner', 'manager'])))$p$, t);
    execute format($p$create policy "%1$s: owners and managers update" on public.%1$I for update to authenticated
      using (business_id in (select private.my_business_ids(array['owner', 'manager'])))
      with check (business_id in (select private.my_business_ids(array['owner', 'manager'])))$p$, t);
  end loop;
  execute $p$create policy "suppliers: owners and managers delete" on public.suppliers for delete to authenticated
      using (business_id in (select private.my_business_ids(array['owner', 'manager'])))$p$;
  -- Store-scoped tables owners and managers write in the stores they may use.
  foreach t in array array['store_prices', 'reorder_points', 'purchase_orders'] loop
    execute format($p$create policy "%1$s: owners and managers insert in their stores" on public.%1$I
      for insert to authenticated
      with check ((business_id in (select private.my_full_access_business_ids())
                   or store_id in (select private.my_listed_store_ids()))
                  and business_id in (select private.my_business_ids(array['owner', 'manager'])))$p$, t);
    execute format($p$create policy "%1$s: owners and managers update in their stores" on public.%1$I
      for update to authenticated
      using ((business_id in (select private.my_full_access_business_ids())
              or store_id in (select private.my_listed_store_ids()))
             and business_id in (select private.my_business_ids(array['owner', 'manager'])))
      with check ((business_id in (select private.my_full_access_business_ids())
                   or store_id in (select private.my_listed_store_ids()))
                  and business_id in (select private.my_business_ids(array['owner', 'manager'])))$p$, t);
  end loop;
  foreach t in array array['reorder_points', 'purchase_orders', 'stock_movements'] loop
    execute format($p$create policy "%1$s: owners and managers read in their stores" on public.%1$I
      for select to authenticated
      using ((business_id in (select private.my_full_access_business_ids())
              or store_id in (select private.my_listed_store_ids()))
             and business_id in (select private.my_business_ids(array['owner', 'manager'])))$p$, t);
  end loop;
  foreach t in array array['store_prices', 'stock_balances'] loop
    execute format($p$create policy "%1$s: members read in their stores" on public.%1$I
      for select to authenticated
      using (business_id in (select private.my_full_access_business_ids())
             or store_id in (select private.my_listed_store_ids()))$p$, t);
  end loop;
  foreach t in array array['store_prices', 'reorder_points'] loop
    execute format($p$create policy "%1$s: owners and managers delete in their stores" on public.%1$I
      for delete to authenticated
      using ((business_id in (select private.my_full_access_business_ids())
              or store_id in (select private.my_listed_store_ids()))
             and business_id in (select private.my_business_ids(array['owner', 'manager'])))$p$, t);
  end loop;
end;
$$;

create policy "purchase_orders: owners and managers delete drafts in their stores" on public.purchase_orders
  for delete to authenticated
  using (status = 'draft'
         and (business_id in (select private.my_full_access_business_ids())
              or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "lots: members read" on public.lots for select to authenticated
  using (business_id in (select private.my_business_ids()));

-- Lines follow their order (whose own policy scopes it to the caller's stores); they change only in drafts.
create policy "purchase_order_lines: readers of the order" on public.purchase_order_lines
  for select to authenticated
  using (purchase_order_id in (select po.id from public.purchase_orders po));
create policy "purchase_order_lines: insert in drafts" on public.purchase_order_lines
  for insert to authenticated
  with check (purchase_order_id in (select po.id from public.purchase_orders po
                                     where po.status = 'draft' and po.business_id = purchase_order_lines.business_id));
create policy "purchase_order_lines: update in drafts" on public.purchase_order_lines
  for update to authenticated
  using (purchase_order_id in (select po.id from public.purchase_orders po where po.status = 'draft'))
  with check (purchase_order_id in (select po.id from public.purchase_orders po where po.status = 'draft'));
create policy "purchase_order_lines: delete in drafts" on public.purchase_order_lines
  for delete to authenticated
  using (purchase_order_id in (select po.id from public.purchase_orders po where po.status = 'draft'));

create policy "transfers: owners and managers of either store" on public.transfers
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or from_store_id in (select private.my_listed_store_ids())
          or to_store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));
create policy "transfer_lines: readers of the transfer" on public.transfer_lines
  for select to authenticated
  using (transfer_id in (select t.id from public.transfers t));
