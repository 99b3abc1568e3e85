-- Inventory (shared/features/inventory): the stock ledger (stock_movements) and the balances it maintains, lots
-- and expiry, suppliers, purchase orders, transfers, counts and reorder points.
-- Invariants: on hand (stock_balances) is always the sum of the ledger, changed only by the inventory functions in
-- the ledger row's transaction; the ledger is append-only (a trigger refuses update and delete); costs are read by
-- owners and managers only.
--
-- Written by scripts/schema-extract.ts from the migrations and kept equal to them by
-- tests/hosted/schema-files.test.ts: change an object here, then generate its migration (README, Contributing).

-- Function bodies are checked when they run, not when created: the files need no order among functions.
set check_function_bodies = off;

-- ==== Tables: columns, constraints, row level security, grants and comments ===============================

create table public.suppliers (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  name public.entity_name not null,
  contact_name text,
  email public.email_address,
  phone public.phone_number,
  notes public.short_text,
  archived_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint suppliers_pkey primary key (id),
  constraint suppliers_id_business_id_key unique (id, business_id),
  constraint suppliers_contact_name_check check ((char_length(contact_name) <= 100)),
  constraint suppliers_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table public.suppliers enable row level security;
comment on table public.suppliers is 'Owners and managers read and write; cashiers nothing.';
grant delete, insert, select, update on table public.suppliers to service_role;
grant delete, select on table public.suppliers to authenticated;
grant insert (business_id, name, contact_name, email, phone, notes) on table public.suppliers to authenticated;
grant update (name, contact_name, email, phone, notes, archived_at) on table public.suppliers to authenticated;

create table public.purchase_orders (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  store_id uuid not null,
  supplier_id uuid not null,
  status text default 'draft'::text not null,
  notes public.short_text,
  expected_on date,
  ordered_at timestamp with time zone,
  received_at timestamp with time zone,
  closed_at timestamp with time zone,
  created_by uuid default auth.uid(),
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint purchase_orders_pkey primary key (id),
  constraint purchase_orders_id_business_id_key unique (id, business_id),
  constraint purchase_orders_status_check check ((status = any (array['draft'::text, 'ordered'::text, 'partly_received'::text, 'received'::text, 'closed'::text]))),
  constraint purchase_orders_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade,
  constraint purchase_orders_supplier_id_business_id_fkey foreign key (supplier_id, business_id) references public.suppliers(id, business_id)
);
alter table public.purchase_orders enable row level security;
comment on table public.purchase_orders is 'Owners and managers of the store read and write drafts, order and close; receive_purchase_order receives.';
grant delete, insert, select, update on table public.purchase_orders to service_role;
grant delete, select on table public.purchase_orders to authenticated;
grant insert (business_id, store_id, supplier_id, notes, expected_on) on table public.purchase_orders to authenticated;
grant update (store_id, supplier_id, status, notes, expected_on) on table public.purchase_orders to authenticated;

create table public.purchase_order_lines (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  purchase_order_id uuid not null,
  variant_id uuid not null,
  qty_ordered numeric(12,3) not null,
  qty_received numeric(12,3) default 0 not null,
  unit_cost bigint default 0 not null,
  constraint purchase_order_lines_pkey primary key (id),
  constraint purchase_order_lines_purchase_order_id_variant_id_key unique (purchase_order_id, variant_id),
  constraint purchase_order_lines_qty_ordered_check check ((qty_ordered > (0)::numeric)),
  constraint purchase_order_lines_qty_received_check check ((qty_received >= (0)::numeric)),
  constraint purchase_order_lines_unit_cost_check check ((unit_cost >= 0)),
  constraint purchase_order_lines_purchase_order_id_business_id_fkey foreign key (purchase_order_id, business_id) references public.purchase_orders(id, business_id) on delete cascade,
  constraint purchase_order_lines_variant_id_business_id_fkey foreign key (variant_id, business_id) references public.variants(id, business_id)
);
alter table public.purchase_order_lines enable row level security;
comment on table public.purchase_order_lines is 'Lines of a purchase order (with unit costs): owners and managers who read the order read them; written only by the security definer purchase order functions (create, reorder, edit draft, receive), which record the trail.';
grant delete, insert, select, update on table public.purchase_order_lines to service_role;
grant select on table public.purchase_order_lines to authenticated;

create table public.transfers (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  from_store_id uuid not null,
  to_store_id uuid not null,
  status text default 'sent'::text not null,
  note public.short_text,
  sent_by uuid,
  sent_at timestamp with time zone default now() not null,
  received_by uuid,
  received_at timestamp with time zone,
  constraint transfers_pkey primary key (id),
  constraint transfers_id_business_id_key unique (id, business_id),
  constraint transfers_check check ((from_store_id <> to_store_id)),
  constraint transfers_status_check check ((status = any (array['sent'::text, 'received'::text]))),
  constraint transfers_from_store_id_business_id_fkey foreign key (from_store_id, business_id) references public.stores(id, business_id) on delete cascade,
  constraint transfers_to_store_id_business_id_fkey foreign key (to_store_id, business_id) references public.stores(id, business_id) on delete cascade
);
alter table public.transfers enable row level security;
comment on table public.transfers is 'Stock sent between two stores of a business. Owners and managers of either store read; written only by send_transfer and receive_transfer.';
grant select on table public.transfers to authenticated;
grant select on table public.transfers to service_role;

create table public.reorder_points (
  business_id uuid not null,
  store_id uuid not null,
  variant_id uuid not null,
  reorder_point numeric(12,3) not null,
  target_level numeric(12,3) not null,
  constraint reorder_points_pkey primary key (store_id, variant_id),
  constraint reorder_points_check check ((target_level >= reorder_point)),
  constraint reorder_points_reorder_point_check check ((reorder_point >= (0)::numeric)),
  constraint reorder_points_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade,
  constraint reorder_points_variant_id_business_id_fkey foreign key (variant_id, business_id) references public.variants(id, business_id) on delete cascade
);
alter table public.reorder_points enable row level security;
comment on table public.reorder_points is 'When to reorder (on hand <= reorder_point) and up to which level. Owners and managers of the store.';
grant delete, insert, select, update on table public.reorder_points to service_role;
grant delete, select on table public.reorder_points to authenticated;
grant insert (business_id, store_id, variant_id, reorder_point, target_level) on table public.reorder_points to authenticated;
grant update (reorder_point, target_level) on table public.reorder_points to authenticated;

create table public.serial_numbers (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  variant_id uuid not null,
  serial text not null,
  store_id uuid not null,
  status text default 'in_stock'::text not null,
  sale_line_id uuid,
  received_at timestamp with time zone default now() not null,
  received_by uuid,
  purchase_order_id uuid,
  constraint serial_numbers_pkey primary key (id),
  constraint serial_numbers_business_id_variant_id_serial_key unique (business_id, variant_id, serial),
  constraint serial_numbers_serial_check check ((serial ~ '^[A-Za-z0-9./-]{1,64}$'::text)),
  constraint serial_numbers_sold_has_line check (((status = 'sold'::text) = (sale_line_id is not null))),
  constraint serial_numbers_status_check check ((status = any (array['in_stock'::text, 'sold'::text, 'damaged'::text]))),
  constraint serial_numbers_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint serial_numbers_purchase_order_id_business_id_fkey foreign key (purchase_order_id, business_id) references public.purchase_orders(id, business_id),
  constraint serial_numbers_received_by_fkey foreign key (received_by) references auth.users(id) on delete set null,
  constraint serial_numbers_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade,
  constraint serial_numbers_variant_id_business_id_fkey foreign key (variant_id, business_id) references public.variants(id, business_id) on delete cascade
);
alter table public.serial_numbers enable row level security;
comment on table public.serial_numbers is 'Units of serial-tracked products: received (receive_serials), sold once (post_sale), back in stock after a restocked refund. Members of the business read; written only by those functions.';
comment on column public.serial_numbers.purchase_order_id is 'The purchase order the unit was received on (null: named outside an order, e.g. opening stock).';
grant delete, insert, select, update on table public.serial_numbers to service_role;
grant select on table public.serial_numbers to authenticated;

create table public.recalls (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  reason text not null,
  created_by uuid,
  created_at timestamp with time zone default now() not null,
  constraint recalls_pkey primary key (id),
  constraint recalls_id_business_id_key unique (id, business_id),
  constraint recalls_reason_check check (((char_length(btrim(reason)) >= 1) and (char_length(btrim(reason)) <= 500))),
  constraint recalls_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint recalls_created_by_fkey foreign key (created_by) references auth.users(id) on delete set null
);
alter table public.recalls enable row level security;
comment on table public.recalls is 'A recall of lots: their stock in every store is quarantined (unsellable, still on hand). Owners and managers read; written only by start_recall (ADR 0360).';
grant select on table public.recalls to authenticated;
grant select on table public.recalls to service_role;

create table public.lots (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  variant_id uuid not null,
  lot_number text not null,
  expires_on date,
  created_at timestamp with time zone default now() not null,
  quarantined_at timestamp with time zone,
  recall_id uuid,
  constraint lots_pkey primary key (id),
  constraint lots_variant_id_lot_number_key unique (variant_id, lot_number),
  constraint lots_lot_number_check check (((char_length(btrim(lot_number)) >= 1) and (char_length(btrim(lot_number)) <= 60))),
  constraint lots_quarantine_has_recall check (((quarantined_at is null) = (recall_id is null))),
  constraint lots_recall_id_business_id_fkey foreign key (recall_id, business_id) references public.recalls(id, business_id),
  constraint lots_variant_id_business_id_fkey foreign key (variant_id, business_id) references public.variants(id, business_id) on delete cascade
);
alter table public.lots enable row level security;
comment on table public.lots is 'Batches of a lot-tracked variant with their expiry. Members read; created by receiving stock only.';
comment on column public.lots.quarantined_at is 'When a recall quarantined the lot: its stock stays on hand but is never sold (ADR 0360).';
comment on column public.lots.recall_id is 'The recall that quarantined the lot.';
grant select on table public.lots to authenticated;
grant select on table public.lots to service_role;

create table public.transfer_lines (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  transfer_id uuid not null,
  variant_id uuid not null,
  lot_id uuid,
  qty_sent numeric(12,3) not null,
  qty_received numeric(12,3),
  qty_damaged numeric(12,3),
  qty_missing numeric(12,3),
  constraint transfer_lines_pkey primary key (id),
  constraint transfer_lines_qty_damaged_check check ((qty_damaged >= (0)::numeric)),
  constraint transfer_lines_qty_missing_check check ((qty_missing >= (0)::numeric)),
  constraint transfer_lines_qty_received_check check ((qty_received >= (0)::numeric)),
  constraint transfer_lines_qty_sent_check check ((qty_sent > (0)::numeric)),
  constraint transfer_lines_lot_id_fkey foreign key (lot_id) references public.lots(id),
  constraint transfer_lines_transfer_id_business_id_fkey foreign key (transfer_id, business_id) references public.transfers(id, business_id) on delete cascade,
  constraint transfer_lines_variant_id_business_id_fkey foreign key (variant_id, business_id) references public.variants(id, business_id)
);
alter table public.transfer_lines enable row level security;
comment on table public.transfer_lines is 'Lines of a transfer; same readers as transfers; written by its functions.';
grant select on table public.transfer_lines to authenticated;
grant select on table public.transfer_lines to service_role;

create table public.stock_movements (
  id bigint generated always as identity not null,
  business_id uuid not null,
  store_id uuid not null,
  variant_id uuid not null,
  lot_id uuid,
  kind text not null,
  qty numeric(12,3) not null,
  reason text,
  unit_cost bigint,
  occurred_at timestamp with time zone default now() not null,
  recorded_at timestamp with time zone default now() not null,
  actor_id uuid,
  reference_type text,
  reference_id uuid,
  note public.short_text,
  constraint stock_movements_pkey primary key (id),
  constraint stock_movements_adjust_reason check (((kind <> all (array['adjust'::text, 'damage'::text])) or (reason is not null))),
  constraint stock_movements_kind_check check ((kind = any (array['receive'::text, 'sale'::text, 'refund'::text, 'adjust'::text, 'count'::text, 'transfer_out'::text, 'transfer_in'::text, 'damage'::text, 'opening'::text]))),
  constraint stock_movements_qty_check check ((qty <> (0)::numeric)),
  constraint stock_movements_reason_check check ((reason = any (array['damaged'::text, 'lost'::text, 'theft'::text, 'found'::text, 'correction'::text, 'count'::text, 'expired'::text, 'destroyed'::text]))),
  constraint stock_movements_reference_type_check check ((reference_type = any (array['purchase_order'::text, 'transfer'::text, 'sale'::text, 'refund'::text, 'import'::text, 'destruction'::text]))),
  constraint stock_movements_sign check (
case
    when (kind = any (array['receive'::text, 'refund'::text, 'transfer_in'::text, 'opening'::text])) then (qty > (0)::numeric)
    when (kind = any (array['sale'::text, 'transfer_out'::text, 'damage'::text])) then (qty < (0)::numeric)
    else true
end),
  constraint stock_movements_unit_cost_check check ((unit_cost >= 0)),
  constraint stock_movements_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint stock_movements_lot_id_fkey foreign key (lot_id) references public.lots(id),
  constraint stock_movements_store_id_fkey foreign key (store_id) references public.stores(id),
  constraint stock_movements_variant_id_fkey foreign key (variant_id) references public.variants(id)
);
alter table public.stock_movements enable row level security;
comment on table public.stock_movements is 'Append-only stock ledger. Owners and managers of the store read it (it carries unit costs); written only by the inventory functions; an append-only trigger refuses every update and delete.';
grant select on table public.stock_movements to authenticated;
grant select on table public.stock_movements to service_role;

create table public.stock_balances (
  id bigint generated always as identity not null,
  business_id uuid not null,
  store_id uuid not null,
  variant_id uuid not null,
  lot_id uuid,
  qty numeric(12,3) default 0 not null,
  updated_at timestamp with time zone default now() not null,
  constraint stock_balances_pkey primary key (id),
  constraint stock_balances_key unique nulls not distinct (store_id, variant_id, lot_id),
  constraint stock_balances_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint stock_balances_lot_id_fkey foreign key (lot_id) references public.lots(id),
  constraint stock_balances_store_id_fkey foreign key (store_id) references public.stores(id),
  constraint stock_balances_variant_id_fkey foreign key (variant_id) references public.variants(id)
);
alter table public.stock_balances enable row level security;
alter publication supabase_realtime add table public.stock_balances;
comment on table public.stock_balances is 'On hand per (store, variant, lot), always the sum of the ledger: changed only by the inventory functions with an atomic delta in the ledger row''s transaction. Members read the stores they may use (cashiers included).';
grant select on table public.stock_balances to authenticated;
grant select on table public.stock_balances to service_role;

create table public.recall_lots (
  recall_id uuid not null,
  lot_id uuid not null,
  business_id uuid not null,
  on_hand numeric(12,3) not null,
  released_at timestamp with time zone,
  released_by uuid,
  release_reason text,
  constraint recall_lots_pkey primary key (recall_id, lot_id),
  constraint recall_lots_release_has_reason check (((released_at is null) = (release_reason is null))),
  constraint recall_lots_release_reason_check check (((release_reason is null) or ((char_length(btrim(release_reason)) >= 1) and (char_length(btrim(release_reason)) <= 500)))),
  constraint recall_lots_lot_id_fkey foreign key (lot_id) references public.lots(id) on delete cascade,
  constraint recall_lots_recall_id_business_id_fkey foreign key (recall_id, business_id) references public.recalls(id, business_id) on delete cascade,
  constraint recall_lots_released_by_fkey foreign key (released_by) references auth.users(id) on delete set null
);
alter table public.recall_lots enable row level security;
comment on table public.recall_lots is 'The lots of a recall with the stock on hand in all stores when it was quarantined. Owners and managers read; written only by start_recall.';
comment on column public.recall_lots.released_at is 'When the lot was released from this recall''s quarantine (release_recall, ADR 0401); null while quarantined.';
comment on column public.recall_lots.released_by is 'Who released the lot from quarantine.';
comment on column public.recall_lots.release_reason is 'Why the lot was released (1 to 500 characters).';
grant select on table public.recall_lots to authenticated;
grant select on table public.recall_lots to service_role;

create table public.controlled_destructions (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  store_id uuid not null,
  variant_id uuid not null,
  lot_id uuid,
  qty numeric(12,3) not null,
  destroyed_by uuid,
  witness_id uuid,
  note public.short_text,
  destroyed_at timestamp with time zone default now() not null,
  constraint controlled_destructions_pkey primary key (id),
  constraint controlled_destructions_qty_check check ((qty > (0)::numeric)),
  constraint controlled_destructions_witness_not_self check ((witness_id <> destroyed_by)),
  constraint controlled_destructions_destroyed_by_fkey foreign key (destroyed_by) references auth.users(id) on delete set null,
  constraint controlled_destructions_lot_id_fkey foreign key (lot_id) references public.lots(id),
  constraint controlled_destructions_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade,
  constraint controlled_destructions_variant_id_business_id_fkey foreign key (variant_id, business_id) references public.variants(id, business_id) on delete cascade,
  constraint controlled_destructions_witness_id_fkey foreign key (witness_id) references auth.users(id) on delete set null
);
alter table public.controlled_destructions enable row level security;
comment on table public.controlled_destructions is 'Controlled stock destroyed: who destroyed it and the witness (another member of staff who confirmed with their PIN). The ledger''s damage movement (reason destroyed) names the row. Owners and managers of the store read; written only by destroy_controlled_stock (ADR 0390).';
grant select on table public.controlled_destructions to authenticated;
grant select on table public.controlled_destructions to service_role;

-- ==== Indexes =============================================================================================

create index lots_variant_business_idx on public.lots (variant_id, business_id);

create index lots_business_expiry_idx on public.lots (business_id, expires_on);

create index suppliers_business_name_idx on public.suppliers (business_id, name);

create index purchase_orders_store_idx on public.purchase_orders (store_id, business_id);

create index purchase_orders_supplier_idx on public.purchase_orders (supplier_id, business_id);

create index purchase_orders_business_idx on public.purchase_orders (business_id, created_at desc);

create index purchase_order_lines_po_idx on public.purchase_order_lines (purchase_order_id, business_id);

create index purchase_order_lines_variant_idx on public.purchase_order_lines (variant_id, business_id);

create index transfers_from_idx on public.transfers (from_store_id, business_id);

create index transfers_to_idx on public.transfers (to_store_id, business_id);

create index transfer_lines_transfer_idx on public.transfer_lines (transfer_id, business_id);

create index transfer_lines_variant_idx on public.transfer_lines (variant_id, business_id);

create index transfer_lines_lot_idx on public.transfer_lines (lot_id);

create index reorder_points_store_business_idx on public.reorder_points (store_id, business_id);

create index reorder_points_variant_idx on public.reorder_points (variant_id, business_id);

create index stock_movements_store_variant_idx on public.stock_movements (store_id, variant_id, id);

create index stock_movements_variant_idx on public.stock_movements (variant_id);

create index stock_movements_lot_idx on public.stock_movements (lot_id);

create index stock_movements_business_idx on public.stock_movements (business_id, recorded_at desc);

create index stock_balances_business_variant_idx on public.stock_balances (business_id, variant_id);

create index stock_balances_variant_idx on public.stock_balances (variant_id);

create index stock_balances_lot_idx on public.stock_balances (lot_id);

-- Movement history by day and store (the ledger had indexes by store+variant and by recorded_at only).
create index if not exists stock_movements_business_store_occurred_idx
  on public.stock_movements (business_id, store_id, occurred_at);

create index if not exists purchase_orders_business_status_idx on public.purchase_orders (business_id, status);

-- ---------------------------------------------------------------------------------------------------
-- Slow movers (same signature, columns and order as in 20261123150000). It read, for every (store, variant) on
-- hand, all of that pair's sale and refund movements (one index range per pair: 100,000 pairs a store at the large
-- seed). Now the ledger is read per store in two set-based passes: the window's sales and refunds from the
-- (business, store, occurred_at) index, and the last sale of every variant from a partial index on sale movements
-- (store, variant, occurred_at; index-only), then joined to the balances by hash.
create index if not exists stock_movements_store_sale_last_idx
  on public.stock_movements (store_id, variant_id, occurred_at, business_id) where kind = 'sale';

create index serial_numbers_serial_idx on public.serial_numbers (business_id, serial);

create index serial_numbers_sale_line_idx on public.serial_numbers (sale_line_id);

create index serial_numbers_received_by_idx on public.serial_numbers (received_by);

create index serial_numbers_variant_idx on public.serial_numbers (variant_id, business_id);

create index serial_numbers_store_idx on public.serial_numbers (store_id, business_id);

create index recalls_business_created_idx on public.recalls (business_id, created_at desc);

create index recalls_created_by_idx on public.recalls (created_by);

create index lots_recall_idx on public.lots (recall_id, business_id);

create index recall_lots_lot_idx on public.recall_lots (lot_id);

create index recall_lots_recall_business_idx on public.recall_lots (recall_id, business_id);

create index serial_numbers_purchase_order_idx on public.serial_numbers (purchase_order_id, business_id);

create index controlled_destructions_store_idx on public.controlled_destructions (store_id, business_id);

create index controlled_destructions_variant_idx on public.controlled_destructions (variant_id, business_id);

create index controlled_destructions_lot_idx on public.controlled_destructions (lot_id);

create index controlled_destructions_destroyed_by_idx on public.controlled_destructions (destroyed_by);

create index controlled_destructions_witness_idx on public.controlled_destructions (witness_id);

create index recall_lots_released_by_idx on public.recall_lots (released_by);

-- ==== Functions ===========================================================================================

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
revoke all on function private.stock_movements_append_only() from public;

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
revoke all on function private.lots_guard() from public;

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
revoke all on function private.purchase_orders_guard() from public;

-- The lot with this number for the variant (created on first receipt), checking the expiry rule.
create or replace function private.lot_for(_business_id uuid, _variant_id uuid, _lot_number text, _expires_on date)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_has_lots boolean;
  v_lot uuid;
  v_number text := nullif(btrim(coalesce(_lot_number, '')), '');
begin
  select p.has_lots into v_has_lots from public.variants v join public.products p on p.id = v.product_id
   where v.id = _variant_id and v.business_id = _business_id;
  if not coalesce(v_has_lots, false) then
    if v_number is not null then
      raise exception 'this item is not tracked by lot' using errcode = '22023';
    end if;
    return null;
  end if;
  if v_number is null then
    raise exception 'enter a lot number: this item is tracked by lot' using errcode = '22023';
  end if;
  select l.id into v_lot from public.lots l where l.variant_id = _variant_id and l.lot_number = v_number;
  if v_lot is null then
    insert into public.lots (business_id, variant_id, lot_number, expires_on)
    values (_business_id, _variant_id, v_number, _expires_on)
    on conflict (variant_id, lot_number) do nothing
    returning id into v_lot;
    if v_lot is null then
      select l.id into v_lot from public.lots l where l.variant_id = _variant_id and l.lot_number = v_number;
    end if;
  end if;
  return v_lot;
end;
$$;
revoke all on function private.lot_for(uuid,uuid,text,date) from public;

-- Moving-average cost: (on hand x old cost + received x unit cost) / (on hand + received), on hand across the
-- business and never below zero. Locks the cost row so concurrent receipts are averaged one after the other.
create or replace function private.update_average_cost(_business_id uuid, _variant_id uuid, _qty numeric, _unit_cost bigint)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_on_hand numeric;
  v_old bigint;
begin
  if _unit_cost is null or _qty <= 0 then
    return;
  end if;
  insert into public.variant_costs (variant_id, business_id, cost) values (_variant_id, _business_id, _unit_cost)
  on conflict (variant_id) do nothing;
  if not found then
    select c.cost into v_old from public.variant_costs c where c.variant_id = _variant_id for update;
    select greatest(coalesce(sum(b.qty), 0), 0) into v_on_hand from public.stock_balances b where b.variant_id = _variant_id;
    update public.variant_costs c
       set cost = round((v_on_hand * v_old + _qty * _unit_cost) / (v_on_hand + _qty))::bigint
     where c.variant_id = _variant_id;
  end if;
end;
$$;
revoke all on function private.update_average_cost(uuid,uuid,numeric,bigint) from public;

-- ---------------------------------------------------------------------------------------------------
-- Receive goods without a purchase order (or opening stock with _kind 'opening').
create or replace function public.receive_stock(
  _store_id uuid, _variant_id uuid, _qty numeric, _unit_cost bigint default null, _lot_number text default null,
  _expires_on date default null, _occurred_at timestamptz default null, _note text default null
)
returns numeric
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager']);
  v_lot uuid;
begin
  if _qty is null or _qty <= 0 then
    raise exception 'enter a quantity above zero' using errcode = '22023';
  end if;
  if _unit_cost is not null and _unit_cost < 0 then
    raise exception 'a cost cannot be negative' using errcode = '22023';
  end if;
  perform private.assert_quantity(_variant_id, _qty);
  v_lot := private.lot_for(v_business, _variant_id, _lot_number, _expires_on);
  perform private.update_average_cost(v_business, _variant_id, _qty, _unit_cost);
  return private.apply_movement(v_business, _store_id, _variant_id, v_lot, 'receive', _qty, null, _unit_cost,
                                _occurred_at, null, null, _note);
end;
$$;
revoke all on function public.receive_stock(uuid,uuid,numeric,bigint,text,date,timestamp with time zone,text) from public;
grant execute on function public.receive_stock(uuid,uuid,numeric,bigint,text,date,timestamp with time zone,text) to authenticated;

-- Adjust by hand with a reason; damaged stock is a 'damage' movement, everything else 'adjust'.
create or replace function public.adjust_stock(
  _store_id uuid, _variant_id uuid, _qty numeric, _reason text, _lot_id uuid default null,
  _note text default null, _occurred_at timestamptz default null
)
returns numeric
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager']);
begin
  if _reason is null or _reason not in ('damaged', 'lost', 'theft', 'found', 'correction', 'expired') then
    raise exception 'choose a reason: damaged, lost, theft, found, expired or correction' using errcode = '22023';
  end if;
  if _qty is null or _qty = 0 then
    raise exception 'enter a quantity other than zero' using errcode = '22023';
  end if;
  if _reason in ('damaged', 'lost', 'theft', 'expired') and _qty > 0 then
    raise exception 'damaged, lost, stolen or expired stock is taken out: enter a negative quantity' using errcode = '22023';
  elsif _reason = 'found' and _qty < 0 then
    raise exception 'found stock is added: enter a positive quantity' using errcode = '22023';
  end if;
  return private.apply_movement(v_business, _store_id, _variant_id, _lot_id,
    case when _reason = 'damaged' then 'damage' else 'adjust' end, _qty, _reason, null, _occurred_at,
    null, null, _note);
end;
$$;
revoke all on function public.adjust_stock(uuid,uuid,numeric,text,uuid,text,timestamp with time zone) from public;
grant execute on function public.adjust_stock(uuid,uuid,numeric,text,uuid,text,timestamp with time zone) to authenticated;

-- Receive (part of) an ordered purchase order: per line the quantity, and the lot and expiry for lot-tracked
-- items. Writes 'receive' movements, updates the moving-average cost and the order's status.
create or replace function public.receive_purchase_order(_purchase_order_id uuid, _lines jsonb, _occurred_at timestamptz default null)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_po public.purchase_orders;
  v_business uuid;
  r record;
  l public.purchase_order_lines;
  v_lot uuid;
  v_status text;
begin
  select po.* into v_po from public.purchase_orders po where po.id = _purchase_order_id;
  if v_po.id is null then
    raise exception 'no such purchase order' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_po.store_id, array['owner', 'manager']);
  select po.* into v_po from public.purchase_orders po where po.id = _purchase_order_id for update;
  if v_po.status not in ('ordered', 'partly_received') then
    raise exception 'only an ordered purchase order can be received (this one is %)', v_po.status using errcode = '22023';
  end if;
  if jsonb_typeof(_lines) is distinct from 'array' or jsonb_array_length(_lines) = 0 then
    raise exception 'receive at least one line' using errcode = '22023';
  end if;
  for r in
    select x.line_id, x.qty, x.lot_number, x.expires_on, x.unit_cost
      from jsonb_to_recordset(_lines) as x (line_id uuid, qty numeric, lot_number text, expires_on date, unit_cost bigint)
     order by x.line_id
  loop
    select pl.* into l from public.purchase_order_lines pl
     where pl.id = r.line_id and pl.purchase_order_id = _purchase_order_id for update;
    if l.id is null then
      raise exception 'a line does not belong to this purchase order' using errcode = '22023';
    end if;
    if r.qty is null or r.qty <= 0 then
      raise exception 'receive a quantity above zero for every line' using errcode = '22023';
    end if;
    if l.qty_received + r.qty > l.qty_ordered then
      raise exception 'more than ordered: % of % already received', l.qty_received, l.qty_ordered using errcode = '22023';
    end if;
    if r.unit_cost is not null and r.unit_cost < 0 then
      raise exception 'a cost cannot be negative' using errcode = '22023';
    end if;
    perform private.assert_quantity(l.variant_id, r.qty);
    v_lot := private.lot_for(v_business, l.variant_id, r.lot_number, r.expires_on);
    perform private.update_average_cost(v_business, l.variant_id, r.qty, coalesce(r.unit_cost, l.unit_cost));
    perform private.apply_movement(v_business, v_po.store_id, l.variant_id, v_lot, 'receive', r.qty, null,
                                   coalesce(r.unit_cost, l.unit_cost), _occurred_at, 'purchase_order', _purchase_order_id, null);
    update public.purchase_order_lines pl set qty_received = pl.qty_received + r.qty where pl.id = l.id;
  end loop;
  v_status := case when exists (select 1 from public.purchase_order_lines pl
                                 where pl.purchase_order_id = _purchase_order_id and pl.qty_received < pl.qty_ordered)
                   then 'partly_received' else 'received' end;
  perform set_config('storewise.receiving', 'on', true);
  update public.purchase_orders po set status = v_status where po.id = _purchase_order_id;
  perform set_config('storewise.receiving', '', true);
  return v_status;
end;
$$;
revoke all on function public.receive_purchase_order(uuid,jsonb,timestamp with time zone) from public;
grant execute on function public.receive_purchase_order(uuid,jsonb,timestamp with time zone) to authenticated;

-- On hand per variant in a store (all lots together), with the reorder point; optionally filtered by search.
create or replace function public.store_stock(_store_id uuid, _query text default null, _limit int default 50, _offset int default 0)
returns table (
  variant_id uuid, product_name text, sku text, option1 text, option2 text, option3 text, unit text,
  has_lots boolean, on_hand numeric, reorder_point numeric, target_level numeric, total_count bigint
)
language sql
stable
set search_path = ''
as $$
  with s as (select st.business_id from public.stores st where st.id = _store_id),
  rows as (
    select v.id, p.name, v.sku, v.option1, v.option2, v.option3, p.unit, p.has_lots,
           coalesce((select sum(b.qty) from public.stock_balances b where b.store_id = _store_id and b.variant_id = v.id), 0) as on_hand,
           rp.reorder_point, rp.target_level
      from s
      join public.variants v on v.business_id = s.business_id and v.archived_at is null
      join public.products p on p.id = v.product_id and p.archived_at is null and p.track_stock
      left join public.reorder_points rp on rp.store_id = _store_id and rp.variant_id = v.id
     where nullif(btrim(coalesce(_query, '')), '') is null
        or p.name ilike '%' || replace(replace(replace(btrim(_query), '\', '\\'), '%', '\%'), '_', '\_') || '%'
        or v.sku ilike replace(replace(replace(btrim(_query), '\', '\\'), '%', '\%'), '_', '\_') || '%'
        or v.id in (select bc.variant_id from public.barcodes bc where bc.business_id = s.business_id and bc.code = btrim(_query))
  )
  select r.id, r.name, r.sku, r.option1, r.option2, r.option3, r.unit, r.has_lots, r.on_hand, r.reorder_point,
         r.target_level, count(*) over ()
    from rows r
    -- Only stores the caller may read: a store it cannot see yields nothing.
   where exists (select 1 from public.stores st where st.id = _store_id)
   order by r.name, r.sku
   limit least(greatest(coalesce(_limit, 50), 1), 200) offset greatest(coalesce(_offset, 0), 0);
$$;
revoke all on function public.store_stock(uuid,text,integer,integer) from public;
grant execute on function public.store_stock(uuid,text,integer,integer) to authenticated;

-- Lots with stock in a store that expire within _days (expired ones included), soonest first.
create or replace function public.expiring_lots(_store_id uuid, _days int default 30)
returns table (lot_id uuid, variant_id uuid, product_name text, sku text, lot_number text, expires_on date, qty numeric)
language sql
stable
set search_path = ''
as $$
  select l.id, v.id, p.name, v.sku, l.lot_number, l.expires_on, b.qty
    from public.stock_balances b
    join public.lots l on l.id = b.lot_id
    join public.variants v on v.id = b.variant_id
    join public.products p on p.id = v.product_id
   where b.store_id = _store_id and b.qty > 0
     and l.expires_on <= current_date + greatest(coalesce(_days, 30), 0)
   order by l.expires_on, p.name, l.lot_number;
$$;
revoke all on function public.expiring_lots(uuid,integer) from public;
grant execute on function public.expiring_lots(uuid,integer) to authenticated;

-- Variants at or under their reorder point in a store, with the quantity that brings them to the target.
create or replace function public.reorder_list(_store_id uuid)
returns table (variant_id uuid, product_name text, sku text, on_hand numeric, reorder_point numeric,
               target_level numeric, suggested numeric)
language sql
stable
set search_path = ''
as $$
  select v.id, p.name, v.sku, coalesce(s.qty, 0), rp.reorder_point, rp.target_level,
         rp.target_level - coalesce(s.qty, 0)
    from public.reorder_points rp
    join public.variants v on v.id = rp.variant_id
    join public.products p on p.id = v.product_id
    left join lateral (select sum(b.qty) as qty from public.stock_balances b
                        where b.store_id = rp.store_id and b.variant_id = rp.variant_id) s on true
   where rp.store_id = _store_id and coalesce(s.qty, 0) <= rp.reorder_point
   order by p.name, v.sku;
$$;
revoke all on function public.reorder_list(uuid) from public;
grant execute on function public.reorder_list(uuid) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The count sheet of a store: what the ledger says is on hand, per variant (lot-tracked items: per lot with a
-- balance here), for the whole store or the chosen variants. Runs as the caller: row level security decides
-- (a store the caller may not use yields nothing). The variance is shown against this before posting;
-- post_count recomputes it under lock, so a sale in between is not lost.
create or replace function public.count_sheet(_store_id uuid, _variant_ids uuid[] default null)
returns table (
  variant_id uuid, lot_id uuid, product_name text, sku text, option1 text, option2 text, option3 text, unit text,
  has_lots boolean, lot_number text, expires_on date, on_hand numeric
)
language sql
stable
set search_path = ''
as $$
  with s as (select st.business_id from public.stores st where st.id = _store_id and st.archived_at is null),
  items as (
    select v.id, v.sku, v.option1, v.option2, v.option3, p.name, p.unit, p.has_lots
      from s
      join public.variants v on v.business_id = s.business_id and v.archived_at is null
      join public.products p on p.id = v.product_id and p.archived_at is null and p.track_stock
     where _variant_ids is null or v.id = any (_variant_ids)
  )
  select i.id, null::uuid, i.name, i.sku, i.option1, i.option2, i.option3, i.unit, false, null::text, null::date,
         coalesce((select sum(b.qty) from public.stock_balances b where b.store_id = _store_id and b.variant_id = i.id), 0)
    from items i where not i.has_lots
  union all
  select i.id, l.id, i.name, i.sku, i.option1, i.option2, i.option3, i.unit, true, l.lot_number, l.expires_on, b.qty
    from items i
    join public.stock_balances b on b.store_id = _store_id and b.variant_id = i.id
    join public.lots l on l.id = b.lot_id
   where i.has_lots
   order by 3, 4, 11 nulls first, 10
   limit 5000;
$$;
comment on function public.count_sheet(uuid,uuid[]) is 'Members who may use the store (row level security): expected quantities per variant and lot for a count.';
revoke all on function public.count_sheet(uuid,uuid[]) from public;
grant execute on function public.count_sheet(uuid,uuid[]) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Insights inputs (ADR 0145). Daily units sold (demand, before refunds) of a store's _limit best-selling
-- variants over the range; days without a sale are absent (the client fills zeros).
create or replace function public.demand_history(_business_id uuid, _store_id uuid, _from date, _to date,
                                                 _limit int default 60)
returns table (variant_id uuid, sku text, product_name text, day date, units numeric)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.report_args(_business_id, _from, _to, null);
  if _store_id is null then
    raise exception 'choose a store' using errcode = '22023';
  end if;
  return query
    with f as (
      select f.variant_id, f.local_day, f.units from private.report_facts(_business_id, _from, _to, _store_id) f
       where f.kind = 'sale'
    ),
    top as (
      select f.variant_id from f group by 1 order by sum(f.units) desc, 1
       limit least(greatest(coalesce(_limit, 60), 1), 500)
    )
    select f.variant_id, v.sku, p.name, f.local_day, sum(f.units)
      from f
      join top on top.variant_id = f.variant_id
      join public.variants v on v.id = f.variant_id
      join public.products p on p.id = v.product_id
     group by 1, 2, 3, 4
     order by 1, 4;
end;
$$;
comment on function public.demand_history(uuid,uuid,date,date,integer) is 'Owners and managers only: daily units sold in a store of its _limit (1..500) best-selling variants, for the demand forecast.';
revoke all on function public.demand_history(uuid,uuid,date,date,integer) from public;
grant execute on function public.demand_history(uuid,uuid,date,date,integer) to authenticated;

-- What a reorder suggestion needs per variant of a store: on hand, on order (ordered or partly received purchase
-- orders of the store), the supplier of the variant's latest purchase order line, that supplier's lead time (mean
-- days from ordered to received, 7 when never measured) and the unit cost.
create or replace function public.reorder_inputs(_business_id uuid, _store_id uuid, _variant_ids uuid[])
returns table (variant_id uuid, on_hand numeric, on_order numeric, supplier_id uuid, supplier_name text,
               lead_time_days int, lead_time_measured boolean, unit_cost bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.report_args(_business_id, current_date, current_date, null);
  if _store_id is null or _variant_ids is null or cardinality(_variant_ids) > 500 then
    raise exception 'choose a store and at most 500 variants' using errcode = '22023';
  end if;
  return query
    with ids as (select distinct x as variant_id from unnest(_variant_ids) x),
    lead as (
      select po.supplier_id, round(avg(extract(epoch from po.received_at - po.ordered_at) / 86400))::int as days
        from public.purchase_orders po
       where po.business_id = _business_id and po.ordered_at is not null and po.received_at is not null
         and po.received_at > po.ordered_at
       group by 1
    )
    select ids.variant_id,
           coalesce((select sum(b.qty) from public.stock_balances b where b.store_id = _store_id and b.variant_id = ids.variant_id), 0),
           coalesce((select sum(greatest(l.qty_ordered - l.qty_received, 0)) from public.purchase_order_lines l
                       join public.purchase_orders po on po.id = l.purchase_order_id
                      where po.store_id = _store_id and po.status in ('ordered', 'partly_received')
                        and l.variant_id = ids.variant_id), 0),
           sup.id, sup.name::text, greatest(coalesce(lead.days, 7), 1), lead.days is not null,
           coalesce(vc.cost, 0)
      from ids
      join public.variants v on v.id = ids.variant_id and v.business_id = _business_id
      left join lateral (
        select s.id, s.name from public.purchase_order_lines l
          join public.purchase_orders po on po.id = l.purchase_order_id
          join public.suppliers s on s.id = po.supplier_id and s.archived_at is null
         where l.variant_id = ids.variant_id and po.business_id = _business_id
         order by po.created_at desc limit 1) sup on true
      left join lead on lead.supplier_id = sup.id
      left join public.variant_costs vc on vc.variant_id = ids.variant_id;
end;
$$;
comment on function public.reorder_inputs(uuid,uuid,uuid[]) is 'Owners and managers only: on hand, on order, supplier, measured lead time and unit cost of up to 500 variants in a store, for the reorder suggestions.';
revoke all on function public.reorder_inputs(uuid,uuid,uuid[]) from public;
grant execute on function public.reorder_inputs(uuid,uuid,uuid[]) to authenticated;

-- Receive a transfer at its destination (20261122120100), at most 1000 lines.
create or replace function public.receive_transfer(_transfer_id uuid, _lines jsonb default '[]')
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_transfer public.transfers;
  v_business uuid;
  l public.transfer_lines;
  v_in jsonb;
  v_received numeric;
  v_damaged numeric;
begin
  select t.* into v_transfer from public.transfers t where t.id = _transfer_id;
  if v_transfer.id is null then
    raise exception 'no such transfer' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_transfer.to_store_id, array['owner', 'manager']);
  select t.* into v_transfer from public.transfers t where t.id = _transfer_id for update;
  if v_transfer.status <> 'sent' then
    raise exception 'this transfer was already received' using errcode = '22023';
  end if;
  if jsonb_typeof(coalesce(_lines, '[]')) <> 'array' then
    raise exception 'lines must be a list' using errcode = '22023';
  elsif jsonb_array_length(coalesce(_lines, '[]')) > 1000 then
    raise exception 'a transfer has at most 1000 lines' using errcode = '22023';
  end if;
  for l in select * from public.transfer_lines tl where tl.transfer_id = _transfer_id order by tl.variant_id, tl.lot_id nulls first loop
    select x into v_in from jsonb_array_elements(coalesce(_lines, '[]')) x where x ->> 'line_id' = l.id::text limit 1;
    v_received := coalesce((v_in ->> 'received')::numeric, case when v_in is null then l.qty_sent else 0 end);
    v_damaged := coalesce((v_in ->> 'damaged')::numeric, 0);
    if v_received < 0 or v_damaged < 0 or v_received + v_damaged > l.qty_sent then
      raise exception 'received and damaged together cannot exceed what was sent (%)', l.qty_sent using errcode = '22023';
    end if;
    if v_received + v_damaged > 0 then
      perform private.apply_movement(v_business, v_transfer.to_store_id, l.variant_id, l.lot_id, 'transfer_in',
                                     v_received + v_damaged, null, null, null, 'transfer', _transfer_id, null);
    end if;
    if v_damaged > 0 then
      perform private.apply_movement(v_business, v_transfer.to_store_id, l.variant_id, l.lot_id, 'damage',
                                     -v_damaged, 'damaged', null, null, 'transfer', _transfer_id, 'arrived damaged');
    end if;
    update public.transfer_lines tl
       set qty_received = v_received, qty_damaged = v_damaged, qty_missing = l.qty_sent - v_received - v_damaged
     where tl.id = l.id;
  end loop;
  update public.transfers t set status = 'received', received_by = (select auth.uid()), received_at = now()
   where t.id = _transfer_id;
  perform private.log_activity(v_business, v_transfer.to_store_id, 'transfer.received', 'transfer', _transfer_id, null,
    (select jsonb_build_object('received', sum(qty_received), 'damaged', sum(qty_damaged), 'missing', sum(qty_missing))
       from public.transfer_lines tl where tl.transfer_id = _transfer_id));
end;
$$;
revoke all on function public.receive_transfer(uuid,jsonb) from public;
grant execute on function public.receive_transfer(uuid,jsonb) to authenticated;

-- Quantity rules (20261122120100_inventory_functions), now one definition shared with post_sale.
create or replace function private.assert_quantity(_variant_id uuid, _qty numeric)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_unit text;
  v_problem text;
begin
  select p.unit into v_unit from public.variants v join public.products p on p.id = v.product_id where v.id = _variant_id;
  if v_unit is null then
    raise exception 'no such item in this business' using errcode = '22023';
  end if;
  v_problem := private.quantity_problem(v_unit, _qty);
  if v_problem is not null then
    raise exception '%', v_problem using errcode = '22023';
  end if;
end;
$$;
revoke all on function private.assert_quantity(uuid,numeric) from public;

-- _lines is the draft's whole new list: [{variant_id, qty, unit_cost?}]. Lines not listed are removed, listed
-- items are updated or added (an item listed twice is one line, as in create_purchase_order); a missing cost
-- keeps the line's cost, or for a new item takes the variant's average cost. Owners, and managers of the order's
-- store; drafts only (the order row is locked, so marking it ordered meanwhile waits). The change is one
-- activity entry, purchase_order.lines_edited, with the lines before and after. Returns the number of lines.
create or replace function public.edit_purchase_order_draft(_purchase_order_id uuid, _lines jsonb)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_po public.purchase_orders;
  v_business uuid;
  v_before jsonb;
  v_after jsonb;
  v_ids uuid[] := '{}';
  v_qtys numeric[] := '{}';
  v_costs bigint[] := '{}';
  r record;
begin
  select po.* into v_po from public.purchase_orders po where po.id = _purchase_order_id for update;
  if v_po.id is null then
    raise exception 'no such purchase order' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_po.store_id, array['owner', 'manager']);
  if v_po.status <> 'draft' then
    raise exception 'only a draft''s lines can be changed' using errcode = '22023';
  end if;
  if jsonb_typeof(_lines) is distinct from 'array' or jsonb_array_length(_lines) = 0 then
    raise exception 'keep at least one line (or delete the draft)' using errcode = '22023';
  end if;
  if jsonb_array_length(_lines) > 1000 then
    raise exception 'a purchase order has at most 1000 lines' using errcode = '22023';
  end if;
  if exists (select 1 from jsonb_array_elements(_lines) e where jsonb_typeof(e) <> 'object') then
    raise exception 'every line needs an item and a quantity above zero' using errcode = '22023';
  end if;
  select coalesce(jsonb_agg(jsonb_build_object('variant_id', l.variant_id, 'qty', l.qty_ordered, 'unit_cost', l.unit_cost)
                            order by l.variant_id), '[]')
    into v_before from public.purchase_order_lines l where l.purchase_order_id = v_po.id;

  for r in
    select x.variant_id, sum(x.qty) as qty, max(x.unit_cost) as unit_cost, bool_or(x.qty is null) as missing
      from jsonb_to_recordset(_lines) as x (variant_id uuid, qty numeric, unit_cost bigint)
     group by x.variant_id
     order by x.variant_id
  loop
    if r.variant_id is null or r.missing or r.qty <= 0 then
      raise exception 'every line needs an item and a quantity above zero' using errcode = '22023';
    end if;
    if not exists (select 1 from public.variants v where v.id = r.variant_id and v.business_id = v_business) then
      raise exception 'no such item in this business' using errcode = '22023';
    end if;
    if r.unit_cost is not null and r.unit_cost < 0 then
      raise exception 'a cost cannot be negative' using errcode = '22023';
    end if;
    perform private.assert_quantity(r.variant_id, r.qty);
    v_ids := v_ids || r.variant_id;
    v_qtys := v_qtys || r.qty;
    v_costs := v_costs || r.unit_cost;
  end loop;

  delete from public.purchase_order_lines l
   where l.purchase_order_id = v_po.id and not (l.variant_id = any (v_ids));
  update public.purchase_order_lines l
     set qty_ordered = d.qty, unit_cost = coalesce(d.unit_cost, l.unit_cost)
    from unnest(v_ids, v_qtys, v_costs) as d (variant_id, qty, unit_cost)
   where l.purchase_order_id = v_po.id and l.variant_id = d.variant_id
     and (l.qty_ordered, l.unit_cost) is distinct from (d.qty, coalesce(d.unit_cost, l.unit_cost));
  insert into public.purchase_order_lines (business_id, purchase_order_id, variant_id, qty_ordered, unit_cost)
  select v_business, v_po.id, d.variant_id, d.qty,
         coalesce(d.unit_cost, (select c.cost from public.variant_costs c where c.variant_id = d.variant_id), 0)
    from unnest(v_ids, v_qtys, v_costs) as d (variant_id, qty, unit_cost)
   where not exists (select 1 from public.purchase_order_lines l
                      where l.purchase_order_id = v_po.id and l.variant_id = d.variant_id)
   order by d.variant_id;

  select coalesce(jsonb_agg(jsonb_build_object('variant_id', l.variant_id, 'qty', l.qty_ordered, 'unit_cost', l.unit_cost)
                            order by l.variant_id), '[]')
    into v_after from public.purchase_order_lines l where l.purchase_order_id = v_po.id;
  if v_after is distinct from v_before then
    update public.purchase_orders po set updated_at = now() where po.id = v_po.id;
    perform private.log_activity(v_business, v_po.store_id, 'purchase_order.lines_edited', 'purchase_order', v_po.id,
                                 jsonb_build_object('lines', v_before), jsonb_build_object('lines', v_after));
  end if;
  return jsonb_array_length(v_after);
end;
$$;
comment on function public.edit_purchase_order_draft(uuid,jsonb) is 'Owners, and managers of the order''s store: replace a draft purchase order''s lines (quantity, cost, removed, added) in one call, recorded in the activity trail.';
revoke all on function public.edit_purchase_order_draft(uuid,jsonb) from public;
grant execute on function public.edit_purchase_order_draft(uuid,jsonb) to authenticated;

-- The lot of a count line given by number (the store holds nothing of it yet, so the sheet had no line for it):
-- the lot with that number for the item if the business has it (the expiry typed must then agree), else a new
-- lot, recorded in the trail as lot.created. The count itself is posted by post_count like any other line.
create or replace function private.count_found_lot(_business_id uuid, _store_id uuid, _variant_id uuid,
                                                   _lot_number text, _expires_on date)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_number text := nullif(btrim(coalesce(_lot_number, '')), '');
  v_lot public.lots;
begin
  if not exists (select 1 from public.variants v where v.id = _variant_id and v.business_id = _business_id) then
    raise exception 'no such item in this business' using errcode = '22023';
  end if;
  if char_length(v_number) > 60 then
    raise exception 'a lot number has at most 60 characters' using errcode = '22023';
  end if;
  select l.* into v_lot from public.lots l where l.variant_id = _variant_id and l.lot_number = v_number;
  if v_lot.id is not null then
    if _expires_on is not null and v_lot.expires_on is distinct from _expires_on then
      raise exception 'lot % is recorded with expiry %: enter that date or another lot number', v_number,
        coalesce(v_lot.expires_on::text, 'none') using errcode = '22023';
    end if;
    return v_lot.id;
  end if;
  -- Creates it (the lot rules apply: tracked by lot, expiry where the product requires one).
  v_lot.id := private.lot_for(_business_id, _variant_id, v_number, _expires_on);
  perform private.log_activity(_business_id, _store_id, 'lot.created', 'lot', v_lot.id, null,
    jsonb_build_object('variant_id', _variant_id, 'lot_number', v_number, 'expires_on', _expires_on, 'source', 'count'));
  return v_lot.id;
end;
$$;
revoke all on function private.count_found_lot(uuid,uuid,uuid,text,date) from public;

-- A new draft purchase order with its lines. The order's row is in the trail by its audit trigger
-- (purchase_order.created); its lines as written, and where the draft came from, are one more entry,
-- purchase_order.lines_added (as edit_purchase_order_draft records purchase_order.lines_edited). The callers have
-- checked the role and store, and each line (distinct variants of _business_id, quantities by the rules of
-- private.assert_quantity); this checks the supplier. A missing cost is the variant's average cost (0 if none).
create or replace function private.insert_purchase_order_draft(
  _business_id uuid, _store_id uuid, _supplier_id uuid, _notes text, _expected_on date,
  _variant_ids uuid[], _qtys numeric[], _costs bigint[], _source text
)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_po uuid;
begin
  if not exists (select 1 from public.suppliers s where s.id = _supplier_id and s.business_id = _business_id
                    and s.archived_at is null) then
    raise exception 'choose a supplier of this business' using errcode = '22023';
  end if;
  insert into public.purchase_orders (business_id, store_id, supplier_id, notes, expected_on, created_by)
  values (_business_id, _store_id, _supplier_id, _notes, _expected_on, (select auth.uid()))
  returning id into v_po;
  insert into public.purchase_order_lines (business_id, purchase_order_id, variant_id, qty_ordered, unit_cost)
  select _business_id, v_po, d.variant_id, d.qty,
         coalesce(d.unit_cost, (select c.cost from public.variant_costs c where c.variant_id = d.variant_id), 0)
    from unnest(_variant_ids, _qtys, _costs) as d (variant_id, qty, unit_cost)
   order by d.variant_id;
  perform private.log_activity(_business_id, _store_id, 'purchase_order.lines_added', 'purchase_order', v_po, null,
    jsonb_build_object('source', _source, 'lines',
      (select jsonb_agg(jsonb_build_object('variant_id', l.variant_id, 'qty', l.qty_ordered, 'unit_cost', l.unit_cost)
                        order by l.variant_id)
         from public.purchase_order_lines l where l.purchase_order_id = v_po)));
  return v_po;
end;
$$;
revoke all on function private.insert_purchase_order_draft(uuid,uuid,uuid,text,date,uuid[],numeric[],bigint[],text) from public;

-- create_purchase_order (20261123120000_inventory_more): same signature, checks, messages and result; the draft
-- is written by private.insert_purchase_order_draft, so its lines are now in the activity trail too.
create or replace function public.create_purchase_order(
  _store_id uuid, _supplier_id uuid, _lines jsonb, _notes text default null, _expected_on date default null
)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager']);
  v_ids uuid[] := '{}';
  v_qtys numeric[] := '{}';
  v_costs bigint[] := '{}';
  r record;
begin
  if not exists (select 1 from public.suppliers s where s.id = _supplier_id and s.business_id = v_business
                    and s.archived_at is null) then
    raise exception 'choose a supplier of this business' using errcode = '22023';
  end if;
  if jsonb_typeof(_lines) is distinct from 'array' or jsonb_array_length(_lines) = 0 then
    raise exception 'add at least one line' using errcode = '22023';
  end if;
  if jsonb_array_length(_lines) > 1000 then
    raise exception 'a purchase order has at most 1000 lines' using errcode = '22023';
  end if;
  if _notes is not null and char_length(_notes) > 500 then
    raise exception 'notes have at most 500 characters' using errcode = '22023';
  end if;
  for r in
    select x.variant_id, sum(x.qty) as qty, max(x.unit_cost) as unit_cost, bool_or(x.qty is null) as missing
      from jsonb_to_recordset(_lines) as x (variant_id uuid, qty numeric, unit_cost bigint)
     group by x.variant_id
     order by x.variant_id
  loop
    if r.variant_id is null or r.missing or r.qty <= 0 then
      raise exception 'every line needs an item and a quantity above zero' using errcode = '22023';
    end if;
    if not exists (select 1 from public.variants v where v.id = r.variant_id and v.business_id = v_business) then
      raise exception 'no such item in this business' using errcode = '22023';
    end if;
    if r.unit_cost is not null and r.unit_cost < 0 then
      raise exception 'a cost cannot be negative' using errcode = '22023';
    end if;
    perform private.assert_quantity(r.variant_id, r.qty);
    v_ids := v_ids || r.variant_id;
    v_qtys := v_qtys || r.qty;
    v_costs := v_costs || r.unit_cost;
  end loop;
  return private.insert_purchase_order_draft(v_business, _store_id, _supplier_id, nullif(btrim(_notes), ''),
                                             _expected_on, v_ids, v_qtys, v_costs, 'typed');
end;
$$;
comment on function public.create_purchase_order(uuid,uuid,jsonb,text,date) is 'Owners and managers of the store: a draft purchase order with its lines in one transaction.';
revoke all on function public.create_purchase_order(uuid,uuid,jsonb,text,date) from public;
grant execute on function public.create_purchase_order(uuid,uuid,jsonb,text,date) to authenticated;

-- create_reorder_purchase_order (20261123180000_retail_hardening): now security definer. Same signature, result
-- and messages. It ran as its caller, under the insert policies of purchase_orders and purchase_order_lines
-- (hence INSERT on the lines for the API roles); now it checks for itself: owners, and managers of the store
-- (42501), a supplier of the business (22023), each line a variant of the business with a quantity by the rules
-- of private.assert_quantity, a variant once (22023). Unit cost from the variant's average cost, as before.
create or replace function public.create_reorder_purchase_order(_store_id uuid, _supplier_id uuid, _lines jsonb)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager']);
  v_line jsonb;
  v_n int := 0;
  v_qty numeric;
  v_unit text;
  v_problem text;
  v_ids uuid[] := '{}';
  v_qtys numeric[] := '{}';
begin
  if jsonb_typeof(_lines) is distinct from 'array' or jsonb_array_length(_lines) = 0 or jsonb_array_length(_lines) > 500 then
    raise exception 'choose between 1 and 500 lines' using errcode = '22023';
  end if;
  for v_line in select value from jsonb_array_elements(_lines) loop
    v_n := v_n + 1;
    if jsonb_typeof(v_line -> 'qty') is distinct from 'number' or (v_line ->> 'qty')::numeric <= 0
       or coalesce(v_line ->> 'variant_id', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      raise exception 'line %: a variant and a quantity above zero', v_n using errcode = '22023';
    end if;
    v_qty := (v_line ->> 'qty')::numeric;
    select p.unit into v_unit from public.variants v join public.products p on p.id = v.product_id
     where v.id = (v_line ->> 'variant_id')::uuid and v.business_id = v_business;
    if v_unit is null then
      raise exception 'line %: not a product of this business', v_n using errcode = '22023';
    end if;
    v_problem := private.quantity_problem(v_unit, v_qty);
    if v_problem is not null then
      raise exception 'line %: %', v_n, v_problem using errcode = '22023';
    end if;
    if (v_line ->> 'variant_id')::uuid = any (v_ids) then
      raise exception 'a product appears twice in the order' using errcode = '22023';
    end if;
    v_ids := v_ids || (v_line ->> 'variant_id')::uuid;
    v_qtys := v_qtys || v_qty;
  end loop;
  return private.insert_purchase_order_draft(v_business, _store_id, _supplier_id, 'Suggested by the reorder insights',
                                             null, v_ids, v_qtys, array_fill(null::bigint, array[v_n]), 'reorder');
end;
$$;
comment on function public.create_reorder_purchase_order(uuid,uuid,jsonb) is 'Owners, and managers of the store: a draft purchase order with the given lines ([{variant_id, qty}]), unit cost from the variant''s cost, recorded in the activity trail. Returns its id.';
revoke all on function public.create_reorder_purchase_order(uuid,uuid,jsonb) from public;
grant execute on function public.create_reorder_purchase_order(uuid,uuid,jsonb) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The one writer of the ledger (20261122120100_inventory_functions), with the date rule of the register applied to
-- the back office: receiving, adjusting, counting and transfers are dated by the caller at most 7 days back and not
-- in the future (a stock entry dated 2001 rewrote closed stock reports). A refund's restock is dated by its shift
-- (private.pos_entry_terms); the database's own writes (no caller: seeds, jobs) are not bounded.
create or replace function private.apply_movement(
  _business_id uuid, _store_id uuid, _variant_id uuid, _lot_id uuid, _kind text, _qty numeric,
  _reason text default null, _unit_cost bigint default null, _occurred_at timestamptz default null,
  _reference_type text default null, _reference_id uuid default null, _note text default null
)
returns numeric
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_has_lots boolean;
  v_id bigint;
  v_balance numeric;
begin
  if _occurred_at is not null and (select auth.uid()) is not null and _kind not in ('refund', 'sale') and
     (not isfinite(_occurred_at) or _occurred_at < now() - interval '7 days' or _occurred_at > now() + interval '5 minutes') then
    raise exception 'date a stock entry within the last 7 days and not in the future' using errcode = '22023';
  end if;
  select p.has_lots into v_has_lots
    from public.variants v join public.products p on p.id = v.product_id
   where v.id = _variant_id and v.business_id = _business_id;
  if v_has_lots is null then
    raise exception 'no such item in this business' using errcode = '22023';
  end if;
  if not exists (select 1 from public.stores s where s.id = _store_id and s.business_id = _business_id) then
    raise exception 'no such store in this business' using errcode = '22023';
  end if;
  perform private.assert_quantity(_variant_id, _qty);
  if _qty = 0 then
    raise exception 'enter a quantity other than zero' using errcode = '22023';
  end if;
  if v_has_lots and _lot_id is null then
    raise exception 'choose a lot: this item is tracked by lot' using errcode = '22023';
  elsif not v_has_lots and _lot_id is not null then
    raise exception 'this item is not tracked by lot' using errcode = '22023';
  elsif _lot_id is not null and not exists (select 1 from public.lots l where l.id = _lot_id and l.variant_id = _variant_id) then
    raise exception 'this lot belongs to another item' using errcode = '22023';
  end if;
  insert into public.stock_movements (business_id, store_id, variant_id, lot_id, kind, qty, reason, unit_cost,
                                      occurred_at, actor_id, reference_type, reference_id, note)
  values (_business_id, _store_id, _variant_id, _lot_id, _kind, _qty, _reason, _unit_cost,
          coalesce(_occurred_at, now()), (select auth.uid()), _reference_type, _reference_id, _note)
  returning id into v_id;
  insert into public.stock_balances as b (business_id, store_id, variant_id, lot_id, qty)
  values (_business_id, _store_id, _variant_id, _lot_id, _qty)
  on conflict (store_id, variant_id, lot_id) do update set qty = b.qty + excluded.qty, updated_at = now()
  returning b.qty into v_balance;
  -- Taking out more than is there (by hand) is refused; the whole transaction rolls back.
  if v_balance < 0 and _kind in ('adjust', 'damage', 'transfer_out') and _qty < 0 then
    raise exception 'not enough stock: only % on hand', v_balance - _qty using errcode = '22023';
  end if;
  perform private.log_activity(_business_id, _store_id, 'stock.' || _kind, 'variant', _variant_id, null,
    jsonb_build_object('movement_id', v_id, 'qty', _qty, 'balance', v_balance, 'lot_id', _lot_id, 'reason', _reason,
                       'reference_type', _reference_type, 'reference_id', _reference_id));
  return v_balance;
end;
$$;
revoke all on function private.apply_movement(uuid,uuid,uuid,uuid,text,numeric,text,bigint,timestamp with time zone,text,uuid,text) from public;

create function public.stock_history(_store_id uuid, _variant_id uuid, _limit int default 100, _offset int default 0)
returns table (
  id bigint, kind text, qty numeric, balance numeric, reason text, lot_number text, expires_on date,
  occurred_at timestamptz, recorded_at timestamptz, actor_id uuid, actor_label text, reference_type text,
  reference_id uuid, note text, actor_email text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_store_role(_store_id, array['owner', 'manager']);
  return query
    with h as (
      select m.*, sum(m.qty) over (order by m.id) as running
        from public.stock_movements m
       where m.store_id = _store_id and m.variant_id = _variant_id
    )
    select h.id, h.kind, h.qty, h.running, h.reason, l.lot_number, l.expires_on, h.occurred_at, h.recorded_at,
           h.actor_id, p.full_name, h.reference_type, h.reference_id, h.note::text, u.email::text
      from h
      left join public.lots l on l.id = h.lot_id
      left join auth.users u on u.id = h.actor_id
      left join public.profiles p on p.id = h.actor_id
     order by h.id desc
     limit least(greatest(coalesce(_limit, 100), 1), 500) offset greatest(coalesce(_offset, 0), 0);
end;
$$;
comment on function public.stock_history(uuid,uuid,integer,integer) is 'Owners and managers of the store: a variant''s movements newest first with the running balance and the actor (user id, account email, name).';
revoke all on function public.stock_history(uuid,uuid,integer,integer) from public;
grant execute on function public.stock_history(uuid,uuid,integer,integer) to authenticated;

-- email_purchase_order (20261123120000_inventory_more.sql): the same, plus the hourly caps before queueing.
create or replace function public.email_purchase_order(_purchase_order_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_po public.purchase_orders;
  v_business uuid;
  v_supplier public.suppliers;
  v_lines jsonb;
begin
  select po.* into v_po from public.purchase_orders po where po.id = _purchase_order_id;
  if v_po.id is null then
    raise exception 'no such purchase order' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_po.store_id, array['owner', 'manager']);
  if v_po.status not in ('ordered', 'partly_received') then
    raise exception 'mark the order as ordered before sending it to the supplier' using errcode = '22023';
  end if;
  select s.* into v_supplier from public.suppliers s where s.id = v_po.supplier_id;
  if v_supplier.email is null then
    raise exception 'this supplier has no email address: add one on the Suppliers page' using errcode = '22023';
  end if;
  if (select count(*) from public.activity a where a.business_id = v_business and a.entity_id = _purchase_order_id
        and a.kind = 'purchase_order.emailed' and a.at > now() - interval '1 hour') >= 3 then
    raise exception 'this order was emailed 3 times in the last hour: try again later' using errcode = '22023';
  end if;
  perform private.spend_email(v_business, 'purchase_order');
  select coalesce(jsonb_agg(jsonb_build_object(
           'sku', v.sku,
           'name', concat_ws(' / ', p.name, v.option1, v.option2, v.option3),
           'qty', l.qty_ordered, 'unit', p.unit) order by p.name, v.sku), '[]')
    into v_lines
    from public.purchase_order_lines l
    join public.variants v on v.id = l.variant_id
    join public.products p on p.id = v.product_id
   where l.purchase_order_id = _purchase_order_id;
  insert into public.email_outbox (to_email, template, params)
  values (v_supplier.email, 'purchase_order', jsonb_build_object(
    'order_number', upper(left(replace(_purchase_order_id::text, '-', ''), 8)),
    'business_name', (select b.name from public.businesses b where b.id = v_business),
    'store_name', (select st.name from public.stores st where st.id = v_po.store_id),
    'contact_name', v_supplier.contact_name,
    'expected_on', v_po.expected_on,
    'notes', v_po.notes,
    'lines', v_lines));
  perform private.log_activity(v_business, v_po.store_id, 'purchase_order.emailed', 'purchase_order',
    _purchase_order_id, null, jsonb_build_object('supplier_id', v_supplier.id, 'lines', jsonb_array_length(v_lines)));
  return v_supplier.email;
end;
$$;
comment on function public.email_purchase_order(uuid) is 'Owners and managers of the store: queues an ordered purchase order to its supplier''s email (3 per order per hour, and the business''s and account''s hourly email caps: PT429 past them). Returns the address.';
revoke all on function public.email_purchase_order(uuid) from public;
grant execute on function public.email_purchase_order(uuid) to authenticated;

-- An IMEI: 15 digits whose last is the Luhn check digit of the first 14.
create or replace function private.imei_is_valid(_imei text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(_imei, '') ~ '^[0-9]{15}$'
     and (select sum(case when i % 2 = 0 then (d * 2) / 10 + (d * 2) % 10 else d end) % 10 = 0
            from (select i, substr(_imei, i, 1)::int as d from generate_series(1, 15) i) x);
$$;
revoke all on function private.imei_is_valid(text) from public;

-- What is wrong with a serial for a product's tracking (null: nothing).
create or replace function private.serial_problem(_tracking text, _serial text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when coalesce(btrim(_serial), '') = '' then 'enter the serial number'
    when _tracking = 'imei' and not private.imei_is_valid(_serial) then 'an IMEI is 15 digits and its last digit checks the others (Luhn)'
    when _serial !~ '^[A-Za-z0-9./-]{1,64}$' then 'a serial number is up to 64 letters, digits, dots, dashes or slashes'
    end;
$$;
revoke all on function private.serial_problem(text,text) from public;

-- The lots a quantity of a lot-tracked item takes in a store on a day: lots with stock here, neither expired
-- (expires_on before _on) nor quarantined, earliest expiry first (no expiry last, then oldest lot); the rows are
-- locked FOR SHARE so a recall committing meanwhile is waited for and seen. What those lots lack goes on the last
-- of them. With none: the one lot the item most likely comes from (not quarantined before quarantined, unexpired
-- before expired, latest expiry first), flagged expired or quarantined for the caller to decide. No lot at all:
-- nothing (the caller says so).
create or replace function private.fefo_pick(_store_id uuid, _variant_id uuid, _qty numeric, _on date)
returns table (ord integer, lot_id uuid, lot_number text, expires_on date, qty numeric, expired boolean,
               quarantined boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_left numeric := _qty;
  v_ids uuid[] := '{}';
  v_numbers text[] := '{}';
  v_expiries date[] := '{}';
  v_qtys numeric[] := '{}';
  r record;
  i int;
begin
  for r in
    select l.id, l.lot_number, l.expires_on, b.qty
      from public.lots l
      join public.stock_balances b on b.lot_id = l.id and b.store_id = _store_id and b.variant_id = _variant_id
     where l.variant_id = _variant_id and l.quarantined_at is null
       and (l.expires_on is null or l.expires_on >= _on) and b.qty > 0
     order by l.expires_on nulls last, l.created_at, l.id
       for share of l
  loop
    exit when v_left <= 0;
    v_ids := v_ids || r.id;
    v_numbers := v_numbers || r.lot_number;
    v_expiries := v_expiries || r.expires_on;
    v_qtys := v_qtys || least(v_left, r.qty);
    v_left := v_left - least(v_left, r.qty);
  end loop;
  if cardinality(v_ids) > 0 then
    v_qtys[cardinality(v_qtys)] := v_qtys[cardinality(v_qtys)] + greatest(v_left, 0);
    for i in 1 .. cardinality(v_ids) loop
      ord := i; lot_id := v_ids[i]; lot_number := v_numbers[i]; expires_on := v_expiries[i]; qty := v_qtys[i];
      expired := false; quarantined := false;
      return next;
    end loop;
    return;
  end if;
  return query
    select 1, l.id, l.lot_number, l.expires_on, _qty, coalesce(l.expires_on < _on, false), l.quarantined_at is not null
      from public.lots l
     where l.variant_id = _variant_id
     order by (l.quarantined_at is null) desc, (l.expires_on is null or l.expires_on >= _on) desc,
              l.expires_on desc nulls first, l.created_at desc, l.id
     limit 1
       for share of l;
end;
$$;
comment on function private.fefo_pick(uuid,uuid,numeric,date) is 'The lots a quantity takes in a store, earliest expiry first among the sellable lots with stock (ADR 0360).';
revoke all on function private.fefo_pick(uuid,uuid,numeric,date) from public;

-- A count line of a lot-tracked item that names no lot: the counted quantity is taken to be the freshest stock
-- (FEFO sells the earliest first), so it fills this store's lots that are not quarantined from the latest expiry
-- down, each up to its balance; a surplus goes on the latest-expiring lot. The item's balance rows here are locked
-- first, so a sale meanwhile is not lost. One row per lot changed or holding stock.
create or replace function private.count_fefo(_business_id uuid, _store_id uuid, _variant_id uuid, _counted numeric,
                                              _occurred_at timestamptz)
returns table (o_variant_id uuid, o_lot_id uuid, o_expected numeric, o_counted numeric, o_delta numeric)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_left numeric := _counted;
  v_ids uuid[] := '{}';
  v_balances numeric[] := '{}';
  v_targets numeric[] := '{}';
  v_lot uuid;
  r record;
  i int;
begin
  perform 1 from public.stock_balances b
   where b.store_id = _store_id and b.variant_id = _variant_id and b.lot_id is not null
   order by b.id for update;
  for r in
    select b.lot_id, b.qty from public.stock_balances b join public.lots l on l.id = b.lot_id
     where b.store_id = _store_id and b.variant_id = _variant_id and l.quarantined_at is null
     order by l.expires_on desc nulls first, l.created_at desc, l.id desc
  loop
    v_ids := v_ids || r.lot_id;
    v_balances := v_balances || r.qty;
    v_targets := v_targets || least(v_left, greatest(r.qty, 0));
    v_left := v_left - least(v_left, greatest(r.qty, 0));
  end loop;
  if cardinality(v_ids) = 0 then
    if _counted = 0 then
      return;
    end if;
    select l.id into v_lot from public.lots l where l.variant_id = _variant_id and l.quarantined_at is null
     order by l.expires_on desc nulls first, l.created_at desc limit 1;
    if v_lot is null then
      raise exception 'this item is tracked by lot and has no lot to count into: enter the lot found' using errcode = '22023';
    end if;
    v_ids := array[v_lot];
    v_balances := array[0::numeric];
    v_targets := array[0::numeric];
  end if;
  v_targets[1] := v_targets[1] + greatest(v_left, 0);
  for i in 1 .. cardinality(v_ids) loop
    continue when v_balances[i] = 0 and v_targets[i] = 0;
    if v_targets[i] <> v_balances[i] then
      perform private.apply_movement(_business_id, _store_id, _variant_id, v_ids[i], 'count', v_targets[i] - v_balances[i],
                                     'count', null, _occurred_at, null, null, null);
    end if;
    o_variant_id := _variant_id; o_lot_id := v_ids[i]; o_expected := v_balances[i]; o_counted := v_targets[i];
    o_delta := v_targets[i] - v_balances[i];
    return next;
  end loop;
end;
$$;
comment on function private.count_fefo(uuid,uuid,uuid,numeric,timestamp with time zone) is 'A lot-tracked item counted without naming lots: the count spread over the store''s lots, latest expiry filled first (ADR 0360).';
revoke all on function private.count_fefo(uuid,uuid,uuid,numeric,timestamp with time zone) from public;

-- Owners and managers of the business recall lots (1 to 200 of its lots, none recalled already): the lots are
-- quarantined in every store at once, so no store sells them from the commit on (sales wait for the lots' rows,
-- private.fefo_pick). The stock stays on hand and is counted; the ledger does not move. One trail entry with each
-- lot's stock per store. Returns the recall's id.
create or replace function public.start_recall(_business_id uuid, _lot_ids uuid[], _reason text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_reason text := btrim(coalesce(_reason, ''));
  v_recall uuid;
  v_lots jsonb;
begin
  perform private.assert_writable();
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if _lot_ids is null or cardinality(_lot_ids) = 0 then
    raise exception 'choose at least one lot to recall' using errcode = '22023';
  elsif cardinality(_lot_ids) > 200 then
    raise exception 'choose at most 200 lots for one recall' using errcode = '22023';
  elsif char_length(v_reason) not between 1 and 500 then
    raise exception 'say why the lots are recalled (up to 500 characters)' using errcode = '22023';
  end if;
  -- Locked in id order, so two recalls of overlapping lots queue rather than deadlock.
  perform 1 from public.lots l where l.id = any (_lot_ids) and l.business_id = _business_id order by l.id for update;
  if (select count(*) from public.lots l where l.id = any (_lot_ids) and l.business_id = _business_id)
     <> (select count(distinct x) from unnest(_lot_ids) x) then
    raise exception 'choose lots of this business' using errcode = '22023';
  end if;
  if exists (select 1 from public.lots l where l.id = any (_lot_ids) and l.quarantined_at is not null) then
    raise exception 'a chosen lot is already recalled: untick it' using errcode = '22023';
  end if;
  insert into public.recalls (business_id, reason, created_by)
  values (_business_id, v_reason, (select auth.uid()))
  returning id into v_recall;
  update public.lots l set quarantined_at = now(), recall_id = v_recall
   where l.id = any (_lot_ids) and l.business_id = _business_id;
  insert into public.recall_lots (recall_id, lot_id, business_id, on_hand)
  select v_recall, l.id, _business_id, coalesce((select sum(b.qty) from public.stock_balances b where b.lot_id = l.id), 0)
    from public.lots l where l.id = any (_lot_ids) and l.business_id = _business_id
   order by l.id;
  select jsonb_agg(jsonb_build_object('lot_id', l.id, 'lot_number', l.lot_number, 'variant_id', l.variant_id,
           'stock', coalesce((select jsonb_object_agg(b.store_id, b.qty) from public.stock_balances b
                               where b.lot_id = l.id and b.qty <> 0), '{}')) order by l.id)
    into v_lots
    from public.lots l where l.id = any (_lot_ids) and l.business_id = _business_id;
  perform private.log_activity(_business_id, null, 'recall.started', 'recall', v_recall, null,
    jsonb_build_object('reason', v_reason, 'lots', v_lots));
  return v_recall;
end;
$$;
comment on function public.start_recall(uuid,uuid[],text) is 'Owners and managers: recalls lots of the business; their stock in every store is quarantined (unsellable, still counted); audited (ADR 0360).';
revoke all on function public.start_recall(uuid,uuid[],text) from public;
grant execute on function public.start_recall(uuid,uuid[],text) to authenticated;

-- send_transfer as in 20261122120100; a lot-tracked line without a lot takes the FEFO lots (one line each).
create or replace function public.send_transfer(_from_store_id uuid, _to_store_id uuid, _lines jsonb, _note text default null)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_from_store_id, array['owner', 'manager']);
  v_transfer uuid;
  r record;
  p record;
  v_on date;
  v_sellable numeric;
begin
  if not exists (select 1 from public.stores s where s.id = _to_store_id and s.business_id = v_business
                    and s.archived_at is null) or _to_store_id = _from_store_id then
    raise exception 'choose another store of this business to send to' using errcode = '22023';
  end if;
  if jsonb_typeof(_lines) is distinct from 'array' or jsonb_array_length(_lines) = 0 then
    raise exception 'send at least one item' using errcode = '22023';
  elsif jsonb_array_length(_lines) > 1000 then
    raise exception 'a transfer has at most 1000 lines' using errcode = '22023';
  end if;
  insert into public.transfers (business_id, from_store_id, to_store_id, note, sent_by)
  values (v_business, _from_store_id, _to_store_id, _note, (select auth.uid()))
  returning id into v_transfer;
  for r in
    select x.variant_id, x.lot_id, x.qty
      from jsonb_to_recordset(_lines) as x (variant_id uuid, lot_id uuid, qty numeric)
     order by x.variant_id, x.lot_id nulls first
  loop
    if r.qty is null or r.qty <= 0 then
      raise exception 'send a quantity above zero for every line' using errcode = '22023';
    end if;
    if not exists (select 1 from public.variants v where v.id = r.variant_id and v.business_id = v_business) then
      raise exception 'no such item in this business' using errcode = '22023';
    end if;
    if r.lot_id is null and exists (select 1 from public.variants v join public.products pr on pr.id = v.product_id
                                     where v.id = r.variant_id and pr.has_lots) then
      -- No lot named (ADR 0360): the earliest-expiring lots here that are neither expired nor recalled, one line
      -- per lot; never more than they hold.
      v_on := (select (now() at time zone s.time_zone)::date from public.stores s where s.id = _from_store_id);
      select coalesce(sum(b.qty), 0) into v_sellable
        from public.stock_balances b join public.lots l on l.id = b.lot_id
       where b.store_id = _from_store_id and b.variant_id = r.variant_id and b.qty > 0 and l.quarantined_at is null
         and (l.expires_on is null or l.expires_on >= v_on);
      if v_sellable < r.qty then
        raise exception 'not enough stock: only % on hand in lots neither expired nor recalled (name a lot to send others)',
          v_sellable using errcode = '22023';
      end if;
      for p in select f.lot_id, f.qty from private.fefo_pick(_from_store_id, r.variant_id, r.qty, v_on) f order by f.ord loop
        perform private.apply_movement(v_business, _from_store_id, r.variant_id, p.lot_id, 'transfer_out', -p.qty,
                                       null, null, null, 'transfer', v_transfer, null);
        insert into public.transfer_lines (business_id, transfer_id, variant_id, lot_id, qty_sent)
        values (v_business, v_transfer, r.variant_id, p.lot_id, p.qty);
      end loop;
      continue;
    end if;
    perform private.apply_movement(v_business, _from_store_id, r.variant_id, r.lot_id, 'transfer_out', -r.qty,
                                   null, null, null, 'transfer', v_transfer, null);
    insert into public.transfer_lines (business_id, transfer_id, variant_id, lot_id, qty_sent)
    values (v_business, v_transfer, r.variant_id, r.lot_id, r.qty);
  end loop;
  perform private.log_activity(v_business, _from_store_id, 'transfer.sent', 'transfer', v_transfer, null,
    jsonb_build_object('to_store_id', _to_store_id, 'lines', jsonb_array_length(_lines)));
  return v_transfer;
end;
$$;
revoke all on function public.send_transfer(uuid,uuid,jsonb,text) from public;
grant execute on function public.send_transfer(uuid,uuid,jsonb,text) to authenticated;

-- post_count as in 20261124120000_catalog_search_words; a lot-tracked item counted without naming lots is
-- spread over its lots by private.count_fefo.
create or replace function public.post_count(_store_id uuid, _lines jsonb, _occurred_at timestamptz default null)
returns table (variant_id uuid, lot_id uuid, expected numeric, counted numeric, delta numeric)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager']);
  r record;
  v_expected numeric;
  v_fefo record;
begin
  if jsonb_typeof(_lines) is distinct from 'array' or jsonb_array_length(_lines) = 0 then
    raise exception 'count at least one item' using errcode = '22023';
  end if;
  if jsonb_array_length(_lines) > 5000 then
    raise exception 'post at most 5000 lines at once' using errcode = '22023';
  end if;
  if exists (select 1 from jsonb_to_recordset(_lines) as x (lot_id uuid, lot_number text, counted numeric)
              where nullif(btrim(coalesce(x.lot_number, '')), '') is not null
                and (x.lot_id is not null or x.counted is null or x.counted <= 0)) then
    raise exception 'a lot found during the count needs its number alone (no lot id) and a counted quantity above zero'
      using errcode = '22023';
  end if;
  -- Checked before any found lot is created or any balance row written.
  if exists (select 1 from jsonb_to_recordset(_lines) as x (variant_id uuid, lot_id uuid)
              where x.variant_id is null
                 or not exists (select 1 from public.variants v where v.id = x.variant_id and v.business_id = v_business)
                 or (x.lot_id is not null
                     and not exists (select 1 from public.lots l where l.id = x.lot_id and l.variant_id = x.variant_id
                                        and l.business_id = v_business))) then
    raise exception 'every counted line needs an item of this business, and a lot of that item when it names one'
      using errcode = '22023';
  end if;
  -- A lot-tracked item counted without naming lots (ADR 0360) is spread over its lots, so it is counted once:
  -- not also lot by lot in the same count.
  if exists (select 1
               from jsonb_to_recordset(_lines) as x (variant_id uuid, lot_id uuid, lot_number text)
               join public.variants v on v.id = x.variant_id join public.products pr on pr.id = v.product_id and pr.has_lots
              group by x.variant_id
             having count(*) filter (where x.lot_id is null and nullif(btrim(coalesce(x.lot_number, '')), '') is null) > 0
                and count(*) > 1) then
    raise exception 'count a lot-tracked item either as a whole or lot by lot, not both, and once' using errcode = '22023';
  end if;
  for r in
    select y.variant_id, y.lot_id, y.counted
      from (select x.variant_id, x.counted,
                   case when nullif(btrim(coalesce(x.lot_number, '')), '') is null then x.lot_id
                        else private.count_found_lot(v_business, _store_id, x.variant_id, x.lot_number, x.expires_on)
                   end as lot_id
              from (select x.* from jsonb_to_recordset(_lines)
                                    as x (variant_id uuid, lot_id uuid, counted numeric, lot_number text, expires_on date)
                     order by x.variant_id, x.lot_number) x
             offset 0) y
     order by y.variant_id, y.lot_id nulls first
  loop
    if r.variant_id is null or r.counted is null or r.counted < 0 then
      raise exception 'every counted line needs an item and a quantity of zero or more' using errcode = '22023';
    end if;
    perform private.assert_quantity(r.variant_id, r.counted);
    if r.lot_id is null and exists (select 1 from public.variants v join public.products pr on pr.id = v.product_id
                                     where v.id = r.variant_id and pr.has_lots) then
      for v_fefo in select * from private.count_fefo(v_business, _store_id, r.variant_id, r.counted, _occurred_at) loop
        variant_id := v_fefo.o_variant_id; lot_id := v_fefo.o_lot_id; expected := v_fefo.o_expected;
        counted := v_fefo.o_counted; delta := v_fefo.o_delta;
        return next;
      end loop;
      continue;
    end if;
    insert into public.stock_balances (business_id, store_id, variant_id, lot_id, qty)
    values (v_business, _store_id, r.variant_id, r.lot_id, 0)
    on conflict on constraint stock_balances_key do nothing;
    select b.qty into v_expected from public.stock_balances b
     where b.store_id = _store_id and b.variant_id = r.variant_id and b.lot_id is not distinct from r.lot_id
       for update;
    if r.counted <> v_expected then
      perform private.apply_movement(v_business, _store_id, r.variant_id, r.lot_id, 'count', r.counted - v_expected,
                                     'count', null, _occurred_at, null, null, null);
    end if;
    variant_id := r.variant_id; lot_id := r.lot_id; expected := v_expected; counted := r.counted;
    delta := r.counted - v_expected;
    return next;
  end loop;
end;
$$;
comment on function public.post_count(uuid,jsonb,timestamp with time zone) is 'Owners and managers of the store: counted quantities become count movements under the balance row''s lock; items and lots are checked before anything is written.';
revoke all on function public.post_count(uuid,jsonb,timestamp with time zone) from public;
grant execute on function public.post_count(uuid,jsonb,timestamp with time zone) to authenticated;

create or replace function public.lot_list(_business_id uuid, _query text default null, _limit integer default 200)
returns table (
  lot_id uuid, variant_id uuid, product_name text, sku text, lot_number text, expires_on date,
  quarantined_at timestamp with time zone, recall_id uuid, on_hand numeric
)
language sql
stable
set search_path = ''
as $$
  select l.id, v.id, p.name::text, v.sku::text, l.lot_number, l.expires_on, l.quarantined_at, l.recall_id,
         coalesce((select sum(b.qty) from public.stock_balances b where b.lot_id = l.id), 0)
    from public.lots l
    join public.variants v on v.id = l.variant_id
    join public.products p on p.id = v.product_id
   where l.business_id = _business_id
     and (nullif(btrim(coalesce(_query, '')), '') is null
          or position(lower(btrim(_query)) in lower(p.name || ' ' || coalesce(v.sku, '') || ' ' || l.lot_number)) > 0)
   order by l.quarantined_at is not null, l.expires_on nulls last, p.name, l.lot_number
   limit least(greatest(coalesce(_limit, 200), 1), 500);
$$;
comment on function public.lot_list(uuid,text,integer) is 'Members (row level security): the business''s lots with expiry, recall state and the stock in the stores they may use, soonest expiry first, recalled last.';
revoke all on function public.lot_list(uuid,text,integer) from public;
grant execute on function public.lot_list(uuid,text,integer) to authenticated;

create or replace function public.receive_serials(_store_id uuid, _variant_id uuid, _serials text[],
                                                  _purchase_order_id uuid default null)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid;
  v_tracking text;
  v_serial text;
  v_problem text;
  v_known text[];
begin
  select a.o_business_id into v_business from private.pos_store_access(_store_id, array['owner', 'manager']) a;
  select p.serial_tracking into v_tracking
    from public.variants v join public.products p on p.id = v.product_id
   where v.id = _variant_id and v.business_id = v_business;
  if v_tracking is null then
    raise exception 'this item is not tracked by serial number: turn serial tracking on for its product first' using errcode = '22023';
  end if;
  if _purchase_order_id is not null and not exists (
       select 1 from public.purchase_orders o join public.purchase_order_lines l on l.purchase_order_id = o.id
        where o.id = _purchase_order_id and o.business_id = v_business and o.store_id = _store_id
          and l.variant_id = _variant_id) then
    raise exception 'the purchase order is not one of this store with this item' using errcode = '22023';
  end if;
  if coalesce(cardinality(_serials), 0) = 0 or cardinality(_serials) > 500 then
    raise exception 'receive between 1 and 500 serial numbers at a time' using errcode = '22023';
  end if;
  foreach v_serial in array _serials loop
    v_problem := private.serial_problem(v_tracking, v_serial);
    if v_problem is not null then
      raise exception '%: %', left(coalesce(v_serial, ''), 64), v_problem using errcode = '22023';
    end if;
  end loop;
  if (select count(distinct btrim(s)) from unnest(_serials) s) <> cardinality(_serials) then
    raise exception 'a serial number is listed twice' using errcode = '22023';
  end if;
  select array_agg(n.serial order by n.serial) into v_known from public.serial_numbers n
   where n.business_id = v_business and n.variant_id = _variant_id and n.serial = any (select btrim(s) from unnest(_serials) s);
  if v_known is not null then
    raise exception 'already received: %', array_to_string(v_known[1:10], ', ') using errcode = '23505';
  end if;
  insert into public.serial_numbers (business_id, variant_id, serial, store_id, received_by, purchase_order_id)
  select v_business, _variant_id, btrim(s), _store_id, (select auth.uid()), _purchase_order_id from unnest(_serials) s;
  perform private.log_activity(v_business, _store_id, 'serial.received', 'variant', _variant_id, null,
    jsonb_build_object('count', cardinality(_serials), 'first', btrim(_serials[1]), 'purchase_order_id', _purchase_order_id));
  return cardinality(_serials);
end;
$$;
comment on function public.receive_serials(uuid,uuid,text[],uuid) is 'Owners and managers of the store name the units received (all or nothing; 23505 for a known serial), optionally on a purchase order of the store with a line for the item.';
revoke all on function public.receive_serials(uuid,uuid,text[],uuid) from public;
grant execute on function public.receive_serials(uuid,uuid,text[],uuid) to authenticated;

-- A serial across the business: each unit of that serial (or a sale of it that was never received), where it was
-- received, each sale and return, and the warranty. Details (customer, order, supplier, sale id) only for owners and
-- managers in the stores they may use; cashiers see the rest for warranty claims at the counter.
create or replace function public.find_serial(_business_id uuid, _serial text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_role text;
  v_full boolean;
  v_stores uuid[];
  v_serial text := btrim(coalesce(_serial, ''));
begin
  v_role := private.assert_role(_business_id, array['owner', 'manager', 'cashier']);
  if v_serial = '' or char_length(v_serial) > 64 then
    raise exception 'enter a serial number (up to 64 characters)' using errcode = '22023';
  end if;
  v_full := v_role <> 'cashier' and _business_id in (select private.my_full_access_business_ids());
  v_stores := case when v_role = 'cashier' then '{}'::uuid[]
                   else array(select private.my_listed_store_ids()) end;
  return coalesce((
    with units as (
      select n.id, n.serial, n.variant_id, n.status, n.store_id, n.received_at, n.purchase_order_id, n.sale_line_id
        from public.serial_numbers n
       where n.business_id = _business_id and n.serial = v_serial
      union all
      -- Sold offline but never received (flagged serial_unknown): still found, as not received.
      select distinct null::uuid, ss.serial, l.variant_id, 'not_received', null::uuid, null::timestamptz, null::uuid, null::uuid
        from public.sale_line_serials ss join public.sale_lines l on l.id = ss.sale_line_id
       where ss.business_id = _business_id and ss.serial = v_serial and ss.serial_id is null
    ),
    sold as (
      select u.id as unit_id, u.variant_id as unit_variant, s.id as sale_id, s.receipt_number, s.occurred_at, s.store_id,
             st.name as store, st.time_zone, c.name as customer, ss.duplicate, ss.sale_line_id,
             (v_full or s.store_id = any (v_stores)) as open
        from units u
        join public.sale_line_serials ss on ss.business_id = _business_id
         and ((u.id is not null and ss.serial_id = u.id) or (u.id is null and ss.serial_id is null and ss.serial = v_serial))
        join public.sale_lines l on l.id = ss.sale_line_id and l.variant_id = u.variant_id
        join public.sales s on s.id = ss.sale_id
        join public.stores st on st.id = s.store_id
        left join public.customers c on c.id = s.customer_id
    )
    select jsonb_agg(jsonb_build_object(
      'serial', u.serial, 'variant_id', u.variant_id, 'product', p.name, 'sku', v.sku, 'tracking', p.serial_tracking,
      'status', u.status, 'store', rs.name,
      'received', case when u.id is not null then jsonb_build_object(
          'at', u.received_at, 'store_id', u.store_id, 'store', rs.name,
          'purchase_order_id', case when v_full or u.store_id = any (v_stores) then u.purchase_order_id end,
          'supplier', case when v_full or u.store_id = any (v_stores) then sup.name end) end,
      'sales', coalesce((
        select jsonb_agg(jsonb_build_object(
                 'occurred_at', x.occurred_at, 'sold_on', (x.occurred_at at time zone x.time_zone)::date,
                 'store_id', x.store_id, 'store', x.store, 'receipt_number', x.receipt_number, 'duplicate', x.duplicate,
                 'sale_id', case when x.open then x.sale_id end,
                 'customer', case when x.open then x.customer end,
                 'refunds', coalesce((
                   select jsonb_agg(jsonb_build_object(
                            'refund_id', case when x.open then f.id end, 'occurred_at', f.occurred_at, 'returned_on', (f.occurred_at at time zone fs.time_zone)::date,
                            'store', fs.name, 'qty', rl.qty, 'disposition', rl.disposition)
                          order by f.occurred_at)
                     from public.refund_lines rl
                     join public.refunds f on f.id = rl.refund_id
                     join public.stores fs on fs.id = f.store_id
                    where rl.sale_line_id = x.sale_line_id and rl.business_id = _business_id), '[]'))
               order by x.occurred_at)
          from sold x where x.unit_id is not distinct from u.id and x.unit_variant = u.variant_id), '[]'),
      'warranty_months', p.warranty_months,
      'warranty_ends_on', w.ends_on,
      'warranty', case when p.warranty_months is null then 'none'
                       when u.status not in ('sold', 'not_received') or w.ends_on is null then 'not_sold'
                       when w.today <= w.ends_on then 'in_warranty'
                       else 'expired' end,
      'details', v_full or u.store_id = any (v_stores))
      order by p.name, u.serial, u.received_at)
      from units u
      join public.variants v on v.id = u.variant_id and v.business_id = _business_id
      join public.products p on p.id = v.product_id
      left join public.stores rs on rs.id = u.store_id
      left join public.purchase_orders po on po.id = u.purchase_order_id
      left join public.suppliers sup on sup.id = po.supplier_id
      -- The warranty runs from the sale that holds the unit now (a returned and resold unit: the resale), on the
      -- selling store's calendar, and is judged against that store's today. A unit sold but never received (its
      -- offline sales are flagged serial_unknown): its latest sale.
      left join lateral (
        select ((x.occurred_at at time zone x.time_zone)::date + make_interval(months => p.warranty_months))::date as ends_on,
               (now() at time zone x.time_zone)::date as today
          from sold x
         where x.unit_variant = u.variant_id and x.unit_id is not distinct from u.id
           and (u.id is null or x.sale_line_id = u.sale_line_id)
         order by x.occurred_at desc limit 1) w on p.warranty_months is not null), '[]');
end;
$$;
comment on function public.find_serial(uuid,text) is 'A serial across the business: received (store, order), sold (store, receipt, date), returned, and the warranty end with in warranty / expired. Owners, managers and cashiers; customer, order, supplier and sale id only for owners and managers in stores they may use.';
revoke all on function public.find_serial(uuid,text) from public;
grant execute on function public.find_serial(uuid,text) to authenticated;

-- A controlled item's register at a store: every movement of its ledger with the running balance (all lots),
-- newest first, as the kinds a controlled-drugs register uses, with who, the witness of a destruction and the
-- prescription number of a sale. Owners and managers of the store.
create or replace function public.controlled_register(_store_id uuid, _variant_id uuid, _limit integer default 500)
returns table (
  id bigint, occurred_at timestamptz, kind text, qty numeric, balance numeric, lot_number text, actor_name text,
  witness_name text, prescription_number text, receipt_number text, note text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager']);
begin
  if not exists (select 1 from public.variants v join public.products p on p.id = v.product_id
                  where v.id = _variant_id and v.business_id = v_business and p.controlled) then
    raise exception 'choose a controlled item of this business: mark the product controlled on its page'
      using errcode = '22023';
  end if;
  return query
    with h as (
      select m.*, sum(m.qty) over (order by m.id) as running
        from public.stock_movements m
       where m.store_id = _store_id and m.variant_id = _variant_id
    )
    select h.id, h.occurred_at,
           case h.kind when 'receive' then 'received' when 'opening' then 'received' when 'sale' then 'sold'
                       when 'refund' then 'refunded' when 'transfer_in' then 'transferred'
                       when 'transfer_out' then 'transferred' when 'count' then 'counted'
                       when 'damage' then case when h.reason = 'destroyed' then 'destroyed' else 'damaged' end
                       else 'adjusted' end,
           h.qty, h.running, l.lot_number, coalesce(pa.full_name, ua.email::text),
           case when d.id is not null then coalesce(pw.full_name, uw.email::text) end,
           (select string_agg(distinct rx.prescription_number, ', ')
              from public.sale_lines sl join public.sale_line_prescriptions rx on rx.sale_line_id = sl.id
             where h.reference_type = 'sale' and sl.sale_id = h.reference_id and sl.variant_id = _variant_id),
           s.receipt_number, coalesce(h.note::text, d.note::text)
      from h
      left join public.lots l on l.id = h.lot_id
      left join auth.users ua on ua.id = h.actor_id
      left join public.profiles pa on pa.id = h.actor_id
      left join public.controlled_destructions d on h.reference_type = 'destruction' and d.id = h.reference_id
      left join auth.users uw on uw.id = d.witness_id
      left join public.profiles pw on pw.id = d.witness_id
      left join public.sales s on h.reference_type = 'sale' and s.id = h.reference_id
     order by h.id desc
     limit least(greatest(coalesce(_limit, 500), 1), 5000);
end;
$$;
comment on function public.controlled_register(uuid,uuid,integer) is 'Owners and managers of the store: a controlled item''s movements newest first with the running balance, who, the witness of a destruction and the prescription number of a sale (ADR 0390).';
revoke all on function public.controlled_register(uuid,uuid,integer) from public;
grant execute on function public.controlled_register(uuid,uuid,integer) to authenticated;

-- Destroys controlled stock before a witness: another member of staff who may use the store confirms with their
-- till PIN. The stock leaves as a damage movement (reason destroyed) through apply_movement, as adjustments do.
create or replace function public.destroy_controlled_stock(_store_id uuid, _variant_id uuid, _qty numeric,
                                                           _witness_id uuid, _witness_pin text,
                                                           _lot_id uuid default null, _note text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager']);
  v_check jsonb;
  v_id uuid;
  v_balance numeric;
begin
  if not exists (select 1 from public.variants v join public.products p on p.id = v.product_id
                  where v.id = _variant_id and v.business_id = v_business and p.controlled) then
    raise exception 'choose a controlled item of this business: mark the product controlled on its page'
      using errcode = '22023';
  elsif _qty is null or _qty <= 0 then
    raise exception 'enter the quantity destroyed (above zero)' using errcode = '22023';
  elsif _witness_id is null then
    raise exception 'choose a witness: another member of staff watches the destruction and confirms with their PIN'
      using errcode = '22023';
  elsif _witness_id = (select auth.uid()) then
    raise exception 'choose another member of staff as the witness: you cannot witness your own destruction'
      using errcode = '22023';
  elsif private.store_member_role(_store_id, _witness_id) is null then
    raise exception 'choose a witness who works at this store' using errcode = '22023';
  elsif _witness_pin is null or _witness_pin !~ '^[0-9]{4,6}$' then
    raise exception 'a PIN is 4 to 6 digits' using errcode = '22023';
  elsif _note is not null and char_length(_note) > 500 then
    raise exception 'notes have at most 500 characters' using errcode = '22023';
  end if;
  v_check := private.check_pin(v_business, _witness_id, _witness_pin);
  if not (v_check ->> 'ok')::boolean then
    return v_check;
  end if;
  insert into public.controlled_destructions (business_id, store_id, variant_id, lot_id, qty, destroyed_by, witness_id, note)
  values (v_business, _store_id, _variant_id, _lot_id, _qty, (select auth.uid()), _witness_id, nullif(btrim(_note), ''))
  returning id into v_id;
  v_balance := private.apply_movement(v_business, _store_id, _variant_id, _lot_id, 'damage', -_qty, 'destroyed', null, null,
                                      'destruction', v_id, nullif(btrim(_note), ''));
  perform private.log_activity(v_business, _store_id, 'controlled.destroyed', 'variant', _variant_id, null,
    jsonb_build_object('destruction_id', v_id, 'qty', _qty, 'lot_id', _lot_id, 'witness_id', _witness_id,
                       'balance', v_balance));
  return jsonb_build_object('ok', true, 'id', v_id, 'balance', v_balance);
end;
$$;
comment on function public.destroy_controlled_stock(uuid,uuid,numeric,uuid,text,uuid,text) is 'An owner or manager destroys a controlled item''s stock before a witness (another member of the store, confirming with their till PIN; a wrong PIN answers ok false and counts toward the lockout); audited (ADR 0390).';
revoke all on function public.destroy_controlled_stock(uuid,uuid,numeric,uuid,text,uuid,text) from public;
grant execute on function public.destroy_controlled_stock(uuid,uuid,numeric,uuid,text,uuid,text) to authenticated;

-- Owners and managers of the recall's business release its lots still quarantined (_lot_ids null: all of them).
-- Each named lot must be a lot of this recall still quarantined by it. The lots' rows are locked in id order as
-- start_recall locks them, so a sale waiting on a lot (private.fefo_pick reads them FOR SHARE) sees the release at
-- the commit. Returns how many lots were released.
create or replace function public.release_recall(_recall_id uuid, _reason text, _lot_ids uuid[] default null)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_recall public.recalls;
  v_reason text := btrim(coalesce(_reason, ''));
  v_ids uuid[];
  v_lots jsonb;
begin
  perform private.assert_writable();
  select r.* into v_recall from public.recalls r where r.id = _recall_id;
  if v_recall.id is null then
    raise exception 'no such recall' using errcode = 'PT404';
  end if;
  perform private.assert_role(v_recall.business_id, array['owner', 'manager']);
  if char_length(v_reason) not between 1 and 500 then
    raise exception 'say why the lots are released from quarantine (up to 500 characters)' using errcode = '22023';
  elsif _lot_ids is not null and (cardinality(_lot_ids) = 0 or cardinality(_lot_ids) > 200) then
    raise exception 'choose 1 to 200 lots of this recall to release' using errcode = '22023';
  end if;
  select array_agg(l.id order by l.id) into v_ids from (
    select l.id from public.lots l
     where l.recall_id = v_recall.id and (_lot_ids is null or l.id = any (_lot_ids))
     order by l.id for update) l;
  if _lot_ids is not null and coalesce(cardinality(v_ids), 0) <> (select count(distinct x) from unnest(_lot_ids) x) then
    raise exception 'choose lots of this recall that are still quarantined' using errcode = '22023';
  elsif v_ids is null then
    raise exception 'reload the recall: none of its lots is left in quarantine to release' using errcode = '22023';
  end if;
  select jsonb_agg(jsonb_build_object('lot_id', l.id, 'lot_number', l.lot_number, 'variant_id', l.variant_id,
           'stock', coalesce((select jsonb_object_agg(b.store_id, b.qty) from public.stock_balances b
                               where b.lot_id = l.id and b.qty <> 0), '{}')) order by l.id)
    into v_lots from public.lots l where l.id = any (v_ids);
  update public.lots l set quarantined_at = null, recall_id = null where l.id = any (v_ids);
  update public.recall_lots rl set released_at = now(), released_by = (select auth.uid()), release_reason = v_reason
   where rl.recall_id = v_recall.id and rl.lot_id = any (v_ids);
  perform private.log_activity(v_recall.business_id, null, 'recall.released', 'recall', v_recall.id, null,
    jsonb_build_object('reason', v_reason, 'lots', v_lots));
  return cardinality(v_ids);
end;
$$;
comment on function public.release_recall(uuid,text,uuid[]) is 'Owners and managers: releases a recall''s quarantined lots (all, or those named) back to sale, with a reason; recorded on the recall and audited (ADR 0401).';
revoke all on function public.release_recall(uuid,text,uuid[]) from public;
grant execute on function public.release_recall(uuid,text,uuid[]) to authenticated;

-- recall_report as in 20261203070000_lots_fefo_recalls.sql, each lot saying whether it is still quarantined or
-- when, by whom and why it was released, and each sale's refunded quantity counted for its lot
-- (refund_line_lots, 20261204120000).
create or replace function public.recall_report(_recall_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_recall public.recalls;
begin
  select r.* into v_recall from public.recalls r where r.id = _recall_id;
  if v_recall.id is null then
    raise exception 'no such recall' using errcode = 'PT404';
  end if;
  perform private.assert_role(v_recall.business_id, array['owner', 'manager']);
  return jsonb_build_object(
    'recall', jsonb_build_object('id', v_recall.id, 'reason', v_recall.reason, 'created_at', v_recall.created_at,
      'created_by', v_recall.created_by,
      'created_by_name', (select p.full_name from public.profiles p where p.id = v_recall.created_by)),
    'lots', coalesce((
      select jsonb_agg(jsonb_build_object('lot_id', l.id, 'lot_number', l.lot_number, 'expires_on', l.expires_on,
               'variant_id', l.variant_id, 'product_name', p.name, 'sku', v.sku, 'on_hand_at_recall', rl.on_hand,
               'quarantined', l.recall_id is not distinct from v_recall.id, 'released_at', rl.released_at,
               'release_reason', rl.release_reason,
               'released_by_name', (select pr.full_name from public.profiles pr where pr.id = rl.released_by),
               'stock', coalesce((
                 select jsonb_agg(jsonb_build_object('store_id', s.id, 'store_name', s.name, 'qty', b.qty) order by s.name)
                   from public.stock_balances b join public.stores s on s.id = b.store_id
                  where b.lot_id = l.id and b.qty <> 0
                    and (s.business_id in (select private.my_full_access_business_ids())
                         or s.id in (select private.my_listed_store_ids()))), '[]'))
             order by p.name, l.lot_number)
        from public.recall_lots rl
        join public.lots l on l.id = rl.lot_id
        join public.variants v on v.id = l.variant_id
        join public.products p on p.id = v.product_id
       where rl.recall_id = v_recall.id), '[]'),
    'sales', coalesce((
      select jsonb_agg(jsonb_build_object('sale_id', s.id, 'receipt_number', s.receipt_number,
               'occurred_at', s.occurred_at, 'store_id', s.store_id, 'store_name', st.name, 'lot_id', ll.lot_id,
               'lot_number', l.lot_number, 'product_name', sl.description, 'qty', ll.qty,
               'refunded_qty', coalesce((select sum(x.qty) from public.refund_line_lots x
                                          join public.refund_lines rf on rf.id = x.refund_line_id
                                         where rf.sale_line_id = sl.id and x.lot_id = ll.lot_id), 0),
               'customer', case when c.id is null then null
                                else jsonb_build_object('id', c.id, 'name', c.name, 'phone', c.phone, 'email', c.email) end)
             order by s.occurred_at, s.receipt_number, sl.line_no)
        from public.recall_lots rl
        join public.sale_line_lots ll on ll.lot_id = rl.lot_id
        join public.sale_lines sl on sl.id = ll.sale_line_id
        join public.sales s on s.id = sl.sale_id
        join public.stores st on st.id = s.store_id
        join public.lots l on l.id = ll.lot_id
        left join public.customers c on c.id = s.customer_id
       where rl.recall_id = v_recall.id
         and (s.business_id in (select private.my_full_access_business_ids())
              or s.store_id in (select private.my_listed_store_ids()))), '[]'));
end;
$$;
comment on function public.recall_report(uuid) is 'Owners and managers: a recall''s lots (quarantined or released, by whom and why), their stock per store, and every sale of them with the customer where known (ADR 0360, 0401).';
revoke all on function public.recall_report(uuid) from public;
grant execute on function public.recall_report(uuid) to authenticated;

-- ==== Triggers ============================================================================================

create trigger suppliers_set_updated_at before update on public.suppliers
  for each row execute function public.set_updated_at();

create trigger purchase_orders_set_updated_at before update on public.purchase_orders
  for each row execute function public.set_updated_at();

create trigger stock_movements_append_only before update or delete on public.stock_movements
  for each row execute function private.stock_movements_append_only();

create trigger lots_guard before insert or update on public.lots
  for each row execute function private.lots_guard();

create trigger purchase_orders_guard before insert or update on public.purchase_orders
  for each row execute function private.purchase_orders_guard();

create trigger audit_supplier after insert or update on public.suppliers
  for each row execute function private.audit_row('supplier');

create trigger audit_purchase_order after insert or update on public.purchase_orders
  for each row execute function private.audit_row('purchase_order');

create trigger audit_reorder_point after insert or update or delete on public.reorder_points
  for each row execute function private.audit_keyed_row('reorder_point', 'variant_id');

-- Suppliers were audited on insert and update only (20261122120000_catalog.sql).
create trigger audit_supplier_deleted after delete on public.suppliers
  for each row execute function private.audit_row('supplier');

create trigger audit_purchase_order_deleted before delete on public.purchase_orders
  for each row execute function private.audit_purchase_order_deleted();

create trigger read_only_guard before insert or update or delete on public.lots
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.purchase_order_lines
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.purchase_orders
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.reorder_points
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.serial_numbers
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.stock_balances
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.stock_movements
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.suppliers
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.transfer_lines
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.transfers
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.recalls
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.recall_lots
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.controlled_destructions
  for each statement execute function private.read_only_guard();

-- ==== Policies ============================================================================================

create policy "lots: members read" on public.lots for select to authenticated
  using (business_id in (select private.my_business_ids()));

create policy "suppliers: owners and managers read" on public.suppliers for select to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "suppliers: owners and managers insert" on public.suppliers for insert to authenticated
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "suppliers: owners and managers update" on public.suppliers for update to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])))
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "suppliers: owners and managers delete" on public.suppliers for delete to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "purchase_orders: owners and managers insert in their stores" on public.purchase_orders for insert to authenticated
  with check (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "purchase_orders: owners and managers update in their stores" on public.purchase_orders for update to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))))
  with check (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "purchase_orders: owners and managers read in their stores" on public.purchase_orders for select to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "purchase_orders: owners and managers delete drafts in their sto" on public.purchase_orders for delete to authenticated
  using ((status = 'draft'::text) and ((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

-- Lines follow their order (whose own policy scopes it to the caller's stores); they change only in drafts.
create policy "purchase_order_lines: readers of the order" on public.purchase_order_lines
  for select to authenticated
  using (purchase_order_id in (select po.id from public.purchase_orders po));

create policy "transfers: owners and managers of either store" on public.transfers
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or from_store_id in (select private.my_listed_store_ids())
          or to_store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "transfer_lines: readers of the transfer" on public.transfer_lines
  for select to authenticated
  using (transfer_id in (select t.id from public.transfers t));

create policy "reorder_points: owners and managers insert in their stores" on public.reorder_points for insert to authenticated
  with check (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "reorder_points: owners and managers update in their stores" on public.reorder_points for update to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))))
  with check (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "reorder_points: owners and managers read in their stores" on public.reorder_points for select to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "reorder_points: owners and managers delete in their stores" on public.reorder_points for delete to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "stock_movements: owners and managers read in their stores" on public.stock_movements for select to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "stock_balances: members read in their stores" on public.stock_balances for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids())));

create policy "serial_numbers: members read" on public.serial_numbers for select to authenticated
  using (business_id in (select private.my_business_ids()));

create policy "recalls: owners and managers read" on public.recalls for select to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "recall_lots: owners and managers read" on public.recall_lots for select to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "controlled_destructions: owners and managers read in their stor" on public.controlled_destructions
  for select to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids())))
         and (business_id in (select private.my_business_ids(array['owner', 'manager']))));
