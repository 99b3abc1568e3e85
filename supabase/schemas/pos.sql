-- Register (shared/features/pos): shifts, cash movements, customers, manager approvals, sales with their lines,
-- costs and tenders, refunds, receipt numbers and the catalog copy the register keeps offline (pos_catalog).
-- Invariants: a sale is posted once (its client id is the key; a replay returns the first result); the tenders pay
-- the total; a refund line never exceeds what is left to refund; each sale moves stock through the ledger.
--
-- Written by scripts/schema-extract.ts from the migrations and kept equal to them by
-- tests/hosted/schema-files.test.ts: change an object here, then generate its migration (README, Contributing).

-- Function bodies are checked when they run, not when created: the files need no order among functions.
set check_function_bodies = off;

-- ==== Tables: columns, constraints, row level security, grants and comments ===============================

create table public.shifts (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  store_id uuid not null,
  register_id uuid not null,
  cashier_id uuid,
  opened_at timestamp with time zone default now() not null,
  opening_float bigint default 0 not null,
  closed_at timestamp with time zone,
  closed_by uuid,
  counted jsonb,
  counted_total bigint,
  expected_cash bigint,
  difference bigint,
  close_id uuid,
  opened_in_conflict boolean default false not null,
  review_reasons text[] default '{}'::text[] not null,
  z_figures jsonb,
  close_recorded_at timestamp with time zone,
  constraint shifts_pkey primary key (id),
  constraint shifts_id_business_id_key unique (id, business_id),
  constraint shifts_closed_has_count check (((closed_at is null) = (counted_total is null))),
  constraint shifts_opening_float_check check ((opening_float >= 0)),
  constraint shifts_cashier_id_fkey foreign key (cashier_id) references auth.users(id) on delete set null,
  constraint shifts_closed_by_fkey foreign key (closed_by) references auth.users(id) on delete set null,
  constraint shifts_register_id_fkey foreign key (register_id) references public.registers(id) on delete cascade,
  constraint shifts_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade
);
alter table public.shifts enable row level security;
comment on table public.shifts is 'A register''s shift from opening float to counted close. Owners and managers read the shifts of their stores, a cashier their own; written only by open_shift and close_shift. One open shift per register (partial unique index). z_figures is the Z report frozen at the close.';
comment on column public.shifts.close_id is 'The register''s id for the close (close_shift with _close_id): a retry of the same close returns the figures.';
comment on column public.shifts.opened_in_conflict is 'Opened offline while another shift was open on the register (open_shift from the outbox): flagged for the manager, outside the one-open-shift-per-register index. Written only by open_shift.';
comment on column public.shifts.review_reasons is 'Why the manager should look at this shift (open_conflict:<the other shift id>, register_opened_at). Written only by open_shift.';
comment on column public.shifts.z_figures is 'The shift''s figures frozen at its close: the Z report. Entries that arrive later are reported apart. Written only by close_shift.';
comment on column public.shifts.close_recorded_at is 'When the server recorded the close (closed_at is the register''s clock): later arrivals are "after close".';
grant select on table public.shifts to authenticated;
grant select on table public.shifts to service_role;

create table public.customers (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  name public.entity_name not null,
  phone public.phone_number,
  email public.email_address,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  erased_at timestamp with time zone,
  constraint customers_pkey primary key (id),
  constraint customers_id_business_id_key unique (id, business_id),
  constraint customers_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table public.customers enable row level security;
comment on table public.customers is 'The business''s customers. Members read and create them (at the counter); owners and managers edit and delete.';
comment on column public.customers.erased_at is 'When the customer''s name, email and phone were erased (the row stays, anonymous, so receipts stay whole).';
grant delete, insert, select, update on table public.customers to service_role;
grant delete, select on table public.customers to authenticated;
grant insert (business_id, name, phone, email) on table public.customers to authenticated;
grant update (name, phone, email) on table public.customers to authenticated;

create table public.pos_approvals (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  store_id uuid not null,
  purpose text not null,
  max_discount_percent numeric(6,3),
  approved_by uuid not null,
  created_at timestamp with time zone default now() not null,
  expires_at timestamp with time zone default (now() + '00:10:00'::interval) not null,
  used_at timestamp with time zone,
  used_for uuid,
  constraint pos_approvals_pkey primary key (id),
  constraint pos_approvals_max_discount_percent_check check (((max_discount_percent >= (0)::numeric) and (max_discount_percent <= (100)::numeric))),
  constraint pos_approvals_purpose_check check ((purpose = any (array['discount'::text, 'refund'::text, 'expired_lot'::text]))),
  constraint pos_approvals_approved_by_fkey foreign key (approved_by) references auth.users(id) on delete cascade,
  constraint pos_approvals_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade
);
alter table public.pos_approvals enable row level security;
comment on table public.pos_approvals is 'Manager approvals for a discount above the cashier''s limit or a refund. Owners and managers read them; written only by approve_discount and consumed by post_sale and post_refund.';
grant select on table public.pos_approvals to authenticated;
grant select on table public.pos_approvals to service_role;

create table private.register_counters (
  register_id uuid not null,
  last_seq bigint default 0 not null,
  constraint register_counters_pkey primary key (register_id),
  constraint register_counters_register_id_fkey foreign key (register_id) references public.registers(id) on delete cascade
);
alter table private.register_counters enable row level security;
comment on table private.register_counters is 'Highest receipt sequence per register; read and written by the POS functions only.';

create table private.staff_pins (
  business_id uuid not null,
  user_id uuid not null,
  pin_hash text not null,
  offline_hash text not null,
  proof_salt text not null,
  proof_digest bytea not null,
  failed_attempts integer default 0 not null,
  locked_until timestamp with time zone,
  set_at timestamp with time zone default now() not null,
  constraint staff_pins_pkey primary key (business_id, user_id),
  constraint staff_pins_failed_attempts_check check (((failed_attempts >= 0) and (failed_attempts <= 5))),
  constraint staff_pins_hashes_check check (((pin_hash ~~ '$2a$%'::text) and (offline_hash ~~ '$2a$%'::text) and (proof_salt ~~ '$2a$%'::text))),
  constraint staff_pins_member_fkey foreign key (business_id, user_id) references public.business_members(business_id, user_id) on delete cascade
);
alter table private.staff_pins enable row level security;
comment on table private.staff_pins is 'Till PINs, hashed three ways (online check, offline verifier, offline proof); only the PIN definer functions read or write them (ADR 0300).';

create table public.till_switches (
  id uuid not null,
  business_id uuid not null,
  store_id uuid not null,
  register_id uuid not null,
  user_id uuid,
  signed_in_user_id uuid,
  method text not null,
  verified boolean not null,
  switched_at timestamp with time zone default now() not null,
  recorded_at timestamp with time zone default now() not null,
  constraint till_switches_pkey primary key (id),
  constraint till_switches_method_check check ((method = any (array['online'::text, 'offline'::text]))),
  constraint till_switches_online_verified_check check (((method = 'offline'::text) or verified)),
  constraint till_switches_register_id_fkey foreign key (register_id) references public.registers(id) on delete cascade,
  constraint till_switches_signed_in_user_id_fkey foreign key (signed_in_user_id) references auth.users(id) on delete set null,
  constraint till_switches_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade,
  constraint till_switches_user_id_fkey foreign key (user_id) references auth.users(id) on delete set null
);
alter table public.till_switches enable row level security;
comment on table public.till_switches is 'Who was switched in at a register by PIN, under which signed-in session; written only by switch_till and post_sale (ADR 0300).';
grant select on table public.till_switches to authenticated;
grant select on table public.till_switches to service_role;

create table public.cash_movements (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  store_id uuid not null,
  shift_id uuid not null,
  kind text not null,
  amount bigint not null,
  reason text not null,
  actor_id uuid,
  at timestamp with time zone default now() not null,
  till_switch_id uuid,
  review_reasons text[] default '{}'::text[] not null,
  constraint cash_movements_pkey primary key (id),
  constraint cash_movements_amount_check check ((amount > 0)),
  constraint cash_movements_kind_check check ((kind = any (array['in'::text, 'out'::text]))),
  constraint cash_movements_reason_check check (((char_length(btrim(reason)) >= 1) and (char_length(btrim(reason)) <= 200))),
  constraint cash_movements_actor_id_fkey foreign key (actor_id) references auth.users(id) on delete set null,
  constraint cash_movements_shift_id_business_id_fkey foreign key (shift_id, business_id) references public.shifts(id, business_id) on delete cascade,
  constraint cash_movements_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade,
  constraint cash_movements_till_switch_id_fkey foreign key (till_switch_id) references public.till_switches(id)
);
alter table public.cash_movements enable row level security;
comment on table public.cash_movements is 'Cash put into or taken out of a drawer with a reason. Owners and managers read those of their stores, a cashier those of their own shifts; written only by cash_in_out.';
comment on column public.cash_movements.till_switch_id is 'The PIN switch under which the cash moved (actor_id is then the switched-in person); null when moved by the signed-in person.';
comment on column public.cash_movements.review_reasons is 'Why a manager should look at this movement (till_switch_unverified: its offline PIN switch failed verification, so it stays under the signed-in person); empty when none.';
grant select on table public.cash_movements to authenticated;
grant select on table public.cash_movements to service_role;

create table public.sales (
  id uuid not null,
  business_id uuid not null,
  store_id uuid not null,
  register_id uuid not null,
  shift_id uuid,
  cashier_id uuid,
  customer_id uuid,
  receipt_number text not null,
  currency public.currency_code not null,
  tax_inclusive boolean not null,
  subtotal bigint not null,
  discount_total bigint not null,
  tax_total bigint not null,
  total bigint not null,
  tendered_total bigint not null,
  change_total bigint not null,
  review_reasons text[] default '{}'::text[] not null,
  flagged_for_review boolean generated always as ((cardinality(review_reasons) > 0)) stored,
  offline boolean default false not null,
  approval_id uuid,
  occurred_at timestamp with time zone not null,
  recorded_at timestamp with time zone default now() not null,
  cash_rounding bigint default 0 not null,
  till_switch_id uuid,
  constraint sales_pkey primary key (id),
  constraint sales_business_id_receipt_number_key unique (business_id, receipt_number),
  constraint sales_id_business_id_key unique (id, business_id),
  constraint sales_cash_rounding_range check (((cash_rounding >= '-100000'::integer) and (cash_rounding <= 100000))),
  constraint sales_approval_id_fkey foreign key (approval_id) references public.pos_approvals(id),
  constraint sales_cashier_id_fkey foreign key (cashier_id) references auth.users(id) on delete set null,
  constraint sales_customer_id_business_id_fkey foreign key (customer_id, business_id) references public.customers(id, business_id) on delete set null (customer_id),
  constraint sales_register_id_fkey foreign key (register_id) references public.registers(id),
  constraint sales_shift_id_business_id_fkey foreign key (shift_id, business_id) references public.shifts(id, business_id),
  constraint sales_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade,
  constraint sales_till_switch_id_fkey foreign key (till_switch_id) references public.till_switches(id)
);
alter table public.sales enable row level security;
alter publication supabase_realtime add table public.sales;
comment on table public.sales is 'Sales. Owners and managers read those of their stores; a cashier those rung in their own shifts (a refund finds its receipt through find_sale_for_refund); written only by post_sale. Money in minor units.';
comment on column public.sales.cash_rounding is 'What rounding cash to the store''s step added to the total (negative: taken off); the tenders pay total + cash_rounding.';
comment on column public.sales.till_switch_id is 'The PIN switch under which the sale was rung (cashier_id is then the switched-in person); null when rung by the signed-in person.';
grant select on table public.sales to authenticated;
grant select on table public.sales to service_role;

create table public.sale_lines (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  store_id uuid not null,
  sale_id uuid not null,
  line_no integer not null,
  variant_id uuid not null,
  lot_id uuid,
  description text not null,
  qty numeric(12,3) not null,
  unit_price bigint not null,
  discount bigint default 0 not null,
  tax_rate public.tax_rate not null,
  tax_amount bigint not null,
  line_total bigint not null,
  constraint sale_lines_pkey primary key (id),
  constraint sale_lines_id_business_id_key unique (id, business_id),
  constraint sale_lines_sale_id_line_no_key unique (sale_id, line_no),
  constraint sale_lines_discount_check check ((discount >= 0)),
  constraint sale_lines_line_no_check check ((line_no > 0)),
  constraint sale_lines_qty_check check ((qty > (0)::numeric)),
  constraint sale_lines_unit_price_check check ((unit_price >= 0)),
  constraint sale_lines_lot_id_fkey foreign key (lot_id) references public.lots(id),
  constraint sale_lines_sale_id_business_id_fkey foreign key (sale_id, business_id) references public.sales(id, business_id) on delete cascade,
  constraint sale_lines_variant_id_fkey foreign key (variant_id) references public.variants(id)
);
alter table public.sale_lines enable row level security;
comment on table public.sale_lines is 'Lines of a sale with the price and tax it was sold at. Readers of the sale read them; written by post_sale.';
grant select on table public.sale_lines to authenticated;
grant select on table public.sale_lines to service_role;
alter table public.serial_numbers add constraint serial_numbers_sale_line_id_fkey foreign key (sale_line_id) references public.sale_lines(id);

create table public.sale_line_costs (
  sale_line_id uuid not null,
  business_id uuid not null,
  store_id uuid not null,
  unit_cost bigint not null,
  constraint sale_line_costs_pkey primary key (sale_line_id),
  constraint sale_line_costs_unit_cost_check check ((unit_cost >= 0)),
  constraint sale_line_costs_sale_line_id_business_id_fkey foreign key (sale_line_id, business_id) references public.sale_lines(id, business_id) on delete cascade
);
alter table public.sale_line_costs enable row level security;
comment on table public.sale_line_costs is 'Unit cost of a sale line when it was sold (for profit). Owners and managers of the store read; post_sale writes.';
grant select on table public.sale_line_costs to authenticated;
grant select on table public.sale_line_costs to service_role;

create table public.refunds (
  id uuid not null,
  business_id uuid not null,
  store_id uuid not null,
  sale_id uuid not null,
  register_id uuid,
  shift_id uuid,
  actor_id uuid,
  approval_id uuid,
  tender_kind text not null,
  total bigint not null,
  reason public.short_text,
  offline boolean default false not null,
  occurred_at timestamp with time zone not null,
  recorded_at timestamp with time zone default now() not null,
  review_reasons text[] default '{}'::text[] not null,
  flagged_for_review boolean generated always as ((cardinality(review_reasons) > 0)) stored,
  cash_rounding bigint default 0 not null,
  till_switch_id uuid,
  constraint refunds_pkey primary key (id),
  constraint refunds_id_business_id_key unique (id, business_id),
  constraint refunds_cash_rounding_range check (((cash_rounding >= '-100000'::integer) and (cash_rounding <= 100000))),
  constraint refunds_tender_kind_check check ((tender_kind = any (array['cash'::text, 'card'::text, 'other'::text]))),
  constraint refunds_total_check check ((total >= 0)),
  constraint refunds_actor_id_fkey foreign key (actor_id) references auth.users(id) on delete set null,
  constraint refunds_approval_id_fkey foreign key (approval_id) references public.pos_approvals(id),
  constraint refunds_register_id_fkey foreign key (register_id) references public.registers(id),
  constraint refunds_sale_id_business_id_fkey foreign key (sale_id, business_id) references public.sales(id, business_id) on delete cascade,
  constraint refunds_shift_id_business_id_fkey foreign key (shift_id, business_id) references public.shifts(id, business_id),
  constraint refunds_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade,
  constraint refunds_till_switch_id_fkey foreign key (till_switch_id) references public.till_switches(id)
);
alter table public.refunds enable row level security;
alter publication supabase_realtime add table public.refunds;
comment on table public.refunds is 'Refunds against a sale. Owners and managers read those of their stores, a cashier those of their own shifts; written only by post_refund.';
comment on column public.refunds.review_reasons is 'Why a manager should look at this refund (sale_not_synced, no_approval, over_refund:<line>); empty when none.';
comment on column public.refunds.cash_rounding is 'What rounding a cash refund to the store''s step added to its total: the drawer pays out total + cash_rounding.';
comment on column public.refunds.till_switch_id is 'The PIN switch under which the refund was made (actor_id is then the switched-in person); null when made by the signed-in person.';
grant select on table public.refunds to authenticated;
grant select on table public.refunds to service_role;
alter table public.refund_reviews add constraint refund_reviews_refund_id_business_id_fkey foreign key (refund_id, business_id) references public.refunds(id, business_id) on delete cascade;

create table public.refund_lines (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  refund_id uuid not null,
  sale_line_id uuid not null,
  qty numeric(12,3) not null,
  amount bigint not null,
  disposition text not null,
  variant_id uuid not null,
  constraint refund_lines_pkey primary key (id),
  constraint refund_lines_amount_check check ((amount >= 0)),
  constraint refund_lines_disposition_check check ((disposition = any (array['restock'::text, 'damaged'::text]))),
  constraint refund_lines_qty_check check ((qty > (0)::numeric)),
  constraint refund_lines_refund_id_business_id_fkey foreign key (refund_id, business_id) references public.refunds(id, business_id) on delete cascade,
  constraint refund_lines_sale_line_id_business_id_fkey foreign key (sale_line_id, business_id) references public.sale_lines(id, business_id) on delete cascade,
  constraint refund_lines_variant_id_fkey foreign key (variant_id) references public.variants(id)
);
alter table public.refund_lines enable row level security;
comment on table public.refund_lines is 'Lines of a refund. Readers of the refund read them; written by post_refund.';
comment on column public.refund_lines.variant_id is 'The sale line''s variant, set on insert by a trigger (ADR 0438).';
grant select on table public.refund_lines to authenticated;
grant select on table public.refund_lines to service_role;

create table public.sale_line_serials (
  sale_line_id uuid not null,
  business_id uuid not null,
  sale_id uuid not null,
  serial text not null,
  serial_id uuid,
  duplicate boolean default false not null,
  constraint sale_line_serials_pkey primary key (sale_line_id),
  constraint sale_line_serials_sale_id_business_id_fkey foreign key (sale_id, business_id) references public.sales(id, business_id) on delete cascade,
  constraint sale_line_serials_sale_line_id_business_id_fkey foreign key (sale_line_id, business_id) references public.sale_lines(id, business_id) on delete cascade,
  constraint sale_line_serials_serial_id_fkey foreign key (serial_id) references public.serial_numbers(id)
);
alter table public.sale_line_serials enable row level security;
comment on table public.sale_line_serials is 'The serial a sale line sold (duplicate: an offline sale of a unit already sold, flagged for review). Readers of the sale read them; written by post_sale.';
grant select on table public.sale_line_serials to authenticated;
grant select on table public.sale_line_serials to service_role;

create table public.sale_line_lots (
  sale_line_id uuid not null,
  lot_id uuid not null,
  business_id uuid not null,
  qty numeric(12,3) not null,
  expired boolean default false not null,
  constraint sale_line_lots_pkey primary key (sale_line_id, lot_id),
  constraint sale_line_lots_qty_check check ((qty > (0)::numeric)),
  constraint sale_line_lots_lot_id_fkey foreign key (lot_id) references public.lots(id),
  constraint sale_line_lots_sale_line_id_business_id_fkey foreign key (sale_line_id, business_id) references public.sale_lines(id, business_id) on delete cascade
);
alter table public.sale_line_lots enable row level security;
comment on table public.sale_line_lots is 'Which lots a lot-tracked sale line took, and how many of each (FEFO splits a line over lots); expired marks a lot sold past its expiry. Readers of the sale line read them; written only by post_sale (ADR 0360).';
grant select on table public.sale_line_lots to authenticated;
grant select on table public.sale_line_lots to service_role;

create table public.register_sync_states (
  register_id uuid not null,
  business_id uuid not null,
  store_id uuid not null,
  waiting integer not null,
  oldest_waiting_at timestamp with time zone,
  reported_at timestamp with time zone default now() not null,
  constraint register_sync_states_pkey primary key (register_id),
  constraint register_sync_states_oldest_only_when_waiting check (((waiting > 0) or (oldest_waiting_at is null))),
  constraint register_sync_states_waiting_range check (((waiting >= 0) and (waiting <= 1000000))),
  constraint register_sync_states_register_id_fkey foreign key (register_id) references public.registers(id) on delete cascade,
  constraint register_sync_states_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade
);
alter table public.register_sync_states enable row level security;
alter publication supabase_realtime add table public.register_sync_states;
comment on table public.register_sync_states is 'The latest outbox report of each register (sales and other entries waiting to sync), written only by report_register_outbox; owners and managers of the store read it (live on the Overview).';
grant select on table public.register_sync_states to authenticated;
grant select on table public.register_sync_states to service_role;

create table public.refund_line_lots (
  refund_line_id uuid not null,
  lot_id uuid not null,
  business_id uuid not null,
  qty numeric(12,3) not null,
  constraint refund_line_lots_pkey primary key (refund_line_id, lot_id),
  constraint refund_line_lots_qty_check check ((qty > (0)::numeric)),
  constraint refund_line_lots_lot_id_fkey foreign key (lot_id) references public.lots(id),
  constraint refund_line_lots_refund_line_id_fkey foreign key (refund_line_id) references public.refund_lines(id) on delete cascade
);
alter table public.refund_line_lots enable row level security;
comment on table public.refund_line_lots is 'Which lots a refund line gave its units back to, and how many to each (a sale line split over lots, ADR 0400). Readers of the refund line read them; written only by post_refund.';
grant select on table public.refund_line_lots to authenticated;
grant select on table public.refund_line_lots to service_role;

create table public.sale_line_prescriptions (
  sale_line_id uuid not null,
  business_id uuid not null,
  store_id uuid not null,
  sale_id uuid not null,
  prescriber text not null,
  prescription_number text not null,
  written_on date not null,
  refills_authorised integer not null,
  refills_remaining integer not null,
  recorded_at timestamp with time zone default now() not null,
  constraint sale_line_prescriptions_pkey primary key (sale_line_id),
  constraint sale_line_prescriptions_number_check check (((char_length(btrim(prescription_number)) >= 1) and (char_length(btrim(prescription_number)) <= 40))),
  constraint sale_line_prescriptions_prescriber_check check (((char_length(btrim(prescriber)) >= 2) and (char_length(btrim(prescriber)) <= 120))),
  constraint sale_line_prescriptions_refills_authorised_check check (((refills_authorised >= 0) and (refills_authorised <= 99))),
  constraint sale_line_prescriptions_refills_remaining_check check (((refills_remaining >= 0) and (refills_remaining <= refills_authorised))),
  constraint sale_line_prescriptions_sale_id_business_id_fkey foreign key (sale_id, business_id) references public.sales(id, business_id) on delete cascade,
  constraint sale_line_prescriptions_sale_line_id_business_id_fkey foreign key (sale_line_id, business_id) references public.sale_lines(id, business_id) on delete cascade,
  constraint sale_line_prescriptions_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade
);
alter table public.sale_line_prescriptions enable row level security;
comment on table public.sale_line_prescriptions is 'The prescription a sale line was sold on (prescription-only items): prescriber, number, date written, refills. Personal (names a prescriber, for a patient). Owners and managers of the store read, a cashier the sales they rang; written only by post_sale (ADR 0390).';
grant select on table public.sale_line_prescriptions to authenticated;
grant select on table public.sale_line_prescriptions to service_role;

create table public.exchange_rates (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  currency public.currency_code not null,
  base_currency public.currency_code not null,
  rate numeric(19,10) not null,
  effective_from timestamp with time zone default now() not null,
  created_at timestamp with time zone default now() not null,
  created_by uuid default auth.uid(),
  constraint exchange_rates_pkey primary key (id),
  constraint exchange_rates_id_business_id_key unique (id, business_id),
  constraint exchange_rates_other_currency check (((currency)::text <> (base_currency)::text)),
  constraint exchange_rates_rate_positive check ((rate > (0)::numeric)),
  constraint exchange_rates_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint exchange_rates_created_by_fkey foreign key (created_by) references auth.users(id) on delete set null
);
alter table public.exchange_rates enable row level security;
comment on table public.exchange_rates is 'What one unit of a foreign currency is worth in a store currency, from effective_from on (ADR 0395). Members read; set_exchange_rate (owners, managers) adds a row; rows are never changed.';
comment on column public.exchange_rates.rate is 'Store-currency units for one foreign unit (1 EUR = 1.0825 USD): exact, at most 10 decimals.';
grant select on table public.exchange_rates to authenticated;
grant select on table public.exchange_rates to service_role;

create table public.sale_tenders (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  store_id uuid not null,
  sale_id uuid not null,
  kind text not null,
  amount bigint not null,
  tendered bigint not null,
  change bigint default 0 not null,
  currency public.currency_code,
  rate_id uuid,
  rate numeric(19,10),
  foreign_tendered bigint,
  constraint sale_tenders_pkey primary key (id),
  constraint sale_tenders_amount_check check ((amount >= 0)),
  constraint sale_tenders_change_check check ((change >= 0)),
  constraint sale_tenders_foreign_check check ((((currency is null) and (rate_id is null) and (rate is null) and (foreign_tendered is null)) or ((currency is not null) and (kind = 'cash'::text) and (rate is not null) and (rate > (0)::numeric) and (foreign_tendered is not null) and (foreign_tendered >= 0)))),
  constraint sale_tenders_kind_check check ((kind = any (array['cash'::text, 'card'::text, 'other'::text]))),
  constraint sale_tenders_tendered_check check ((tendered >= 0)),
  constraint sale_tenders_rate_id_business_id_fkey foreign key (rate_id, business_id) references public.exchange_rates(id, business_id),
  constraint sale_tenders_sale_id_business_id_fkey foreign key (sale_id, business_id) references public.sales(id, business_id) on delete cascade
);
alter table public.sale_tenders enable row level security;
comment on table public.sale_tenders is 'How a sale was paid. Readers of the sale read them; written by post_sale.';
comment on column public.sale_tenders.currency is 'Foreign cash (ADR 0395): the currency handed over; null for the store''s own.';
comment on column public.sale_tenders.foreign_tendered is 'Foreign cash: what was handed over, in minor units of currency; tendered is its store-currency value less what the cash step keeps.';
grant select on table public.sale_tenders to authenticated;
grant select on table public.sale_tenders to service_role;

-- ==== Indexes =============================================================================================

create index shifts_register_idx on public.shifts (register_id, opened_at desc);

create index shifts_store_idx on public.shifts (store_id, business_id, opened_at desc);

create index shifts_cashier_idx on public.shifts (cashier_id);

create index shifts_closed_by_idx on public.shifts (closed_by);

create index cash_movements_shift_idx on public.cash_movements (shift_id, business_id);

create index cash_movements_store_idx on public.cash_movements (store_id, business_id);

create index cash_movements_actor_idx on public.cash_movements (actor_id);

create index customers_business_name_idx on public.customers (business_id, name);

create index customers_name_trgm_idx on public.customers using gin (name extensions.gin_trgm_ops);

create index customers_business_phone_idx on public.customers (business_id, phone);

create index customers_business_email_idx on public.customers (business_id, email);

create index pos_approvals_store_idx on public.pos_approvals (store_id, business_id);

create index pos_approvals_approved_by_idx on public.pos_approvals (approved_by);

create index sales_store_occurred_idx on public.sales (store_id, business_id, occurred_at desc);

create index sales_business_occurred_idx on public.sales (business_id, occurred_at desc);

create index sales_shift_idx on public.sales (shift_id, business_id);

create index sales_register_idx on public.sales (register_id);

create index sales_cashier_idx on public.sales (cashier_id);

create index sales_customer_idx on public.sales (customer_id, business_id);

create index sales_approval_idx on public.sales (approval_id);

create index sales_flagged_idx on public.sales (business_id) where flagged_for_review;

create index sale_lines_sale_idx on public.sale_lines (sale_id, business_id);

create index sale_lines_store_idx on public.sale_lines (store_id, business_id);

create index sale_lines_variant_idx on public.sale_lines (variant_id);

create index sale_lines_lot_idx on public.sale_lines (lot_id);

create index sale_line_costs_line_business_idx on public.sale_line_costs (sale_line_id, business_id);

create index sale_line_costs_store_idx on public.sale_line_costs (store_id, business_id);

create index sale_tenders_sale_idx on public.sale_tenders (sale_id, business_id);

create index sale_tenders_store_idx on public.sale_tenders (store_id, business_id);

create index refunds_sale_idx on public.refunds (sale_id, business_id);

create index refunds_store_idx on public.refunds (store_id, business_id, occurred_at desc);

create index refunds_shift_idx on public.refunds (shift_id, business_id);

create index refunds_register_idx on public.refunds (register_id);

create index refunds_actor_idx on public.refunds (actor_id);

create index refunds_approval_idx on public.refunds (approval_id);

create index refund_lines_refund_idx on public.refund_lines (refund_id, business_id);

create index refund_lines_sale_line_idx on public.refund_lines (sale_line_id, business_id);

create index refunds_flagged_idx on public.refunds (business_id) where flagged_for_review;

-- Z reports and the overview read a store's refunds by shift and sales per cashier within a business.
create index if not exists sales_business_cashier_occurred_idx on public.sales (business_id, cashier_id, occurred_at desc);

create unique index shifts_one_open_per_register_idx on public.shifts (register_id)
  where closed_at is null and not opened_in_conflict;

create index customers_business_updated_idx on public.customers (business_id, updated_at, id);

-- The queue: a business's flagged shifts, newest first.
create index shifts_business_conflict_idx on public.shifts (business_id, opened_at desc) where opened_in_conflict;

create index sales_shift_recorded_idx on public.sales (shift_id, recorded_at);

create index refunds_business_flagged_idx on public.refunds (business_id) where flagged_for_review;

create index cash_movements_shift_at_idx on public.cash_movements (shift_id, at);

create index sale_line_serials_sale_idx on public.sale_line_serials (sale_id, business_id);

create index sale_line_serials_serial_id_idx on public.sale_line_serials (serial_id);

create index sale_line_serials_line_business_idx on public.sale_line_serials (sale_line_id, business_id);

create index sale_line_serials_business_serial_idx on public.sale_line_serials (business_id, serial);

create index till_switches_business_switched_idx on public.till_switches (business_id, switched_at desc);

create index till_switches_store_business_idx on public.till_switches (store_id, business_id);

create index till_switches_register_idx on public.till_switches (register_id);

create index till_switches_user_idx on public.till_switches (user_id);

create index till_switches_signed_in_user_idx on public.till_switches (signed_in_user_id);

create index sales_till_switch_idx on public.sales (till_switch_id);

create index register_sync_states_store_business_idx on public.register_sync_states (store_id, business_id);

create index register_sync_states_business_idx on public.register_sync_states (business_id);

create index refunds_till_switch_idx on public.refunds (till_switch_id);

create index cash_movements_till_switch_idx on public.cash_movements (till_switch_id);

create index sale_line_lots_lot_idx on public.sale_line_lots (lot_id);

create index sale_line_lots_line_business_idx on public.sale_line_lots (sale_line_id, business_id);

create index sale_line_prescriptions_sale_idx on public.sale_line_prescriptions (sale_id, business_id);

create index sale_line_prescriptions_line_business_idx on public.sale_line_prescriptions (sale_line_id, business_id);

create index sale_line_prescriptions_store_idx on public.sale_line_prescriptions (store_id, business_id);

create index sale_line_prescriptions_number_idx on public.sale_line_prescriptions (business_id, prescription_number);

create index exchange_rates_lookup_idx on public.exchange_rates (business_id, base_currency, currency, effective_from desc);

create index exchange_rates_created_by_idx on public.exchange_rates (created_by);

create index sale_tenders_rate_idx on public.sale_tenders (rate_id, business_id);

create index refund_line_lots_lot_idx on public.refund_line_lots (lot_id);

create index refund_lines_variant_idx on public.refund_lines (variant_id, business_id);

-- ==== Functions ===========================================================================================

-- The largest discount (percent of the line) each role gives without a manager (ADR 0131).
create or replace function private.discount_limit_percent(_role text)
returns numeric
language sql
immutable
set search_path = ''
as $$
  select case _role when 'owner' then 100 when 'manager' then 50 when 'cashier' then 10 else 0 end::numeric;
$$;
revoke all on function private.discount_limit_percent(text) from public;

create or replace function private.receipt_number(_prefix text, _seq bigint)
returns text
language sql
immutable
set search_path = ''
as $$
  select _prefix || '-' || lpad(_seq::text, 6, '0');
$$;
revoke all on function private.receipt_number(text,bigint) from public;

-- A usable approval (right business, store and purpose, unexpired, unused, approver still an owner or manager),
-- locked and marked used for _used_for; null when there is none.
create or replace function private.take_approval(_approval_id uuid, _business_id uuid, _store_id uuid, _purpose text,
                                                 _used_for uuid)
returns public.pos_approvals
language plpgsql
security definer
set search_path = ''
as $$
declare
  v public.pos_approvals;
begin
  if _approval_id is null then
    return null;
  end if;
  select a.* into v from public.pos_approvals a
   where a.id = _approval_id and a.business_id = _business_id and a.store_id = _store_id and a.purpose = _purpose
     and a.expires_at > now() and a.used_at is null
     and exists (select 1 from public.business_members m where m.business_id = a.business_id
                  and m.user_id = a.approved_by and m.role in ('owner', 'manager'))
   for update;
  if v.id is null then
    return null;
  end if;
  update public.pos_approvals a set used_at = now(), used_for = _used_for where a.id = v.id;
  return v;
end;
$$;
revoke all on function private.take_approval(uuid,uuid,uuid,text,uuid) from public;

-- ---------------------------------------------------------------------------------------------------
-- The quantity rules of private.assert_quantity as an expression: the message of the first rule broken, or null.
create or replace function private.quantity_problem(_unit text, _qty numeric)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when _qty is null then 'enter a quantity'
    when _qty <> round(_qty, 3) then 'a quantity has at most 3 decimals'
    when _unit = 'each' and _qty <> trunc(_qty) then 'this item is counted by the piece: enter a whole number'
    when abs(_qty) >= 1000000000 then 'this quantity is too large'
  end;
$$;
revoke all on function private.quantity_problem(text,numeric) from public;

-- ---------------------------------------------------------------------------------------------------
-- The caller's business and role for a store, in one read: private.assert_store_role's checks (an unarchived store;
-- a member of an unsuspended business with one of the roles; every store for owners and all-stores members, else a
-- store listed in member_store_access) with the same errors, plus the role it found.
create or replace function private.pos_store_access(_store_id uuid, _roles text[], out o_business_id uuid, out o_role text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_access boolean;
begin
  select s.business_id, m.role::text,
         coalesce(m.role = 'owner' or m.all_stores
                  or exists (select 1 from public.member_store_access a
                              where a.business_id = s.business_id and a.user_id = m.user_id and a.store_id = s.id), false)
    into o_business_id, o_role, v_access
    from public.stores s
    left join (public.business_members m join public.businesses b on b.id = m.business_id and b.suspended_at is null)
      on m.business_id = s.business_id and m.user_id = (select auth.uid())
   where s.id = _store_id and s.archived_at is null;
  if o_business_id is null then
    raise exception 'no such store' using errcode = '42501';
  end if;
  if o_role is null or not (o_role = any (_roles)) then
    raise exception 'permission denied: your role in this business does not allow this' using errcode = '42501';
  end if;
  if not v_access then
    raise exception 'permission denied: you do not have access to this store' using errcode = '42501';
  end if;
end;
$$;
revoke all on function private.pos_store_access(uuid,text[]) from public;

-- The register's time for an event of a shift, kept between the shift's opening and the server's now.
create or replace function private.pos_event_time(_at timestamptz, _opened_at timestamptz)
returns timestamptz
language sql
stable
set search_path = ''
as $$
  select least(greatest(coalesce(_at, _opened_at), _opened_at), now());
$$;
revoke all on function private.pos_event_time(timestamp with time zone,timestamp with time zone) from public;

-- ---------------------------------------------------------------------------------------------------
create or replace function public.create_customer(_id uuid, _business_id uuid, _name text, _phone text, _email text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.customers;
begin
  if _id is null or _business_id is null then
    raise exception 'a customer needs an id and a business' using errcode = '22023';
  elsif _business_id not in (select private.my_business_ids()) then
    raise exception 'permission denied for this business' using errcode = '42501';
  end if;
  begin
    insert into public.customers (id, business_id, name, phone, email)
    values (_id, _business_id, btrim(_name), nullif(btrim(coalesce(_phone, '')), ''), nullif(btrim(coalesce(_email, '')), ''))
    on conflict (id) do nothing
    returning * into v_row;
  exception when check_violation or not_null_violation then
    raise exception 'a customer needs a name (2 to 100 characters), and a phone of 10 to 20 characters or an email if given'
      using errcode = '22023';
  end;
  if v_row.id is null then
    -- A retry (or a concurrent copy that committed first): the first row, if it is this business's.
    select c.* into v_row from public.customers c where c.id = _id;
    if v_row.business_id is distinct from _business_id then
      raise exception 'permission denied for this customer id' using errcode = '42501';
    end if;
  end if;
  return jsonb_build_object('id', v_row.id, 'business_id', v_row.business_id, 'name', v_row.name,
                            'phone', v_row.phone, 'email', v_row.email, 'created_at', v_row.created_at);
end;
$$;
comment on function public.create_customer(uuid,uuid,text,text,text) is 'Members add a customer at the counter with the register''s id for it; idempotent by that id (ADR 0155).';
revoke all on function public.create_customer(uuid,uuid,text,text,text) from public;
grant execute on function public.create_customer(uuid,uuid,text,text,text) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The shift as the register reads it: the row, the next receipt sequence and the register's prefix.
create or replace function private.shift_for_register(_shift public.shifts, _register public.registers)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select to_jsonb(_shift) || jsonb_build_object(
    'next_receipt_seq', coalesce((select c.last_seq from private.register_counters c where c.register_id = _register.id), 0) + 1,
    'receipt_prefix', _register.receipt_prefix::text);
$$;
revoke all on function private.shift_for_register(public.shifts,public.registers) from public;

-- The register's open shift: the caller's own first (a shift of theirs that collided offline stays theirs), then
-- the one the unique index guards.
create or replace function public.current_shift(_register_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_register public.registers;
  v_shift public.shifts;
begin
  select r.* into v_register from public.registers r where r.id = _register_id;
  if v_register.id is null then
    raise exception 'no such register' using errcode = '42501';
  end if;
  perform private.assert_store_role(v_register.store_id, array['owner', 'manager', 'cashier']);
  select s.* into v_shift from public.shifts s
   where s.register_id = _register_id and s.closed_at is null
   order by (s.cashier_id = (select auth.uid())) desc nulls last, s.opened_in_conflict, s.opened_at desc
   limit 1;
  if v_shift.id is null then
    return null;
  end if;
  return private.shift_for_register(v_shift, v_register);
end;
$$;
revoke all on function public.current_shift(uuid) from public;
grant execute on function public.current_shift(uuid) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The catalog delta, one page: the variants changed after _since (their own row, their product, this store's price,
-- a barcode added), archived ones included so the register drops them, in id order after _after.
create or replace function private.pos_catalog_delta(_store public.stores, _business uuid, _after uuid, _limit int,
                                                     _since timestamptz)
returns table (
  variant_id uuid, name text, sku text, price bigint, tax_rate numeric, unit text, has_lots boolean, barcodes text[],
  archived boolean, changed_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  -- Past this many changes the walk in id order reads less per page than the changed set rebuilt for each page.
  v_cap int := 3 * _limit;
  v_changed int;
begin
  -- A capped count: a bulk change is recognised after reading v_cap index entries, not all of them.
  select count(*) into v_changed from (
    select 1 from public.variants v where v.business_id = _business and v.updated_at > _since limit v_cap) x;
  if v_changed < v_cap then
    select v_changed + count(*) into v_changed from (
      select 1 from public.products p join public.variants v on v.product_id = p.id
       where p.business_id = _business and p.updated_at > _since limit v_cap) x;
  end if;
  if v_changed < v_cap then
    select v_changed + count(*) into v_changed from (
      select 1 from public.store_prices sp where sp.store_id = _store.id and sp.updated_at > _since limit v_cap) x;
  end if;
  if v_changed < v_cap then
    select v_changed + count(*) into v_changed from (
      select 1 from public.barcodes bc where bc.business_id = _business and bc.created_at > _since limit v_cap) x;
  end if;

  if v_changed >= v_cap then
    -- Many changes: the variants in id order from the keyset (business_id, id), each checked, until the page is full.
    return query
      select v.id,
             p.name || coalesce(' ' || nullif(concat_ws(' / ', v.option1, v.option2, v.option3), ''), ''),
             v.sku, coalesce(sp.price, v.price), coalesce(p.tax_rate, _store.default_tax_rate)::numeric, p.unit,
             p.has_lots,
             coalesce((select array_agg(b.code order by b.code) from public.barcodes b where b.variant_id = v.id), '{}'),
             (v.archived_at is not null or p.archived_at is not null),
             greatest(v.updated_at, p.updated_at, sp.updated_at)
        from public.variants v
        join public.products p on p.id = v.product_id
        left join public.store_prices sp on sp.store_id = _store.id and sp.variant_id = v.id
       where v.business_id = _business
         -- Never "_after is null or ...": a cached generic plan could not use the index for it.
         and v.id > coalesce(_after, '00000000-0000-0000-0000-000000000000'::uuid)
         and (v.updated_at > _since or p.updated_at > _since or sp.updated_at > _since
              or exists (select 1 from public.barcodes bc where bc.variant_id = v.id and bc.created_at > _since))
       order by v.business_id, v.id
       limit _limit;
    return;
  end if;
  -- A few changes: the set from the sources' timestamp indexes (fewer than v_cap rows), the page after the keyset.
  return query
    with changed as (
      select v.id from public.variants v where v.business_id = _business and v.updated_at > _since
      union
      select v.id from public.products p join public.variants v on v.product_id = p.id
       where p.business_id = _business and p.updated_at > _since
      union
      select sp.variant_id from public.store_prices sp where sp.store_id = _store.id and sp.updated_at > _since
      union
      select bc.variant_id from public.barcodes bc where bc.business_id = _business and bc.created_at > _since
    )
    select v.id,
           p.name || coalesce(' ' || nullif(concat_ws(' / ', v.option1, v.option2, v.option3), ''), ''),
           v.sku, coalesce(sp.price, v.price), coalesce(p.tax_rate, _store.default_tax_rate)::numeric, p.unit,
           p.has_lots,
           coalesce((select array_agg(b.code order by b.code) from public.barcodes b where b.variant_id = v.id), '{}'),
           (v.archived_at is not null or p.archived_at is not null),
           greatest(v.updated_at, p.updated_at, sp.updated_at)
      from changed c
      join public.variants v on v.id = c.id and v.business_id = _business
      join public.products p on p.id = v.product_id
      left join public.store_prices sp on sp.store_id = _store.id and sp.variant_id = v.id
     where v.id > coalesce(_after, '00000000-0000-0000-0000-000000000000'::uuid)
     order by v.id
     limit _limit;
end;
$$;
revoke all on function private.pos_catalog_delta(public.stores,uuid,uuid,integer,timestamp with time zone) from public;

-- The server's clock for the register's catalog copy: asked beside a load's first page, it becomes the copy's
-- `since` when later than the newest change seen, so the next delta starts from the server's now less the overlap
-- (a bulk change is re-read only by a load within the overlap, not by every later one). Any signed-in member.
create or replace function public.pos_clock()
returns timestamptz
language sql
stable
security invoker
set search_path = ''
as $$
  select now();
$$;
revoke all on function public.pos_clock() from public;
grant execute on function public.pos_clock() to authenticated;

-- The shift a flagged shift overlapped, from its review reason 'open_conflict:<id>' (null when it was unknown).
-- Called by review_shift (definer); flagged_shifts reads the same reason inline (it runs as the caller).
create or replace function private.shift_conflict_other(_reasons text[])
returns uuid
language sql
immutable
set search_path = ''
as $$
  select substr(r, 15)::uuid from unnest(_reasons) r
   where r ~ '^open_conflict:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
   limit 1;
$$;
revoke all on function private.shift_conflict_other(text[]) from public;

-- ---------------------------------------------------------------------------------------------------
-- The terms of an entry from the register (a sale or a refund): the shift it goes into, its time and why a manager
-- should look at it. Online (_offline false): an open shift of the register (the caller's own for a cashier), dated
-- by the server. Offline: the same shift, open or closed since (then 'after_close'), dated by the register's clock
-- kept between the shift's opening and its close or the arrival ('time_before_shift', 'clock_ahead',
-- 'time_after_close' when moved); without such a shift: no shift, dated at the arrival, 'no_open_shift'.
-- _register_id null: any register of the shift's store (a refund rung at another till than the sale).
create or replace function private.pos_entry_terms(_shift public.shifts, _register_id uuid, _role text, _offline boolean,
                                                   _register_time jsonb,
                                                   out o_shift_id uuid, out o_occurred timestamptz, out o_reasons text[])
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_at timestamptz;
  v_own boolean := _shift.id is not null and (_role in ('owner', 'manager') or _shift.cashier_id = (select auth.uid()));
  v_here boolean := _shift.id is not null and (_register_id is null or _shift.register_id = _register_id);
  v_until timestamptz;
begin
  o_reasons := '{}';
  -- The register's time is checked either way (bad input is refused), and used only offline.
  if jsonb_typeof(_register_time) = 'string' then
    begin
      v_at := (_register_time #>> '{}')::timestamptz;
    exception when others then
      raise exception 'occurred_at is not a date and time' using errcode = '22023';
    end;
    if not isfinite(v_at) then
      raise exception 'occurred_at is not a date and time' using errcode = '22023';
    end if;
  end if;
  if not coalesce(_offline, false) then
    if not v_here then
      raise exception 'open a shift on this register first' using errcode = '22023';
    elsif not v_own then
      raise exception 'permission denied: this is another cashier''s shift: open your own' using errcode = '42501';
    elsif _shift.closed_at is not null then
      raise exception 'this shift is closed: open a new shift' using errcode = '22023';
    end if;
    o_shift_id := _shift.id;
    o_occurred := now();
    return;
  end if;
  if not (v_here and v_own) then
    o_occurred := now();
    o_reasons := array['no_open_shift'];
    return;
  end if;
  o_shift_id := _shift.id;
  v_until := least(coalesce(_shift.closed_at, now()), now());
  if _shift.closed_at is not null then
    o_reasons := array_append(o_reasons, 'after_close'::text);
  end if;
  if v_at is null then
    o_occurred := v_until;
  elsif v_at < _shift.opened_at then
    o_occurred := _shift.opened_at;
    o_reasons := array_append(o_reasons, 'time_before_shift'::text);
  elsif _shift.closed_at is not null and v_at > v_until then
    o_occurred := v_until;
    o_reasons := array_append(o_reasons, 'time_after_close'::text);
  elsif v_at > now() + interval '5 minutes' then
    o_occurred := now();
    o_reasons := array_append(o_reasons, 'clock_ahead'::text);
  else
    -- A register's clock a few minutes ahead is ordinary: kept at the arrival, not flagged.
    o_occurred := least(v_at, v_until);
  end if;
end;
$$;
revoke all on function private.pos_entry_terms(public.shifts,uuid,text,boolean,jsonb) from public;

-- ---------------------------------------------------------------------------------------------------
-- The receipt number (20261124100000_pos_speed): a register's sequence more than 10,000 ahead of the highest seen
-- is not taken (a forged 999,999,999,999 would end the register's numbers): the server gives the next, flagged.
create or replace function private.sale_receipt_number(_register public.registers, _business_id uuid, _receipt_seq jsonb,
                                                       out o_receipt text, out o_reassigned boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_seq bigint;
  v_last bigint;
begin
  o_reassigned := false;
  if jsonb_typeof(_receipt_seq) = 'number' and (_receipt_seq #>> '{}') ~ '^[1-9][0-9]{0,11}$' then
    v_seq := (_receipt_seq #>> '{}')::bigint;
    select c.last_seq into v_last from private.register_counters c where c.register_id = _register.id;
    if v_seq > coalesce(v_last, 0) + 10000 then
      v_seq := null;
      o_reassigned := true;
    else
      insert into private.register_counters as c (register_id, last_seq) values (_register.id, v_seq)
      on conflict (register_id) do update set last_seq = greatest(c.last_seq, excluded.last_seq);
      if exists (select 1 from public.sales s where s.business_id = _business_id
                  and s.receipt_number = private.receipt_number(_register.receipt_prefix, v_seq)) then
        v_seq := null;
        o_reassigned := true;
      end if;
    end if;
  end if;
  if v_seq is null then
    insert into private.register_counters as c (register_id, last_seq) values (_register.id, 1)
    on conflict (register_id) do update set last_seq = c.last_seq + 1
    returning c.last_seq into v_seq;
  end if;
  o_receipt := private.receipt_number(_register.receipt_prefix, v_seq);
end;
$$;
revoke all on function private.sale_receipt_number(public.registers,uuid,jsonb) from public;

-- ---------------------------------------------------------------------------------------------------
-- What was refunded of each line of a sale (quantity and money): post_refund prices the next part from it and
-- find_sale_for_refund shows what is left.
create or replace function private.sale_line_refunds(_sale_id uuid)
returns table (sale_line_id uuid, qty numeric, amount bigint)
language sql
stable
security definer
set search_path = ''
as $$
  select rl.sale_line_id, sum(rl.qty), sum(rl.amount)::bigint
    from public.refund_lines rl join public.sale_lines x on x.id = rl.sale_line_id
   where x.sale_id = _sale_id
   group by rl.sale_line_id;
$$;
revoke all on function private.sale_line_refunds(uuid) from public;

-- ---------------------------------------------------------------------------------------------------
-- Shifts.
create or replace function public.open_shift(_register_id uuid, _opening_float bigint default 0)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_register public.registers;
  v_business uuid;
  v_shift public.shifts;
begin
  select r.* into v_register from public.registers r where r.id = _register_id and r.archived_at is null;
  if v_register.id is null then
    raise exception 'no such register' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_register.store_id, array['owner', 'manager', 'cashier']);
  if _opening_float is null or _opening_float < 0 or _opening_float > 100000000000 then
    raise exception 'enter a starting float of zero or more' using errcode = '22023';
  end if;
  begin
    insert into public.shifts (business_id, store_id, register_id, cashier_id, opening_float)
    values (v_business, v_register.store_id, v_register.id, (select auth.uid()), _opening_float)
    returning * into v_shift;
  exception when unique_violation then
    raise exception 'this register already has an open shift: close it first' using errcode = '23505';
  end;
  insert into private.register_counters (register_id) values (v_register.id) on conflict do nothing;
  perform private.log_activity(v_business, v_register.store_id, 'shift.opened', 'shift', v_shift.id, null,
    jsonb_build_object('register_id', v_register.id, 'opening_float', _opening_float));
  return to_jsonb(v_shift) || jsonb_build_object(
    'next_receipt_seq', (select c.last_seq + 1 from private.register_counters c where c.register_id = v_register.id),
    'receipt_prefix', v_register.receipt_prefix::text);
end;
$$;
revoke all on function public.open_shift(uuid,bigint) from public;
grant execute on function public.open_shift(uuid,bigint) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Opening a shift (20261125130000_pos_offline_shift_open): online the server's time; from the offline outbox the
-- register's clock kept after the register's last close and its creation, and before the arrival (a shift dated
-- 2001 reopened every closed period). The rest is unchanged.
create or replace function public.open_shift(_id uuid, _register_id uuid, _opening_float bigint, _opened_at timestamptz,
                                             _offline boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_register public.registers;
  v_business uuid;
  v_shift public.shifts;
  v_other public.shifts;
  v_at timestamptz;
  v_floor timestamptz;
begin
  if _id is null then
    raise exception 'a shift needs its register-generated id' using errcode = '22023';
  end if;
  select r.* into v_register from public.registers r where r.id = _register_id;
  if v_register.id is null or (v_register.archived_at is not null and not coalesce(_offline, false)) then
    raise exception 'no such register' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_register.store_id, array['owner', 'manager', 'cashier']);
  select s.* into v_shift from public.shifts s where s.id = _id;
  if v_shift.id is not null then
    if v_shift.register_id is distinct from v_register.id then
      raise exception 'permission denied for this shift id' using errcode = '42501';
    end if;
    return private.shift_for_register(v_shift, v_register);
  end if;
  if _opening_float is null or _opening_float < 0 or _opening_float > 100000000000 then
    raise exception 'enter a starting float of zero or more' using errcode = '22023';
  end if;
  if _opened_at is not null and not isfinite(_opened_at) then
    raise exception 'the opening time is not a date and time' using errcode = '22023';
  end if;
  if coalesce(_offline, false) then
    select max(s.closed_at) into v_floor from public.shifts s where s.register_id = v_register.id;
    v_at := least(greatest(coalesce(_opened_at, now()), coalesce(v_floor, v_register.created_at), v_register.created_at), now());
  else
    v_at := now();
  end if;
  begin
    insert into public.shifts (id, business_id, store_id, register_id, cashier_id, opening_float, opened_at)
    values (_id, v_business, v_register.store_id, v_register.id, (select auth.uid()), _opening_float, v_at)
    on conflict (id) do nothing
    returning * into v_shift;
  exception when unique_violation then
    if exists (select 1 from public.shifts s where s.id = _id) then
      select s.* into v_shift from public.shifts s where s.id = _id and s.register_id = v_register.id;
      if v_shift.id is null then
        raise exception 'permission denied for this shift id' using errcode = '42501';
      end if;
      return private.shift_for_register(v_shift, v_register);
    end if;
    select s.* into v_other from public.shifts s
     where s.register_id = v_register.id and s.closed_at is null and not s.opened_in_conflict;
    if not coalesce(_offline, false) then
      raise exception 'this register already has an open shift: close it first' using errcode = '23505';
    end if;
    insert into public.shifts (id, business_id, store_id, register_id, cashier_id, opening_float, opened_at,
                               opened_in_conflict, review_reasons)
    values (_id, v_business, v_register.store_id, v_register.id, (select auth.uid()), _opening_float, v_at, true,
            array['open_conflict:' || coalesce(v_other.id::text, 'unknown')])
    on conflict (id) do nothing
    returning * into v_shift;
    if v_shift.id is not null then
      perform private.log_activity(v_business, v_register.store_id, 'shift.open_conflict', 'shift', v_shift.id, null,
        jsonb_build_object('register_id', v_register.id, 'opening_float', _opening_float, 'opened_at', v_at,
                           'open_shift_id', v_other.id));
    end if;
  end;
  if v_shift.id is null then
    select s.* into v_shift from public.shifts s where s.id = _id;
    if v_shift.register_id is distinct from v_register.id then
      raise exception 'permission denied for this shift id' using errcode = '42501';
    end if;
    return private.shift_for_register(v_shift, v_register);
  end if;
  insert into private.register_counters (register_id) values (v_register.id) on conflict do nothing;
  if not v_shift.opened_in_conflict then
    perform private.log_activity(v_business, v_register.store_id, 'shift.opened', 'shift', v_shift.id, null,
      jsonb_build_object('register_id', v_register.id, 'opening_float', _opening_float, 'opened_at', v_at)
      || case when _opened_at is distinct from v_at then jsonb_build_object('register_opened_at', _opened_at)
              else '{}'::jsonb end);
  end if;
  return private.shift_for_register(v_shift, v_register);
end;
$$;
comment on function public.open_shift(uuid,uuid,bigint,timestamp with time zone,boolean) is 'Opens a shift with the register''s id and time for it; idempotent by that id. From the offline outbox a second open shift on the register is written and flagged (opened_in_conflict) instead of refused (ADR 0165).';
revoke all on function public.open_shift(uuid,uuid,bigint,timestamp with time zone,boolean) from public;
grant execute on function public.open_shift(uuid,uuid,bigint,timestamp with time zone,boolean) to authenticated;

-- The X report of a shift: a cashier their own shift's only.
create or replace function public.x_report(_shift_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_shift public.shifts;
  v_role text;
begin
  select s.* into v_shift from public.shifts s where s.id = _shift_id;
  if v_shift.id is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  select a.o_role into v_role from private.pos_store_access(v_shift.store_id, array['owner', 'manager', 'cashier']) a;
  if v_role = 'cashier' and v_shift.cashier_id is distinct from (select auth.uid()) then
    raise exception 'permission denied: this is another cashier''s shift' using errcode = '42501';
  end if;
  return private.shift_figures(_shift_id);
end;
$$;
revoke all on function public.x_report(uuid) from public;
grant execute on function public.x_report(uuid) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- A manager settles a refused outbox entry (20261125130000_pos_offline_shift_open): the entry's author, when named,
-- is a member of the business or a former member with entries in its trail (any uuid was recorded before).
create or replace function public.pos_outbox_review(_store_id uuid, _entry_id uuid, _kind text, _action text,
                                                    _reason text, _error text, _author_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid;
begin
  v_business := private.assert_store_role(_store_id, array['owner', 'manager']);
  if _entry_id is null then
    raise exception 'name the entry' using errcode = '22023';
  elsif _kind is null or _kind not in ('sale', 'refund', 'customer', 'cash', 'close', 'open') then
    raise exception 'an entry is a sale, refund, customer, cash, close or open' using errcode = '22023';
  elsif _action is null or _action not in ('retry', 'discard') then
    raise exception 'retry or discard' using errcode = '22023';
  elsif char_length(btrim(coalesce(_reason, ''))) not between 3 and 500 then
    raise exception 'give a reason (3 to 500 characters)' using errcode = '22023';
  elsif _author_id is not null
        and not exists (select 1 from public.business_members m where m.business_id = v_business and m.user_id = _author_id)
        and not exists (select 1 from public.activity a where a.business_id = v_business and a.actor_id = _author_id) then
    -- A member, or a former one who worked here (their entry is refused because they were removed: the usual case).
    raise exception 'the entry''s author is not a member of this business' using errcode = '22023';
  end if;
  perform private.log_activity(v_business, _store_id, 'pos.outbox_' || _action, 'outbox_entry', _entry_id, null,
    jsonb_build_object('kind', _kind, 'reason', btrim(_reason), 'refusal', left(coalesce(_error, ''), 500),
                       'author_id', _author_id));
end;
$$;
comment on function public.pos_outbox_review(uuid,uuid,text,text,text,text,uuid) is 'Owners and managers of the store record retrying or discarding an outbox entry the server refused (ADR 0165).';
revoke all on function public.pos_outbox_review(uuid,uuid,text,text,text,text,uuid) from public;
grant execute on function public.pos_outbox_review(uuid,uuid,text,text,text,text,uuid) to authenticated;

-- request_receipt_email (20261123135000_receipt_email.sql): the same, plus the hourly caps before queueing.
create or replace function public.request_receipt_email(_sale_id uuid, _email text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_sale public.sales;
  v_email public.email_address;
begin
  if v_uid is null then
    raise exception 'sign in to email a receipt' using errcode = '42501';
  end if;
  -- The same rule as the sales read policy: full access to the business, or access to the sale's store.
  select s.* into v_sale from public.sales s
   where s.id = _sale_id
     and (s.business_id in (select private.my_full_access_business_ids())
          or s.store_id in (select private.my_listed_store_ids()));
  if v_sale.id is null then
    raise exception 'receipt not found (a sale made offline can be emailed once it has synced)' using errcode = '42501';
  end if;
  begin
    v_email := btrim(coalesce(_email, ''));
  exception when check_violation then
    raise exception 'enter a valid email address' using errcode = '22023';
  end;
  if (select count(*) from public.activity a
       where a.business_id = v_sale.business_id and a.kind = 'receipt.emailed' and a.entity_id = v_sale.id) >= 3 then
    raise exception 'this receipt was already emailed 3 times' using errcode = 'SW003';
  end if;
  if (select count(*) from public.activity a
       where a.business_id = v_sale.business_id and a.actor_id = v_uid and a.at > now() - interval '1 hour'
         and a.kind = 'receipt.emailed') >= 30 then
    raise exception 'too many receipt emails in the last hour; try again later' using errcode = 'SW003';
  end if;
  perform private.spend_email(v_sale.business_id, 'receipt');

  insert into public.email_outbox (to_email, template, params)
  values (v_email, 'receipt', private.receipt_email_params(v_sale));
  perform private.log_activity(v_sale.business_id, v_sale.store_id, 'receipt.emailed', 'sale', v_sale.id, null,
    jsonb_build_object('receipt_number', v_sale.receipt_number));
  return jsonb_build_object('queued', true, 'receipt_number', v_sale.receipt_number);
end;
$$;
comment on function public.request_receipt_email(uuid,text) is 'Queues the receipt of a sale the caller may read for email to one address (3 per sale, 30 per member per hour, and the business''s and account''s hourly email caps: PT429 past them).';
revoke all on function public.request_receipt_email(uuid,text) from public;
grant execute on function public.request_receipt_email(uuid,text) to authenticated;

-- An amount rounded to a multiple of the step, halves away from zero (integers only: no float).
create or replace function private.round_to_step(_amount bigint, _step bigint)
returns bigint
language sql
immutable
set search_path = ''
as $$
  select case when coalesce(_step, 0) <= 1 then _amount
              when _amount < 0 then -(((2 * (-_amount) + _step) / (2 * _step)) * _step)
              else ((2 * _amount + _step) / (2 * _step)) * _step end;
$$;
revoke all on function private.round_to_step(bigint,bigint) from public;

-- A sale's cash rounding: when cash pays part of it, what is left for cash after the other tenders (exact) is
-- rounded to the step. No cash tender, no step, or nothing left for cash: 0.
create or replace function private.sale_cash_rounding(_total bigint, _tenders jsonb, _step bigint)
returns bigint
language sql
immutable
set search_path = ''
as $$
  with t as (select coalesce(sum((x ->> 'amount')::bigint) filter (where x ->> 'kind' <> 'cash'), 0)::bigint as other,
                    count(*) filter (where x ->> 'kind' = 'cash') as cash_tenders
               from jsonb_array_elements(coalesce(_tenders, '[]')) x)
  select case when coalesce(_step, 0) <= 1 or t.cash_tenders = 0 or _total - t.other <= 0 then 0
              else private.round_to_step(_total - t.other, _step) - (_total - t.other) end::bigint
    from t;
$$;
revoke all on function private.sale_cash_rounding(bigint,jsonb,bigint) from public;

-- A cash refund's rounding, over the sale's refunds so far: round(before + this) - round(before) - this. Parts
-- of a sale refunded one by one pay back, together, the rounded whole. The sale row is locked by post_refund,
-- so the refunds before this one cannot change meanwhile.
create or replace function private.refund_cash_rounding(_sale_id uuid, _refund_id uuid, _tender text, _total bigint,
                                                        _step bigint)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  with b as (select coalesce(sum(f.total), 0)::bigint as before from public.refunds f
              where f.sale_id = _sale_id and f.id <> _refund_id)
  select case when _tender <> 'cash' or coalesce(_step, 0) <= 1 then 0
              else private.round_to_step(b.before + _total, _step) - private.round_to_step(b.before, _step) - _total
         end::bigint
    from b;
$$;
revoke all on function private.refund_cash_rounding(uuid,uuid,text,bigint,bigint) from public;

-- The serial lines of a posted sale: checked, the units taken (status in_stock -> sold, one at a time under
-- concurrency), recorded. Returns the review reasons of an offline sale.
create or replace function private.record_sale_serials(_business_id uuid, _sale_id uuid, _lines jsonb, _offline boolean)
returns text[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  l record;
  v_problem text;
  v_serial text;
  v_unit uuid;
  v_reasons text[] := '{}';
begin
  for l in select x.id, x.line_no, x.variant_id, x.qty, x.serial_tracking, x.serial
             from jsonb_to_recordset(_lines) as x (id uuid, line_no int, variant_id uuid, qty numeric, serial_tracking text,
                                                   serial jsonb)
            where x.serial_tracking is not null
            order by x.line_no loop
    v_serial := case when jsonb_typeof(l.serial) = 'string' then btrim(l.serial #>> '{}') end;
    v_problem := case when l.qty <> 1 then 'sell a serial-numbered item one unit per line'
                      else private.serial_problem(l.serial_tracking, v_serial) end;
    if v_problem is not null then
      if not _offline then
        raise exception 'line %: %', l.line_no, v_problem using errcode = '22023';
      end if;
      v_reasons := array_append(v_reasons, ('serial_missing:' || l.line_no)::text);
      continue;
    end if;
    v_unit := null;
    update public.serial_numbers n set status = 'sold', sale_line_id = l.id
     where n.business_id = _business_id and n.variant_id = l.variant_id and n.serial = v_serial and n.status = 'in_stock'
    returning n.id into v_unit;
    if v_unit is null then
      select n.id into v_unit from public.serial_numbers n
       where n.business_id = _business_id and n.variant_id = l.variant_id and n.serial = v_serial;
      if not _offline then
        if v_unit is null then
          raise exception 'line %: serial % was never received for this item', l.line_no, v_serial using errcode = '22023';
        end if;
        raise exception 'line %: serial % is already sold', l.line_no, v_serial using errcode = '23505';
      end if;
      v_reasons := array_append(v_reasons,
        ((case when v_unit is null then 'serial_unknown:' else 'serial_duplicate:' end) || l.line_no)::text);
      insert into public.sale_line_serials (sale_line_id, business_id, sale_id, serial, serial_id, duplicate)
      values (l.id, _business_id, _sale_id, v_serial, v_unit, true);
    else
      insert into public.sale_line_serials (sale_line_id, business_id, sale_id, serial, serial_id)
      values (l.id, _business_id, _sale_id, v_serial, v_unit);
    end if;
  end loop;
  return v_reasons;
end;
$$;
revoke all on function private.record_sale_serials(uuid,uuid,jsonb,boolean) from public;

-- A refund's serial lines: a restocked unit is back in stock, a damaged one is marked so.
create or replace function private.return_refund_serials(_refund_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.serial_numbers n
     set status = case when rl.disposition = 'restock' then 'in_stock' else 'damaged' end, sale_line_id = null
    from public.refund_lines rl
    join public.sale_line_serials ss on ss.sale_line_id = rl.sale_line_id and not ss.duplicate
   where rl.refund_id = _refund_id and n.id = ss.serial_id and n.sale_line_id = ss.sale_line_id;
$$;
revoke all on function private.return_refund_serials(uuid) from public;

create or replace function private.sale_lines_priced(
  _lines jsonb, _business_id uuid, _store public.stores, _sale_id uuid, _offline boolean, _role text, _approval_id uuid,
  out o_lines jsonb, out o_subtotal bigint, out o_discounts bigint, out o_taxes bigint, out o_total bigint,
  out o_reasons text[], out o_approval_id uuid)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uuid constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  v_max_pct numeric := private.discount_limit_percent(_role);
  v_catalog jsonb;
  v_approval public.pos_approvals;
  v_line jsonb;
  v_item jsonb;
  v_n int := 0;
  v_qty numeric;
  v_problem text;
  v_price bigint;
  v_claimed bigint;
  v_discount bigint;
  v_gross bigint;
  v_net bigint;
  v_rate numeric;
  v_tax bigint;
  v_line_total bigint;
  v_pct numeric;
  v_lot uuid;
  v_out jsonb[] := '{}';
begin
  o_subtotal := 0;
  o_discounts := 0;
  o_taxes := 0;
  o_total := 0;
  o_reasons := '{}';
  if jsonb_typeof(_lines) is distinct from 'array' or jsonb_array_length(_lines) = 0 then
    raise exception 'a sale has at least one line' using errcode = '22023';
  elsif jsonb_array_length(_lines) > 500 then
    raise exception 'a sale has at most 500 lines' using errcode = '22023';
  end if;

  -- Every line's item in one read, keyed by the variant id as text.
  select coalesce(jsonb_object_agg(v.id::text, jsonb_build_object(
           'price', coalesce(sp.price, v.price), 'tax_rate', p.tax_rate, 'track_stock', p.track_stock,
           'has_lots', p.has_lots, 'unit', p.unit, 'cost', coalesce(c.cost, 0), 'serial_tracking', p.serial_tracking,
           'description', p.name || coalesce(' ' || concat_ws(' / ', v.option1, v.option2, v.option3), ''))), '{}')
    into v_catalog
    from public.variants v
    join public.products p on p.id = v.product_id
    left join public.store_prices sp on sp.store_id = _store.id and sp.variant_id = v.id
    left join public.variant_costs c on c.variant_id = v.id
   where v.business_id = _business_id
     and v.id in (select case when coalesce(x ->> 'variant_id', '') ~* v_uuid then (x ->> 'variant_id')::uuid end
                    from jsonb_array_elements(_lines) x where jsonb_typeof(x) = 'object');

  for v_line in select value from jsonb_array_elements(_lines) loop
    v_n := v_n + 1;
    if jsonb_typeof(v_line) <> 'object' or coalesce(v_line ->> 'variant_id', '') !~* v_uuid then
      raise exception 'line %: choose an item', v_n using errcode = '22023';
    end if;
    if jsonb_typeof(v_line -> 'qty') <> 'number' or (v_line ->> 'qty')::numeric <= 0 then
      raise exception 'line %: enter a quantity above zero', v_n using errcode = '22023';
    end if;
    v_qty := (v_line ->> 'qty')::numeric;
    v_item := v_catalog -> lower(v_line ->> 'variant_id');
    if v_item is null then
      raise exception 'line %: no such item in this business', v_n using errcode = '22023';
    end if;
    v_problem := private.quantity_problem(v_item ->> 'unit', v_qty);
    if v_problem is not null then
      raise exception '%', v_problem using errcode = '22023';
    end if;
    v_price := (v_item ->> 'price')::bigint;
    if v_line ? 'unit_price' then
      if jsonb_typeof(v_line -> 'unit_price') <> 'number' or (v_line ->> 'unit_price') !~ '^[0-9]{1,12}$' then
        raise exception 'line %: a price is a whole amount in minor units', v_n using errcode = '22023';
      end if;
      v_claimed := (v_line ->> 'unit_price')::bigint;
      if v_claimed <> v_price then
        if not _offline then
          raise exception 'line %: the price % is not this item''s price (%): refresh the register', v_n, v_claimed, v_price
            using errcode = 'SW002';
        end if;
        -- Offline the register sold at the price it showed (maybe stale): keep it, flag it.
        o_reasons := array_append(o_reasons, ('price_mismatch:' || v_n)::text);
        v_price := v_claimed;
      end if;
    end if;
    -- A scale label (20261201142000): the weight or price it carries is the line's quantity.
    v_problem := private.scale_line_problem(_business_id, v_line, v_qty, v_price, _store.currency);
    if v_problem is not null then
      if not _offline then
        raise exception 'line %: %', v_n, v_problem using errcode = '22023';
      end if;
      o_reasons := array_append(o_reasons, ('scale_label_mismatch:' || v_n)::text);
    end if;
    v_discount := 0;
    if v_line ? 'discount' and jsonb_typeof(v_line -> 'discount') <> 'null' then
      if jsonb_typeof(v_line -> 'discount') <> 'number' or (v_line ->> 'discount') !~ '^[0-9]{1,12}$' then
        raise exception 'line %: a discount is a whole amount in minor units', v_n using errcode = '22023';
      end if;
      v_discount := (v_line ->> 'discount')::bigint;
    end if;
    v_gross := round(v_price * v_qty)::bigint;
    if v_gross = 0 and v_price > 0 then
      if not _offline then
        raise exception 'line %: % is too little to charge for at this price: weigh it again or add it to its other line',
          v_n, v_qty using errcode = '22023';
      end if;
      o_reasons := array_append(o_reasons, ('zero_price_line:' || v_n)::text);
    end if;
    if v_discount > v_gross then
      raise exception 'line %: the discount is larger than the line', v_n using errcode = '22023';
    end if;
    v_pct := case when v_gross = 0 then 0 else v_discount * 100.0 / v_gross end;
    if v_pct > v_max_pct then
      if v_approval.id is null and _approval_id is not null then
        v_approval := private.take_approval(_approval_id, _business_id, _store.id, 'discount', _sale_id);
      end if;
      if v_approval.id is null or v_pct > v_approval.max_discount_percent then
        if not _offline then
          raise exception 'line %: a discount of % percent is above your limit of % percent: ask a manager to approve it',
            v_n, round(v_pct, 1), v_max_pct using errcode = '42501';
        end if;
        o_reasons := array_append(o_reasons, ('discount_over_limit:' || v_n)::text);
      end if;
    end if;
    v_net := v_gross - v_discount;
    v_rate := coalesce((v_item ->> 'tax_rate')::numeric, _store.default_tax_rate);
    -- Rounded per line, half away from zero, in minor units.
    if _store.tax_inclusive then
      v_tax := round(v_net * v_rate / (100 + v_rate))::bigint;
      v_line_total := v_net;
    else
      v_tax := round(v_net * v_rate / 100)::bigint;
      v_line_total := v_net + v_tax;
    end if;
    v_lot := null;
    if (v_item ->> 'has_lots')::boolean then
      if coalesce(v_line ->> 'lot_id', '') ~* v_uuid then
        select l.id into v_lot from public.lots l
         where l.id = (v_line ->> 'lot_id')::uuid and l.variant_id = (v_line ->> 'variant_id')::uuid;
      end if;
      if v_lot is null then
        -- First expiring lot with stock here, else the newest lot.
        select l.id into v_lot from public.lots l
          left join public.stock_balances b on b.lot_id = l.id and b.store_id = _store.id
         where l.variant_id = (v_line ->> 'variant_id')::uuid
         order by (coalesce(b.qty, 0) > 0) desc, l.expires_on nulls last, l.created_at desc limit 1;
      end if;
      if v_lot is null then
        raise exception 'line %: this item is tracked by lot and has none yet: receive it first', v_n using errcode = '22023';
      end if;
    end if;
    o_subtotal := o_subtotal + v_gross;
    o_discounts := o_discounts + v_discount;
    o_taxes := o_taxes + v_tax;
    o_total := o_total + v_line_total;
    v_out := array_append(v_out, jsonb_build_object(
      'id', gen_random_uuid(), 'line_no', v_n, 'variant_id', lower(v_line ->> 'variant_id'), 'lot_id', v_lot,
      'qty', v_qty, 'unit_price', v_price, 'discount', v_discount, 'tax_rate', v_rate, 'tax_amount', v_tax,
      'line_total', v_line_total, 'cost', (v_item ->> 'cost')::bigint, 'track_stock', (v_item ->> 'track_stock')::boolean,
      'description', v_item ->> 'description', 'serial_tracking', v_item -> 'serial_tracking', 'serial', v_line -> 'serial'));
  end loop;
  o_lines := to_jsonb(v_out);
  o_approval_id := v_approval.id;
end;
$$;
revoke all on function private.sale_lines_priced(jsonb,uuid,public.stores,uuid,boolean,text,uuid) from public;

-- The register's outbox calls: refused before any work, as one answer for the whole batch (the outbox keeps the
-- sales and tries again later), rather than one refusal per sale. Otherwise as 20261127120000_work_caps.
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
  perform private.assert_writable();
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
comment on function public.post_sales(jsonb) is 'A register''s outbox in batches: at most 50 sales and 60 sale lines; each sale posted or refused on its own, one result per sale in order.';
revoke all on function public.post_sales(jsonb) from public;
grant execute on function public.post_sales(jsonb) to authenticated;

create or replace function public.post_sale(_payload jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v record;
begin
  perform private.assert_writable();
  select * into v from private.post_sale_core(_payload);
  return private.sale_json(v.o_id) || jsonb_build_object('replayed', v.o_replayed);
end;
$$;
revoke all on function public.post_sale(jsonb) from public;
grant execute on function public.post_sale(jsonb) to authenticated;

-- Why a PIN is refused, or null: 4 to 6 digits, not one digit repeated, not a run up or down, not a pair or triple
-- repeated (1212, 123123): the first PINs anyone tries.
create or replace function private.pin_problem(_pin text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_up boolean := true;
  v_down boolean := true;
  i int;
begin
  if _pin is null or _pin !~ '^[0-9]{4,6}$' then
    return 'a PIN is 4 to 6 digits';
  end if;
  for i in 2..length(_pin) loop
    if (substr(_pin, i, 1)::int - substr(_pin, i - 1, 1)::int + 10) % 10 <> 1 then v_up := false; end if;
    if (substr(_pin, i - 1, 1)::int - substr(_pin, i, 1)::int + 10) % 10 <> 1 then v_down := false; end if;
  end loop;
  if _pin ~ '^(.)\1+$' or v_up or v_down or _pin ~ '^(..)\1+$' or _pin ~ '^(...)\1$' then
    return 'this PIN is too easy to guess: choose one that is not a repeated digit, a run like 1234 or a repeated pair';
  end if;
  return null;
end;
$$;
revoke all on function private.pin_problem(text) from public;

-- The role of a person in the business of a store when they may use that store (an unsuspended business, every
-- store for owners and all-stores members, else a listed store), or null: who may be switched in or approve there.
create or replace function private.store_member_role(_store_id uuid, _user_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select m.role::text
    from public.stores s
    join public.business_members m on m.business_id = s.business_id and m.user_id = _user_id
    join public.businesses b on b.id = m.business_id and b.suspended_at is null
   where s.id = _store_id and s.archived_at is null
     and (m.role = 'owner' or m.all_stores
          or exists (select 1 from public.member_store_access a
                      where a.business_id = s.business_id and a.user_id = m.user_id and a.store_id = s.id));
$$;
revoke all on function private.store_member_role(uuid,uuid) from public;

-- Writes a PIN's three hashes. bf cost 8 for the online check (the lockout limits guesses there); cost 10 for the
-- two the registers hold, which an attacker with a device can try offline (ADR 0300).
create or replace function private.write_pin(_business_id uuid, _user_id uuid, _pin text, _clear_lockout boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_problem text := private.pin_problem(_pin);
  v_proof_salt text := extensions.gen_salt('bf', 10);
begin
  if v_problem is not null then
    raise exception '%', v_problem using errcode = '22023';
  end if;
  insert into private.staff_pins (business_id, user_id, pin_hash, offline_hash, proof_salt, proof_digest)
  values (_business_id, _user_id, extensions.crypt(_pin, extensions.gen_salt('bf', 8)),
          extensions.crypt(_pin, extensions.gen_salt('bf', 10)), v_proof_salt,
          extensions.digest(extensions.crypt(_pin, v_proof_salt), 'sha256'))
  on conflict (business_id, user_id) do update
    set pin_hash = excluded.pin_hash, offline_hash = excluded.offline_hash, proof_salt = excluded.proof_salt,
        proof_digest = excluded.proof_digest, set_at = now(),
        failed_attempts = case when _clear_lockout then 0 else private.staff_pins.failed_attempts end,
        locked_until = case when _clear_lockout then null else private.staff_pins.locked_until end;
end;
$$;
revoke all on function private.write_pin(uuid,uuid,text,boolean) from public;

-- Checks a person's PIN with the lockout: 5 wrong tries lock it for 15 minutes (nothing is checked meanwhile), a
-- right one clears the count. Never raises, so the count is kept by the caller's transaction: callers return the
-- result instead of raising on a wrong PIN. _proof: an offline switch's proof instead of the PIN.
create or replace function private.check_pin(_business_id uuid, _user_id uuid, _pin text, _proof text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_max constant int := 5;
  c_lock constant interval := interval '15 minutes';
  v private.staff_pins;
  v_ok boolean;
begin
  select p.* into v from private.staff_pins p where p.business_id = _business_id and p.user_id = _user_id for update;
  if v.user_id is null then
    return jsonb_build_object('ok', false, 'reason', 'no_pin');
  elsif v.locked_until > now() then
    return jsonb_build_object('ok', false, 'reason', 'locked', 'locked_until', v.locked_until);
  end if;
  if _proof is not null then
    v_ok := extensions.digest(_proof, 'sha256') = v.proof_digest;
  else
    v_ok := _pin is not null and extensions.crypt(_pin, v.pin_hash) = v.pin_hash;
  end if;
  if v_ok then
    update private.staff_pins p set failed_attempts = 0, locked_until = null
     where p.business_id = _business_id and p.user_id = _user_id;
    return jsonb_build_object('ok', true);
  end if;
  if v.failed_attempts + 1 >= c_max then
    update private.staff_pins p set failed_attempts = 0, locked_until = now() + c_lock
     where p.business_id = _business_id and p.user_id = _user_id;
    perform private.log_activity(_business_id, null, 'pin.locked', 'member', _user_id, null,
      jsonb_build_object('minutes', extract(epoch from c_lock) / 60));
    return jsonb_build_object('ok', false, 'reason', 'locked', 'locked_until', now() + c_lock);
  end if;
  update private.staff_pins p set failed_attempts = v.failed_attempts + 1
   where p.business_id = _business_id and p.user_id = _user_id;
  return jsonb_build_object('ok', false, 'reason', 'wrong_pin', 'attempts_left', c_max - v.failed_attempts - 1);
end;
$$;
revoke all on function private.check_pin(uuid,uuid,text,text) from public;

-- A member sets their own PIN (signed in as themselves). The failure count and a lockout stay as they are: only a
-- manager's or owner's reset clears them.
create or replace function public.set_my_pin(_business_id uuid, _pin text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if private.my_role(_business_id) is null then
    raise exception 'permission denied: you are not a member of this business' using errcode = '42501';
  end if;
  perform private.write_pin(_business_id, (select auth.uid()), _pin, false);
  perform private.log_activity(_business_id, null, 'pin.set', 'member', (select auth.uid()), null,
    jsonb_build_object('by', 'self'));
end;
$$;
comment on function public.set_my_pin(uuid,text) is 'The caller sets their own till PIN in a business (4-6 digits, not trivial); audited, never logged in clear.';
revoke all on function public.set_my_pin(uuid,text) from public;
grant execute on function public.set_my_pin(uuid,text) to authenticated;

-- An owner sets or resets anyone's PIN in their business; a manager their cashiers' (and their own). A reset clears
-- the failure count and the lockout.
create or replace function public.set_staff_pin(_business_id uuid, _user_id uuid, _pin text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_role text := private.my_role(_business_id);
  v_target text;
begin
  if v_role is null or v_role not in ('owner', 'manager') then
    raise exception 'permission denied: an owner or manager sets staff PINs' using errcode = '42501';
  end if;
  select m.role::text into v_target from public.business_members m where m.business_id = _business_id and m.user_id = _user_id;
  if v_target is null then
    raise exception 'this person is not a member of this business' using errcode = '22023';
  elsif v_role = 'manager' and v_target <> 'cashier' and _user_id <> (select auth.uid()) then
    raise exception 'permission denied: a manager sets cashiers'' PINs; the owner sets a manager''s' using errcode = '42501';
  end if;
  perform private.write_pin(_business_id, _user_id, _pin, true);
  perform private.log_activity(_business_id, null, 'pin.reset', 'member', _user_id, null,
    jsonb_build_object('by', v_role));
end;
$$;
comment on function public.set_staff_pin(uuid,uuid,text) is 'An owner (anyone) or manager (cashiers, self) sets or resets a member''s till PIN and clears its lockout; audited.';
revoke all on function public.set_staff_pin(uuid,uuid,text) from public;
grant execute on function public.set_staff_pin(uuid,uuid,text) to authenticated;

-- The register's pictures: each unarchived variant of the business whose product has one, with the main picture's
-- previews (else the first in order), in variant id order so the caller can page with range(). Security invoker:
-- a member of the business reads them, nobody else.
create or replace function public.pos_catalog_images(_business_id uuid)
returns table (variant_id uuid, small_path text, medium_path text)
language sql
stable
security invoker
set search_path = ''
as $$
  select v.id, m.small_path, m.medium_path
    from (select distinct on (i.product_id) i.product_id, i.small_path, i.medium_path
            from public.product_images i
           where i.business_id = _business_id
           order by i.product_id, i.is_main desc, i.position, i.created_at) m
    join public.variants v on v.product_id = m.product_id and v.business_id = _business_id
   where v.archived_at is null
   order by v.id;
$$;
comment on function public.pos_catalog_images(uuid) is 'Each unarchived variant''s product picture previews (the main one, else the first) for the register''s offline copy. Members of the business (security invoker).';
revoke all on function public.pos_catalog_images(uuid) from public;
grant execute on function public.pos_catalog_images(uuid) to authenticated;
grant execute on function public.pos_catalog_images(uuid) to service_role;

-- Any member who may use the register's store reports for it (the cashier at the till); the count is what the
-- device holds, so it is a claim, shown as such ("as of" the report), never used for money.
create or replace function public.report_register_outbox(_register_id uuid, _waiting integer, _oldest_waiting_at timestamptz default null)
returns void
language plpgsql
security definer
set search_path = ''
set jit = off
set plan_cache_mode = force_custom_plan
as $$
declare
  v_register public.registers%rowtype;
begin
  if _waiting is null or _waiting < 0 or _waiting > 1000000 then
    raise exception 'waiting must be between 0 and 1000000' using errcode = '22023';
  end if;
  select r.* into v_register from public.registers r
   where r.id = _register_id
     and r.business_id in (select private.my_business_ids())
     and (r.business_id in (select private.my_full_access_business_ids()) or r.store_id in (select private.my_listed_store_ids()));
  if not found then
    raise exception 'no such register' using errcode = '42501';
  end if;
  insert into public.register_sync_states as s (register_id, business_id, store_id, waiting, oldest_waiting_at, reported_at)
  values (v_register.id, v_register.business_id, v_register.store_id, _waiting,
          case when _waiting > 0 then least(coalesce(_oldest_waiting_at, now()), now()) end, now())
  on conflict (register_id) do update
     set waiting = excluded.waiting, oldest_waiting_at = excluded.oldest_waiting_at, reported_at = excluded.reported_at,
         store_id = excluded.store_id;
end;
$$;
comment on function public.report_register_outbox(uuid,integer,timestamp with time zone) is 'A register reports how many entries its outbox holds (0..1000000) and since when; members who may use its store only (42501), otherwise 22023 for a bad count.';
revoke all on function public.report_register_outbox(uuid,integer,timestamp with time zone) from public;
grant execute on function public.report_register_outbox(uuid,integer,timestamp with time zone) to authenticated;

create or replace function public.till_pin_verifiers(_register_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_register public.registers;
  v_business uuid;
  v_out jsonb;
begin
  select r.* into v_register from public.registers r where r.id = _register_id and r.archived_at is null;
  if v_register.id is null then
    raise exception 'no such register' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_register.store_id, array['owner', 'manager', 'cashier']);
  select coalesce(jsonb_agg(jsonb_build_object(
           'user_id', p.user_id, 'full_name', coalesce(nullif(btrim(pr.full_name), ''), 'Staff member'),
           'role', private.store_member_role(v_register.store_id, p.user_id),
           'verifier', p.offline_hash, 'proof_salt', p.proof_salt) order by p.user_id), '[]')
    into v_out
    from private.staff_pins p
    left join public.profiles pr on pr.id = p.user_id
   where p.business_id = v_business and private.store_member_role(v_register.store_id, p.user_id) = 'cashier';
  perform private.log_activity(v_business, v_register.store_id, 'till.verifiers_issued', 'register', _register_id, null,
    jsonb_build_object('people', jsonb_array_length(v_out)));
  return jsonb_build_object('register_id', _register_id, 'issued_at', now(), 'staff', v_out);
end;
$$;
comment on function public.till_pin_verifiers(uuid) is 'The offline PIN verifiers of a register''s store cashiers (bcrypt, own salts), for switching without a network; never a manager''s or owner''s, whose PINs approve; audited.';
revoke all on function public.till_pin_verifiers(uuid) from public;
grant execute on function public.till_pin_verifiers(uuid) to authenticated;

-- A member's role changes from cashier to manager or owner: their PIN (whose offline verifier registers held) goes.
create or replace function private.staff_pin_forget_on_promotion()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.staff_pins p where p.business_id = new.business_id and p.user_id = new.user_id;
  return null;
end;
$$;
comment on function private.staff_pin_forget_on_promotion() is 'After a member''s role changes from cashier to another role: their till PIN is deleted, so one cracked from a register''s offline verifier never approves as a manager (ADR 0300).';
revoke all on function private.staff_pin_forget_on_promotion() from public;

create or replace function public.cash_in_out(_shift_id uuid, _kind text, _amount bigint, _reason text)
returns uuid
language sql
security definer
set search_path = ''
as $$
  select public.cash_in_out(gen_random_uuid(), _shift_id, _kind, _amount, _reason, null::timestamptz);
$$;
revoke all on function public.cash_in_out(uuid,text,bigint,text) from public;
grant execute on function public.cash_in_out(uuid,text,bigint,text) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Cash in and out (20261124140000_pos_offline_events): a cashier only in their own shift (close_shift's rule).
create or replace function public.cash_in_out(_id uuid, _shift_id uuid, _kind text, _amount bigint, _reason text,
                                              _at timestamptz, _till_switch jsonb default null,
                                              _offline boolean default false)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_shift public.shifts;
  v_done public.cash_movements;
  v_role text;
  v_at timestamptz;
  v_id uuid;
  v_register public.registers;
  v_till record;
begin
  if _id is null then
    raise exception 'a cash movement needs an id' using errcode = '22023';
  end if;
  select s.* into v_shift from public.shifts s where s.id = _shift_id;
  if v_shift.id is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  select a.o_role into v_role from private.pos_store_access(v_shift.store_id, array['owner', 'manager', 'cashier']) a;
  if v_role = 'cashier' and v_shift.cashier_id is distinct from (select auth.uid()) then
    raise exception 'permission denied: only the cashier who opened it or a manager moves cash in this shift'
      using errcode = '42501';
  end if;
  select m.* into v_done from public.cash_movements m where m.id = _id;
  if v_done.id is not null then
    if v_done.shift_id is distinct from _shift_id then
      raise exception 'permission denied for this cash movement id' using errcode = '42501';
    end if;
    return v_done.id;
  end if;
  if v_shift.closed_at is not null then
    raise exception 'this shift is closed' using errcode = '22023';
  elsif _kind is null or _kind not in ('in', 'out') then
    raise exception 'cash goes in or out' using errcode = '22023';
  elsif _amount is null or _amount <= 0 or _amount > 100000000000 then
    raise exception 'enter an amount above zero' using errcode = '22023';
  elsif char_length(btrim(coalesce(_reason, ''))) not between 1 and 200 then
    raise exception 'give a reason (1 to 200 characters)' using errcode = '22023';
  elsif _at is not null and not isfinite(_at) then
    raise exception 'the time is not a date and time' using errcode = '22023';
  end if;
  v_at := private.pos_event_time(coalesce(_at, now()), v_shift.opened_at);
  -- The person PIN-switched in at the till (ADR 0300) moves the cash: named on the row. Checked before the write so a
  -- refused switch (online, unknown or no longer valid) writes nothing; an offline proof that fails flags the row.
  select r.* into v_register from public.registers r where r.id = v_shift.register_id;
  select * into v_till
    from private.sale_till_cashier(_till_switch, v_shift.business_id, v_register, coalesce(_offline, false));
  insert into public.cash_movements (id, business_id, store_id, shift_id, kind, amount, reason, actor_id, at,
                                     till_switch_id, review_reasons)
  values (_id, v_shift.business_id, v_shift.store_id, v_shift.id, _kind, _amount, btrim(_reason), v_till.o_user_id, v_at,
          v_till.o_switch_id, v_till.o_reasons)
  on conflict (id) do nothing
  returning id into v_id;
  if v_id is null then
    select m.* into v_done from public.cash_movements m where m.id = _id;
    if v_done.shift_id is distinct from _shift_id then
      raise exception 'permission denied for this cash movement id' using errcode = '42501';
    end if;
    return v_done.id;
  end if;
  perform private.log_activity(v_shift.business_id, v_shift.store_id, 'cash.' || _kind, 'shift', v_shift.id, null,
    jsonb_build_object('amount', _amount, 'reason', btrim(_reason), 'movement_id', _id, 'at', v_at)
    || case when _at is distinct from v_at then jsonb_build_object('register_at', _at) else '{}'::jsonb end
    || case when _till_switch is null or jsonb_typeof(_till_switch) = 'null' then '{}'::jsonb
            else jsonb_build_object('cashier_id', v_till.o_user_id, 'till_switch_id', v_till.o_switch_id,
                                    'review_reasons', to_jsonb(v_till.o_reasons)) end);
  return v_id;
end;
$$;
comment on function public.cash_in_out(uuid,uuid,text,bigint,text,timestamp with time zone,jsonb,boolean) is 'Cash in or out of an open shift with the register''s id and time for it; idempotent by that id (ADR 0155). The register''s till_switch names the person switched in by PIN (ADR 0300, 0350); _offline: the entry was made offline, so a switch that cannot be verified flags it rather than refusing it.';
revoke all on function public.cash_in_out(uuid,uuid,text,bigint,text,timestamp with time zone,jsonb,boolean) from public;
grant execute on function public.cash_in_out(uuid,uuid,text,bigint,text,timestamp with time zone,jsonb,boolean) to authenticated;

-- True when a PIN of this person must not act: the business requires two-factor of managers, the person is a manager
-- there and has no verified authenticator (the PIN is typed into someone else's session, so the session's aal says
-- nothing about them; having set up the factor is what the owner asked of managers).
create or replace function private.pin_lacks_two_factor(_business_id uuid, _user_id uuid, _role text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(_role = 'manager', false)
     and exists (select 1 from public.businesses b where b.id = _business_id and b.managers_need_two_factor)
     and not private.has_verified_factor(_user_id)
$$;
comment on function private.pin_lacks_two_factor(uuid,uuid,text) is 'Whether a till PIN of this person is refused because the business requires two-factor of managers and this manager has no verified factor (ADR 0350).';
revoke all on function private.pin_lacks_two_factor(uuid,uuid,text) from public;

create or replace function public.switch_till(_register_id uuid, _user_id uuid, _pin text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_register public.registers;
  v_business uuid;
  v_role text;
  v_check jsonb;
  v_id uuid := gen_random_uuid();
begin
  select r.* into v_register from public.registers r where r.id = _register_id and r.archived_at is null;
  if v_register.id is null then
    raise exception 'no such register' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_register.store_id, array['owner', 'manager', 'cashier']);
  v_role := private.store_member_role(v_register.store_id, _user_id);
  if v_role is null then
    raise exception 'permission denied: this person does not work at this store' using errcode = '42501';
  elsif _pin is null or _pin !~ '^[0-9]{4,6}$' then
    raise exception 'a PIN is 4 to 6 digits' using errcode = '22023';
  elsif private.pin_lacks_two_factor(v_business, _user_id, v_role) then
    -- A manager switched in sells and refunds with a manager's powers: the business's two-factor rule holds (ADR 0350).
    raise exception 'permission denied: this business requires two-factor sign-in for managers and this manager has not set it up: they set up two-factor sign-in in their profile before their PIN approves or switches the till' using errcode = '42501';
  end if;
  v_check := private.check_pin(v_business, _user_id, _pin);
  if not (v_check ->> 'ok')::boolean then
    return v_check;
  end if;
  insert into public.till_switches (id, business_id, store_id, register_id, user_id, signed_in_user_id, method, verified)
  values (v_id, v_business, v_register.store_id, _register_id, _user_id, (select auth.uid()), 'online', true);
  perform private.log_activity(v_business, v_register.store_id, 'till.switched', 'till_switch', v_id, null,
    jsonb_build_object('user_id', _user_id, 'register_id', _register_id, 'method', 'online'));
  return jsonb_build_object('ok', true, 'switch_id', v_id, 'user_id', _user_id, 'role', v_role,
    'full_name', (select coalesce(nullif(btrim(p.full_name), ''), 'Staff member') from public.profiles p where p.id = _user_id));
end;
$$;
comment on function public.switch_till(uuid,uuid,text) is 'Switches a register to a staff member of its store by their PIN (lockout after 5 wrong tries); audited.';
revoke all on function public.switch_till(uuid,uuid,text) from public;
grant execute on function public.switch_till(uuid,uuid,text) to authenticated;

create or replace function private.sale_till_cashier(_switch jsonb, _business_id uuid, _register public.registers,
                                                     _offline boolean, out o_user_id uuid, out o_role text,
                                                     out o_switch_id uuid, out o_reasons text[])
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uuid constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  v_row public.till_switches;
  v_claimed uuid;
  v_role text;
  v_ok boolean := false;
  v_at timestamptz;
  v_proofed boolean := false;
begin
  o_user_id := (select auth.uid());
  o_reasons := '{}';
  if _switch is null or jsonb_typeof(_switch) = 'null' then
    return;
  end if;
  if jsonb_typeof(_switch) <> 'object' or coalesce(_switch ->> 'id', '') !~* v_uuid
     or coalesce(_switch ->> 'user_id', '') !~* v_uuid then
    raise exception 'till_switch needs its id and the person''s user_id' using errcode = '22023';
  end if;
  v_claimed := (_switch ->> 'user_id')::uuid;
  select t.* into v_row from public.till_switches t where t.id = (_switch ->> 'id')::uuid;
  if v_row.id is not null then
    if v_row.business_id <> _business_id or v_row.store_id <> _register.store_id
       or v_row.signed_in_user_id is distinct from (select auth.uid()) or v_row.user_id is distinct from v_claimed then
      raise exception 'permission denied: this till switch belongs to another register session' using errcode = '42501';
    end if;
    v_role := private.store_member_role(_register.store_id, v_claimed);
    -- A switch made before the business required two-factor of managers no longer carries a manager without it.
    v_ok := v_row.verified and v_role is not null and not private.pin_lacks_two_factor(_business_id, v_claimed, v_role);
  elsif jsonb_typeof(_switch -> 'proof') = 'string' and length(_switch ->> 'proof') <= 100 then
    v_proofed := true;
    v_role := private.store_member_role(_register.store_id, v_claimed);
    if v_role is not null then
      -- Checked (a wrong proof counts toward the lockout) but verified for a cashier only: registers hold cashiers'
      -- verifiers only, so a proof for a manager or owner was never made by a register from its verifier set.
      v_ok := (private.check_pin(_business_id, v_claimed, null, _switch ->> 'proof') ->> 'ok')::boolean
              and v_role = 'cashier';
    end if;
    begin
      v_at := least((_switch ->> 'at')::timestamptz, now());
    exception when others then
      v_at := now();
    end;
    insert into public.till_switches (id, business_id, store_id, register_id, user_id, signed_in_user_id, method,
                                      verified, switched_at)
    values ((_switch ->> 'id')::uuid, _business_id, _register.store_id, _register.id,
            case when v_role is null then null else v_claimed end, (select auth.uid()), 'offline', v_ok,
            coalesce(v_at, now()))
    on conflict (id) do nothing;
    if not found then
      -- A concurrent copy of the same switch was recorded first: its verdict.
      select t.* into v_row from public.till_switches t where t.id = (_switch ->> 'id')::uuid;
      if v_row.business_id <> _business_id or v_row.signed_in_user_id is distinct from (select auth.uid()) then
        raise exception 'permission denied: this till switch belongs to another register session' using errcode = '42501';
      end if;
      v_ok := v_row.verified and v_row.user_id = v_claimed;
    end if;
    perform private.log_activity(_business_id, _register.store_id, 'till.switched', 'till_switch',
      (_switch ->> 'id')::uuid, null,
      jsonb_build_object('user_id', v_claimed, 'register_id', _register.id, 'method', 'offline', 'verified', v_ok));
  elsif not _offline then
    raise exception 'permission denied: this till switch is unknown: switch to the person again' using errcode = '42501';
  end if;
  o_switch_id := (_switch ->> 'id')::uuid;
  if v_ok then
    o_user_id := v_claimed;
    o_role := v_role;
  elsif not _offline and not v_proofed then
    raise exception 'permission denied: this till switch is no longer valid: switch to the person again' using errcode = '42501';
  else
    o_reasons := array['till_switch_unverified'];
    if not exists (select 1 from public.till_switches t where t.id = o_switch_id) then
      o_switch_id := null;
    end if;
  end if;
end;
$$;
revoke all on function private.sale_till_cashier(jsonb,uuid,public.registers,boolean) from public;

-- The lots of a sale's priced lines (private.sale_lines_priced kept a lot the register named when it is the
-- item's; other lots it chose are replaced here): each lot-tracked line gets `lots` [{lot_id, lot_number,
-- expires_on, qty, expired}] and its lot_id is the first of them. Expiry is judged on the sale's day in the
-- store's time zone. A recalled lot is refused (offline: kept, recalled_lot:<line>); an expired one is refused
-- to a cashier without a manager's 'expired_lot' approval (offline: kept, expired_lot:<line>). o_expired lists
-- the expired lots sold, for the trail.
create or replace function private.sale_lines_lots(
  _lines jsonb, _input jsonb, _business_id uuid, _store public.stores, _occurred_at timestamptz, _offline boolean,
  _role text, _approval_id uuid, _sale_id uuid,
  out o_lines jsonb, out o_reasons text[], out o_approval_id uuid, out o_expired jsonb)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_on date := (coalesce(_occurred_at, now()) at time zone _store.time_zone)::date;
  v_line jsonb;
  v_n int;
  v_lot public.lots;
  v_picks jsonb;
  v_bad jsonb;
  v_approval public.pos_approvals;
  v_out jsonb[] := '{}';
begin
  o_reasons := '{}';
  o_expired := '[]';
  for v_line in select value from jsonb_array_elements(_lines) order by (value ->> 'line_no')::int loop
    if coalesce(v_line ->> 'lot_id', '') = '' then
      v_out := v_out || v_line;
      continue;
    end if;
    v_n := (v_line ->> 'line_no')::int;
    if lower(coalesce(_input -> (v_n - 1) ->> 'lot_id', '')) = lower(v_line ->> 'lot_id') then
      -- The register named the lot (a DataMatrix scan): that lot, whatever its state.
      select l.* into v_lot from public.lots l where l.id = (v_line ->> 'lot_id')::uuid for share;
      v_picks := jsonb_build_array(jsonb_build_object('lot_id', v_lot.id, 'lot_number', v_lot.lot_number,
        'expires_on', v_lot.expires_on, 'qty', v_line -> 'qty', 'expired', coalesce(v_lot.expires_on < v_on, false),
        'quarantined', v_lot.quarantined_at is not null));
    else
      select jsonb_agg(jsonb_build_object('lot_id', f.lot_id, 'lot_number', f.lot_number, 'expires_on', f.expires_on,
                                          'qty', f.qty, 'expired', f.expired, 'quarantined', f.quarantined) order by f.ord)
        into v_picks
        from private.fefo_pick(_store.id, (v_line ->> 'variant_id')::uuid, (v_line ->> 'qty')::numeric, v_on) f;
    end if;
    select p into v_bad from jsonb_array_elements(v_picks) p where (p ->> 'quarantined')::boolean limit 1;
    if v_bad is not null then
      if not _offline then
        raise exception 'line %: lot % is recalled and cannot be sold', v_n, v_bad ->> 'lot_number' using errcode = '22023';
      end if;
      o_reasons := array_append(o_reasons, ('recalled_lot:' || v_n)::text);
    end if;
    v_bad := null;
    select p into v_bad from jsonb_array_elements(v_picks) p where (p ->> 'expired')::boolean limit 1;
    if v_bad is not null then
      if coalesce(_role, '') not in ('owner', 'manager') then
        if v_approval.id is null and _approval_id is not null then
          v_approval := private.take_approval(_approval_id, _business_id, _store.id, 'expired_lot', _sale_id);
        end if;
        if v_approval.id is null then
          if not _offline then
            raise exception 'line %: lot % expired on %: ask a manager to approve selling it', v_n,
              v_bad ->> 'lot_number', v_bad ->> 'expires_on' using errcode = '42501';
          end if;
          o_reasons := array_append(o_reasons, ('expired_lot:' || v_n)::text);
        end if;
      end if;
      o_expired := o_expired || (select jsonb_agg(p || jsonb_build_object('line_no', v_n))
                                   from jsonb_array_elements(v_picks) p where (p ->> 'expired')::boolean);
    end if;
    v_out := v_out || (v_line || jsonb_build_object('lot_id', v_picks -> 0 -> 'lot_id', 'lots', v_picks));
  end loop;
  o_lines := to_jsonb(v_out);
  o_approval_id := v_approval.id;
end;
$$;
comment on function private.sale_lines_lots(jsonb,jsonb,uuid,public.stores,timestamp with time zone,boolean,text,uuid,uuid) is 'The lots each lot-tracked line of a sale takes (FEFO unless the register named one), with the expired and recalled lot rules (ADR 0360).';
revoke all on function private.sale_lines_lots(jsonb,jsonb,uuid,public.stores,timestamp with time zone,boolean,text,uuid,uuid) from public;

-- The sale_line_lots rows of a sale's lines (after private.insert_sale_rows).
create or replace function private.insert_sale_line_lots(_business_id uuid, _lines jsonb)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.sale_line_lots (sale_line_id, lot_id, business_id, qty, expired)
  select l.id, p.lot_id, _business_id, p.qty, coalesce(p.expired, false)
    from jsonb_to_recordset(_lines) as l (id uuid, lots jsonb)
    cross join lateral jsonb_to_recordset(l.lots) as p (lot_id uuid, qty numeric, expired boolean)
   where jsonb_typeof(l.lots) = 'array'
   order by l.id, p.lot_id;
$$;
revoke all on function private.insert_sale_line_lots(uuid,jsonb) from public;

-- sale_json as before, each line with the lots it took.
create or replace function private.sale_json(_sale_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select to_jsonb(s) || jsonb_build_object(
           'lines', coalesce((select jsonb_agg(to_jsonb(l) || jsonb_build_object('lots', (
                                select jsonb_agg(jsonb_build_object('lot_id', ll.lot_id, 'lot_number', lo.lot_number,
                                         'expires_on', lo.expires_on, 'qty', ll.qty, 'expired', ll.expired)
                                       order by lo.expires_on nulls last, lo.lot_number)
                                  from public.sale_line_lots ll join public.lots lo on lo.id = ll.lot_id
                                 where ll.sale_line_id = l.id)) order by l.line_no)
                                from public.sale_lines l where l.sale_id = s.id), '[]'),
           'tenders', coalesce((select jsonb_agg(to_jsonb(t) order by t.kind, t.id) from public.sale_tenders t where t.sale_id = s.id), '[]'))
    from public.sales s where s.id = _sale_id;
$$;
comment on function private.sale_json(uuid) is 'The sale as the register shows it (no cost); each line with the lots it took (ADR 0360).';
revoke all on function private.sale_json(uuid) from public;

-- approve_discount as in 20261202120000_till_pins, also approving the sale of an expired lot (no percent).
create or replace function public.approve_discount(_store_id uuid, _max_discount_percent numeric default 100,
                                                   _purpose text default 'discount')
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager']);
  v_limit numeric := private.discount_limit_percent(private.my_role(v_business));
  v_id uuid;
begin
  if _purpose is null or _purpose not in ('discount', 'refund', 'expired_lot') then
    raise exception 'approve a discount, a refund or the sale of an expired lot' using errcode = '22023';
  elsif _purpose <> 'expired_lot' and
        (_max_discount_percent is null or _max_discount_percent < 0 or _max_discount_percent > v_limit) then
    raise exception 'you may approve discounts up to % percent', v_limit using errcode = '22023';
  end if;
  insert into public.pos_approvals (business_id, store_id, purpose, max_discount_percent, approved_by)
  values (v_business, _store_id, _purpose, case when _purpose <> 'expired_lot' then _max_discount_percent end,
          (select auth.uid()))
  returning id into v_id;
  perform private.log_activity(v_business, _store_id, 'approval.granted', 'approval', v_id, null,
    jsonb_build_object('purpose', _purpose,
                       'max_discount_percent', case when _purpose <> 'expired_lot' then _max_discount_percent end));
  return v_id;
end;
$$;
comment on function public.approve_discount(uuid,numeric,text) is 'An owner or manager signed in at the register approves one discount (up to a percent), refund or sale of an expired lot; audited.';
revoke all on function public.approve_discount(uuid,numeric,text) from public;
grant execute on function public.approve_discount(uuid,numeric,text) to authenticated;

-- sale_stock_movements as in 20261124100000_pos_speed (actor fields of log_activity), moving each lot of a
-- line split over lots.
create or replace function private.sale_stock_movements(_business_id uuid, _store_id uuid, _sale_id uuid,
                                                        _receipt text, _occurred_at timestamptz, _lines jsonb)
returns text[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_email text := (select u.email::text from auth.users u where u.id = v_uid);
  v_name text := (select p.full_name from public.profiles p where p.id = v_uid);
  v_negative text[];
begin
  with mv as materialized (
    -- A line split over lots (ADR 0360) moves each of its lots.
    select l.variant_id, coalesce(p.lot_id, l.lot_id) as lot_id, sum(coalesce(p.qty, l.qty)) as qty, max(l.cost) as cost
      from jsonb_to_recordset(_lines) as l (variant_id uuid, lot_id uuid, qty numeric, cost bigint, track_stock boolean,
                                           lots jsonb)
      left join lateral jsonb_to_recordset(case when jsonb_typeof(l.lots) = 'array' then l.lots end)
                  as p (lot_id uuid, qty numeric) on true
     where l.track_stock
     group by 1, 2
  ), moved as (
    insert into public.stock_movements (business_id, store_id, variant_id, lot_id, kind, qty, reason, unit_cost,
                                        occurred_at, actor_id, reference_type, reference_id, note)
    select _business_id, _store_id, mv.variant_id, mv.lot_id, 'sale', -mv.qty, null, mv.cost,
           coalesce(_occurred_at, now()), v_uid, 'sale', _sale_id, _receipt
      from mv order by mv.variant_id, mv.lot_id
    returning id, variant_id, lot_id
  ), balanced as (
    insert into public.stock_balances as b (business_id, store_id, variant_id, lot_id, qty)
    select _business_id, _store_id, mv.variant_id, mv.lot_id, -mv.qty
      from mv order by mv.variant_id, mv.lot_id
    on conflict (store_id, variant_id, lot_id) do update set qty = b.qty + excluded.qty, updated_at = now()
    returning b.variant_id, b.lot_id, b.qty
  ), logged as (
    insert into public.activity (business_id, store_id, actor_id, actor_email, actor_label, kind, entity_type,
                                 entity_id, before, after)
    select _business_id, _store_id, v_uid, v_email, v_name,
           'stock.sale', 'variant', m.variant_id, null,
           jsonb_build_object('movement_id', m.id, 'qty', -mv.qty, 'balance', b.qty, 'lot_id', m.lot_id, 'reason', null,
                              'reference_type', 'sale', 'reference_id', _sale_id)
      from moved m
      join mv on mv.variant_id = m.variant_id and mv.lot_id is not distinct from m.lot_id
      join balanced b on b.variant_id = m.variant_id and b.lot_id is not distinct from m.lot_id
     order by m.variant_id, m.lot_id
    returning 1
  )
  select array_agg(('negative_stock:' || b.variant_id)::text order by b.variant_id, b.lot_id)
    into v_negative
    from balanced b where b.qty < 0;
  return coalesce(v_negative, '{}');
end;
$$;
comment on function private.sale_stock_movements(uuid,uuid,uuid,text,timestamp with time zone,jsonb) is 'A sale''s ledger rows, balance deltas and stock.sale trail entries in one statement; negative balances returned.';
revoke all on function private.sale_stock_movements(uuid,uuid,uuid,text,timestamp with time zone,jsonb) from public;

create or replace function public.approve_with_pin(_store_id uuid, _user_id uuid, _pin text,
                                                   _max_discount_percent numeric default 100, _purpose text default 'discount')
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
  v_role text := private.store_member_role(_store_id, _user_id);
  v_limit numeric := private.discount_limit_percent(v_role);
  v_check jsonb;
  v_id uuid;
begin
  if v_role is null or v_role not in ('owner', 'manager') then
    raise exception 'permission denied: only an owner or manager of this store approves' using errcode = '42501';
  elsif _purpose is null or _purpose not in ('discount', 'refund', 'expired_lot') then
    raise exception 'approve a discount, a refund or the sale of an expired lot' using errcode = '22023';
  elsif _purpose <> 'expired_lot' and
        (_max_discount_percent is null or _max_discount_percent < 0 or _max_discount_percent > v_limit) then
    raise exception 'this manager may approve discounts up to % percent', v_limit using errcode = '22023';
  elsif _pin is null or _pin !~ '^[0-9]{4,6}$' then
    raise exception 'a PIN is 4 to 6 digits' using errcode = '22023';
  end if;
  -- The business's two-factor rule for managers holds at the till too (ADR 0350): refused before the PIN is checked.
  if private.pin_lacks_two_factor(v_business, _user_id, v_role) then
    raise exception 'permission denied: this business requires two-factor sign-in for managers and this manager has not set it up: they set up two-factor sign-in in their profile before their PIN approves or switches the till' using errcode = '42501';
  end if;
  v_check := private.check_pin(v_business, _user_id, _pin);
  if not (v_check ->> 'ok')::boolean then
    return v_check;
  end if;
  insert into public.pos_approvals (business_id, store_id, purpose, max_discount_percent, approved_by)
  values (v_business, _store_id, _purpose, case when _purpose <> 'expired_lot' then _max_discount_percent end, _user_id)
  returning id into v_id;
  perform private.log_activity(v_business, _store_id, 'approval.granted', 'approval', v_id, null,
    jsonb_build_object('purpose', _purpose,
                       'max_discount_percent', case when _purpose <> 'expired_lot' then _max_discount_percent end,
                       'approved_by', _user_id,
                       'method', 'pin'));
  return jsonb_build_object('ok', true, 'approval_id', v_id);
end;
$$;
comment on function public.approve_with_pin(uuid,uuid,text,numeric,text) is 'A manager or owner of the store approves one discount, refund or sale of an expired lot with their till PIN (lockout after 5 wrong tries); audited.';
revoke all on function public.approve_with_pin(uuid,uuid,text,numeric,text) from public;
grant execute on function public.approve_with_pin(uuid,uuid,text,numeric,text) to authenticated;

-- What is wrong with a prescription as the register sends it (null: nothing). The date written is not after the
-- sale's day; refills remaining are at most those authorised.
create or replace function private.prescription_problem(_p jsonb, _day date)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_written date;
begin
  if jsonb_typeof(_p) is distinct from 'object' then
    return 'record the prescription: prescriber, prescription number, date written and refills';
  elsif char_length(btrim(coalesce(_p ->> 'prescriber', ''))) not between 2 and 120 then
    return 'enter the prescriber (2 to 120 characters)';
  elsif char_length(btrim(coalesce(_p ->> 'number', ''))) not between 1 and 40 then
    return 'enter the prescription number (1 to 40 characters)';
  elsif coalesce(_p ->> 'written_on', '') !~ '^\d{4}-\d{2}-\d{2}$' then
    return 'enter the date the prescription was written (YYYY-MM-DD)';
  end if;
  begin
    v_written := (_p ->> 'written_on')::date;
  exception when others then
    return 'enter the date the prescription was written (YYYY-MM-DD)';
  end;
  if v_written > _day then
    return 'enter a date written on or before the day of the sale';
  elsif coalesce(_p ->> 'refills_authorised', '') !~ '^\d{1,2}$' or coalesce(_p ->> 'refills_remaining', '') !~ '^\d{1,2}$' then
    return 'enter the refills authorised and remaining (whole numbers, 0 to 99)';
  elsif (_p ->> 'refills_remaining')::int > (_p ->> 'refills_authorised')::int then
    return 'enter refills remaining no more than the refills authorised';
  end if;
  return null;
end;
$$;
revoke all on function private.prescription_problem(jsonb,date) from public;

-- The prescriptions of a posted sale: every prescription-only line needs one (online refused with 22023; offline
-- the sale is kept and flagged prescription_missing:<line>); a prescription sent on any line is checked and kept.
-- _lines are the priced lines (id, line_no, variant_id); _sent the register's lines, whose n-th is line_no n.
create or replace function private.record_sale_prescriptions(_business_id uuid, _store_id uuid, _sale_id uuid,
                                                             _lines jsonb, _sent jsonb, _offline boolean)
returns text[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  l record;
  v_day date;
  v_problem text;
  v_reasons text[] := '{}';
begin
  select (s.occurred_at at time zone st.time_zone)::date into v_day
    from public.sales s join public.stores st on st.id = s.store_id where s.id = _sale_id;
  for l in select x.id, x.line_no, x.description, p.prescription_only, _sent -> (x.line_no - 1) -> 'prescription' as rx
             from jsonb_to_recordset(_lines) as x (id uuid, line_no int, variant_id uuid, description text)
             join public.variants v on v.id = x.variant_id
             join public.products p on p.id = v.product_id
            where p.prescription_only or jsonb_typeof(_sent -> (x.line_no - 1) -> 'prescription') = 'object'
            order by x.line_no loop
    v_problem := private.prescription_problem(l.rx, v_day);
    if v_problem is not null then
      if not _offline then
        raise exception 'line % (%): % (a prescription-only item is sold with its prescription)', l.line_no, btrim(l.description), v_problem
          using errcode = '22023';
      end if;
      v_reasons := array_append(v_reasons, ('prescription_missing:' || l.line_no)::text);
      continue;
    end if;
    insert into public.sale_line_prescriptions (sale_line_id, business_id, store_id, sale_id, prescriber,
                                                prescription_number, written_on, refills_authorised, refills_remaining)
    values (l.id, _business_id, _store_id, _sale_id, btrim(l.rx ->> 'prescriber'), btrim(l.rx ->> 'number'),
            (l.rx ->> 'written_on')::date, (l.rx ->> 'refills_authorised')::int, (l.rx ->> 'refills_remaining')::int);
  end loop;
  return v_reasons;
end;
$$;
revoke all on function private.record_sale_prescriptions(uuid,uuid,uuid,jsonb,jsonb,boolean) from public;

-- What foreign cash is worth in the store currency: foreign minor units x rate, scaled between the two currencies'
-- minor digits (JPY 0, USD 2, KWD 3), rounded down (a fraction of the smallest unit is never paid out).
create or replace function private.foreign_cash_value(_foreign bigint, _rate numeric, _currency text, _base text)
returns bigint
language sql
immutable
set search_path = ''
as $$
  select floor(_foreign::numeric * _rate
               * (10::numeric ^ (private.currency_digits(_base) - private.currency_digits(_currency))))::bigint;
$$;
revoke all on function private.foreign_cash_value(bigint,numeric,text,text) from public;

-- The change for foreign cash worth _value paying _amount: the excess, rounded down to the store's cash step.
create or replace function private.foreign_cash_change(_value bigint, _amount bigint, _step bigint)
returns bigint
language sql
immutable
set search_path = ''
as $$
  select case when _value <= _amount then 0
              when coalesce(_step, 0) <= 1 then _value - _amount
              else (_value - _amount) - (_value - _amount) % _step end;
$$;
revoke all on function private.foreign_cash_change(bigint,bigint,bigint) from public;

-- A sale's foreign tenders against the rates they name. Online a problem is refused (22023: HTTP 400); offline the
-- sale is kept with foreign_cash_mismatch and a rate id that is not this business's is dropped (the FK holds).
create or replace function private.sale_foreign_cash_checked(_tenders jsonb, _business_id uuid, _store public.stores,
                                                             _occurred timestamptz, _offline boolean,
                                                             out o_tenders jsonb, out o_reasons text[])
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_tender jsonb;
  v_rate public.exchange_rates;
  v_problem text;
  v_value bigint;
  v_change bigint;
begin
  o_tenders := '[]';
  o_reasons := '{}';
  for v_tender in select value from jsonb_array_elements(_tenders) loop
    if v_tender ->> 'currency' is null then
      o_tenders := o_tenders || jsonb_build_array(v_tender);
      continue;
    end if;
    v_problem := null;
    select r.* into v_rate from public.exchange_rates r
     where r.id = (v_tender ->> 'rate_id')::uuid and r.business_id = _business_id;
    if v_tender ->> 'currency' = _store.currency then
      v_problem := format('%s is this store''s own currency: take it as plain cash', _store.currency);
    elsif v_rate.id is null or v_rate.currency <> v_tender ->> 'currency' or v_rate.base_currency <> _store.currency then
      v_problem := format('no such %s to %s exchange rate in this business', v_tender ->> 'currency', _store.currency);
    elsif v_rate.effective_from > _occurred then
      v_problem := format('the %s rate named was not in effect when the sale was made', v_rate.currency);
    elsif v_rate.rate <> (v_tender ->> 'rate')::numeric then
      v_problem := format('the rate sent (%s) is not the rate it names (%s)', v_tender ->> 'rate', v_rate.rate);
    else
      v_value := private.foreign_cash_value((v_tender ->> 'foreign_tendered')::bigint, v_rate.rate, v_rate.currency,
                                            _store.currency);
      v_change := private.foreign_cash_change(v_value, (v_tender ->> 'amount')::bigint, _store.cash_rounding_step);
      if (v_tender ->> 'amount')::bigint > v_value then
        v_problem := format('%s %s in minor units is worth %s, less than the %s it pays', v_tender ->> 'foreign_tendered',
                            v_rate.currency, v_value, v_tender ->> 'amount');
      elsif (v_tender ->> 'tendered')::bigint <> (v_tender ->> 'amount')::bigint + v_change then
        v_problem := format('at %s the %s handed over gives %s change, not %s', v_rate.rate, v_rate.currency, v_change,
                            (v_tender ->> 'tendered')::bigint - (v_tender ->> 'amount')::bigint);
      end if;
    end if;
    if v_problem is not null then
      if not _offline then
        raise exception '%', v_problem using errcode = '22023', hint = 'foreign_cash';
      end if;
      if not 'foreign_cash_mismatch' = any (o_reasons) then
        o_reasons := array_append(o_reasons, 'foreign_cash_mismatch'::text);
      end if;
      if v_rate.id is null then
        v_tender := jsonb_set(v_tender, '{rate_id}', 'null'::jsonb);
      end if;
    end if;
    o_tenders := o_tenders || jsonb_build_array(v_tender);
  end loop;
end;
$$;
revoke all on function private.sale_foreign_cash_checked(jsonb,uuid,public.stores,timestamp with time zone,boolean) from public;

-- The counts of foreign cash at a close: {"EUR": 12000} in each currency's minor units, never the store's own.
create or replace function private.foreign_counts_checked(_foreign jsonb, _store_id uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_currency text := (select s.currency from public.stores s where s.id = _store_id);
  r record;
begin
  if _foreign is null or jsonb_typeof(_foreign) = 'null' then
    return;
  elsif jsonb_typeof(_foreign) <> 'object' then
    raise exception 'count foreign cash as an object of currency codes and amounts' using errcode = '22023';
  end if;
  for r in select key, value from jsonb_each(_foreign) loop
    if r.key !~ '^[A-Z]{3}$' or r.key = v_currency then
      raise exception 'a foreign count is by ISO 4217 code, other than the store''s %', v_currency using errcode = '22023';
    elsif jsonb_typeof(r.value) <> 'number' or (r.value #>> '{}') !~ '^[0-9]{1,12}$' then
      raise exception 'a foreign count is a whole amount in that currency''s minor units' using errcode = '22023';
    end if;
  end loop;
end;
$$;
revoke all on function private.foreign_counts_checked(jsonb,uuid) from public;

-- A new rate for a currency pair (owners and managers). It takes effect now or later, never in the past: a past
-- sale cannot be made to match a rate set after it. Returns the row.
create or replace function public.set_exchange_rate(_business_id uuid, _currency text, _base_currency text, _rate numeric,
                                                    _effective_from timestamptz default null)
returns public.exchange_rates
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.exchange_rates;
  v_from timestamptz := greatest(coalesce(_effective_from, now()), now());
begin
  perform private.assert_writable();
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if _currency is null or _base_currency is null or upper(_currency) !~ '^[A-Z]{3}$' or upper(_base_currency) !~ '^[A-Z]{3}$' then
    raise exception 'name the currencies by their ISO 4217 codes' using errcode = '22023';
  elsif upper(_currency) = upper(_base_currency) then
    raise exception 'choose a currency other than the store currency it converts to' using errcode = '22023';
  elsif not exists (select 1 from public.stores s where s.business_id = _business_id and s.archived_at is null
                       and s.currency = upper(_base_currency)) then
    raise exception 'choose the currency of one of your stores: none sells in %', upper(_base_currency) using errcode = '22023';
  elsif _rate is null or _rate <= 0 or _rate >= 1000000000 or _rate <> round(_rate, 10) then
    raise exception 'enter a rate above 0 and below 1000000000, with at most 10 decimals' using errcode = '22023';
  elsif not isfinite(v_from) or v_from > now() + interval '1 year' then
    raise exception 'choose a start within a year from now' using errcode = '22023';
  end if;
  begin
    insert into public.exchange_rates (business_id, currency, base_currency, rate, effective_from)
    values (_business_id, upper(_currency), upper(_base_currency), _rate, v_from)
    returning * into v_row;
  exception when check_violation then
    raise exception 'choose a currency by its ISO 4217 code: % is not one', upper(_currency) using errcode = '22023';
  end;
  return v_row;
end;
$$;
comment on function public.set_exchange_rate(uuid,text,text,numeric,timestamp with time zone) is 'Owners and managers: a new exchange rate (a new row, the old kept; in the trail), from now or a later moment.';
revoke all on function public.set_exchange_rate(uuid,text,text,numeric,timestamp with time zone) from public;
grant execute on function public.set_exchange_rate(uuid,text,text,numeric,timestamp with time zone) to authenticated;

-- The tenders of a sale, checked (cash, card or other; whole minor units; change from cash only), with their sums; a
-- foreign tender's shape.
create or replace function private.sale_tenders_checked(
  _tenders jsonb, out o_tenders jsonb, out o_paid bigint, out o_tendered bigint, out o_change bigint)
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_tender jsonb;
  v_kind text;
  v_amount bigint;
  v_tendered bigint;
  v_foreign jsonb;
begin
  o_tenders := '[]';
  o_paid := 0;
  o_tendered := 0;
  o_change := 0;
  if jsonb_typeof(_tenders) is distinct from 'array' or jsonb_array_length(_tenders) = 0 then
    raise exception 'add how the sale was paid' using errcode = '22023';
  elsif jsonb_array_length(_tenders) > 10 then
    raise exception 'a sale has at most 10 tenders' using errcode = '22023';
  end if;
  for v_tender in select value from jsonb_array_elements(_tenders) loop
    v_kind := v_tender ->> 'kind';
    if v_kind is null or v_kind not in ('cash', 'card', 'other') then
      raise exception 'a tender is cash, card or other' using errcode = '22023';
    end if;
    if jsonb_typeof(v_tender -> 'amount') is distinct from 'number' or (v_tender ->> 'amount') !~ '^[0-9]{1,12}$' then
      raise exception 'a tender amount is a whole amount in minor units' using errcode = '22023';
    end if;
    v_amount := (v_tender ->> 'amount')::bigint;
    v_tendered := v_amount;
    if v_tender ? 'tendered' and jsonb_typeof(v_tender -> 'tendered') <> 'null' then
      if jsonb_typeof(v_tender -> 'tendered') <> 'number' or (v_tender ->> 'tendered') !~ '^[0-9]{1,12}$' then
        raise exception 'the amount tendered is a whole amount in minor units' using errcode = '22023';
      end if;
      v_tendered := (v_tender ->> 'tendered')::bigint;
    end if;
    if v_tendered < v_amount then
      raise exception 'the amount tendered is less than the amount paid' using errcode = '22023';
    elsif v_kind <> 'cash' and v_tendered <> v_amount then
      raise exception 'only cash gives change' using errcode = '22023';
    end if;
    -- Foreign cash (ADR 0395): the shape here; private.sale_foreign_cash_checked checks the rate and the conversion.
    if v_tender ? 'currency' and jsonb_typeof(v_tender -> 'currency') <> 'null' then
      if v_kind <> 'cash' then
        raise exception 'only cash is taken in another currency' using errcode = '22023';
      elsif (v_tender ->> 'currency') !~ '^[A-Z]{3}$' then
        raise exception 'a foreign tender''s currency is an ISO 4217 code such as EUR' using errcode = '22023';
      elsif coalesce(v_tender ->> 'rate_id', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
        raise exception 'a foreign tender names the exchange rate it used' using errcode = '22023';
      elsif jsonb_typeof(v_tender -> 'rate') not in ('number', 'string') or (v_tender ->> 'rate') !~ '^[0-9]{1,9}(\.[0-9]{1,10})?$' then
        raise exception 'a foreign tender gives the rate it used (a decimal such as 1.0825)' using errcode = '22023';
      elsif jsonb_typeof(v_tender -> 'foreign_tendered') is distinct from 'number'
            or (v_tender ->> 'foreign_tendered') !~ '^[0-9]{1,12}$' then
        raise exception 'a foreign tender gives what was handed over in its currency''s minor units'
          using errcode = '22023';
      end if;
      v_foreign := jsonb_build_object('currency', v_tender ->> 'currency', 'rate_id', lower(v_tender ->> 'rate_id'),
                                      'rate', (v_tender ->> 'rate')::numeric,
                                      'foreign_tendered', (v_tender ->> 'foreign_tendered')::bigint);
    else
      v_foreign := '{}';
    end if;
    o_paid := o_paid + v_amount;
    o_tendered := o_tendered + v_tendered;
    o_change := o_change + (v_tendered - v_amount);
    o_tenders := o_tenders || jsonb_build_array(jsonb_build_object('kind', v_kind, 'amount', v_amount,
                                                 'tendered', v_tendered, 'change', v_tendered - v_amount) || v_foreign);
  end loop;
end;
$$;
revoke all on function private.sale_tenders_checked(jsonb) from public;

-- The lines, their costs and the tenders of a sale: one insert each, so the daily summaries' statement triggers run
-- once per table and not once per line.
create or replace function private.insert_sale_rows(_sale_id uuid, _business_id uuid, _store_id uuid, _lines jsonb,
                                                    _tenders jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.sale_lines (id, business_id, store_id, sale_id, line_no, variant_id, lot_id, description, qty,
                                 unit_price, discount, tax_rate, tax_amount, line_total)
  select l.id, _business_id, _store_id, _sale_id, l.line_no, l.variant_id, l.lot_id, l.description, l.qty,
         l.unit_price, l.discount, l.tax_rate, l.tax_amount, l.line_total
    from jsonb_to_recordset(_lines) as l (id uuid, line_no int, variant_id uuid, lot_id uuid, description text, qty numeric,
                                         unit_price bigint, discount bigint, tax_rate numeric, tax_amount bigint,
                                         line_total bigint)
   order by l.line_no;
  insert into public.sale_line_costs (sale_line_id, business_id, store_id, unit_cost)
  select l.id, _business_id, _store_id, l.cost
    from jsonb_to_recordset(_lines) as l (id uuid, line_no int, cost bigint)
   order by l.line_no;
  -- Foreign cash (20261204110000, ADR 0395): the currency, the rate named and used, what was handed over in it.
  insert into public.sale_tenders (business_id, store_id, sale_id, kind, amount, tendered, change, currency, rate_id, rate,
                                   foreign_tendered)
  select _business_id, _store_id, _sale_id, t.kind, t.amount, t.tendered, t.change, t.currency, t.rate_id, t.rate,
         t.foreign_tendered
    from jsonb_to_recordset(_tenders) as t (kind text, amount bigint, tendered bigint, change bigint, currency text,
                                            rate_id uuid, rate numeric, foreign_tendered bigint);
end;
$$;
revoke all on function private.insert_sale_rows(uuid,uuid,uuid,jsonb,jsonb) from public;

create or replace function private.shift_figures(_shift_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with s as (select * from public.shifts where id = _shift_id),
  sa as (select count(*) as n, coalesce(sum(total), 0) as total, coalesce(sum(discount_total), 0) as discounts,
                coalesce(sum(cash_rounding), 0) as cash_rounding,
                coalesce(sum(tax_total), 0) as tax, count(*) filter (where flagged_for_review) as flagged
           from public.sales where shift_id = _shift_id),
  te as (select t.kind, sum(t.amount) as amount from public.sale_tenders t join public.sales x on x.id = t.sale_id
          where x.shift_id = _shift_id group by t.kind),
  -- Foreign cash (ADR 0395): the store's drawer takes the store-currency cash and gives the change of foreign cash.
  dr as (select coalesce(sum(t.amount) filter (where t.currency is null), 0) as local_cash,
                coalesce(sum(t.change) filter (where t.currency is not null), 0) as foreign_change
           from public.sale_tenders t join public.sales x on x.id = t.sale_id
          where x.shift_id = _shift_id and t.kind = 'cash'),
  fe as (select t.currency, sum(t.foreign_tendered) as expected, sum(t.amount) as paid, sum(t.change) as change,
                count(*) as n
           from public.sale_tenders t join public.sales x on x.id = t.sale_id
          where x.shift_id = _shift_id and t.currency is not null group by t.currency),
  fc as (select k.key as currency, (k.value #>> '{}')::bigint as counted
           from s, jsonb_each(case when jsonb_typeof(s.counted -> 'foreign') = 'object' then s.counted -> 'foreign'
                                   else '{}'::jsonb end) k),
  fx as (select coalesce(fe.currency, fc.currency) as currency, coalesce(fe.expected, 0) as expected,
                coalesce(fe.paid, 0) as paid, coalesce(fe.change, 0) as change, coalesce(fe.n, 0) as n, fc.counted
           from fe full join fc on fc.currency = fe.currency),
  re as (select count(*) as n, coalesce(sum(total), 0) as total,
                coalesce(sum(total + cash_rounding) filter (where tender_kind = 'cash'), 0) as cash,
                coalesce(sum(cash_rounding), 0) as cash_rounding
           from public.refunds where shift_id = _shift_id),
  cm as (select coalesce(sum(amount) filter (where kind = 'in'), 0) as cash_in,
                coalesce(sum(amount) filter (where kind = 'out'), 0) as cash_out
           from public.cash_movements where shift_id = _shift_id)
  select jsonb_build_object(
    'shift_id', s.id, 'register_id', s.register_id, 'opened_at', s.opened_at, 'closed_at', s.closed_at,
    'opening_float', s.opening_float, 'sales_count', sa.n, 'sales_total', sa.total, 'discount_total', sa.discounts,
    'tax_total', sa.tax, 'flagged_count', sa.flagged, 'cash_rounding', sa.cash_rounding,
    'refunds_cash_rounding', re.cash_rounding,
    'tenders', coalesce((select jsonb_object_agg(kind, amount) from te), '{}'),
    'refunds_count', re.n, 'refunds_total', re.total, 'cash_in', cm.cash_in, 'cash_out', cm.cash_out,
    'expected_cash', s.opening_float + dr.local_cash - dr.foreign_change - re.cash + cm.cash_in - cm.cash_out,
    'foreign_cash', coalesce((select jsonb_agg(jsonb_build_object(
                                'currency', fx.currency, 'tenders', fx.n, 'expected', fx.expected, 'paid', fx.paid,
                                'change', fx.change, 'counted', fx.counted, 'difference', fx.counted - fx.expected)
                              order by fx.currency) from fx), '[]'::jsonb),
    'counted', s.counted, 'counted_total', s.counted_total, 'difference', s.difference)
  from s, sa, re, cm, dr;
$$;
revoke all on function private.shift_figures(uuid) from public;

create or replace function public.z_report(_shift_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_shift public.shifts;
  v_role text;
  v_after jsonb;
begin
  select s.* into v_shift from public.shifts s where s.id = _shift_id;
  if v_shift.id is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  select a.o_role into v_role from private.pos_store_access(v_shift.store_id, array['owner', 'manager', 'cashier']) a;
  if v_role = 'cashier' and v_shift.cashier_id is distinct from (select auth.uid()) then
    raise exception 'permission denied: this is another cashier''s shift' using errcode = '42501';
  elsif v_shift.closed_at is null then
    raise exception 'this shift is still open: print an X report or close it' using errcode = '22023';
  end if;
  with sa as (select count(*) as n, coalesce(sum(x.total), 0) as total,
                     coalesce(sum((select coalesce(sum(case when t.currency is null then t.amount else -t.change end), 0)
                                     from public.sale_tenders t
                                    where t.sale_id = x.id and t.kind = 'cash')), 0) as cash
                from public.sales x where x.shift_id = _shift_id and x.recorded_at > v_shift.close_recorded_at),
       re as (select count(*) as n, coalesce(sum(f.total), 0) as total,
                     coalesce(sum(f.total + f.cash_rounding) filter (where f.tender_kind = 'cash'), 0) as cash
                from public.refunds f where f.shift_id = _shift_id and f.recorded_at > v_shift.close_recorded_at)
  select jsonb_build_object('sales_count', sa.n, 'sales_total', sa.total, 'refunds_count', re.n,
                            'refunds_total', re.total, 'cash_change', sa.cash - re.cash)
    into v_after from sa, re;
  return coalesce(v_shift.z_figures, private.shift_figures(_shift_id))
         || jsonb_build_object('after_close', case when (v_after ->> 'sales_count')::int + (v_after ->> 'refunds_count')::int > 0
                                                   then v_after end);
end;
$$;
revoke all on function public.z_report(uuid) from public;
grant execute on function public.z_report(uuid) to authenticated;

create or replace function public.close_shift(_shift_id uuid, _counted jsonb)
returns jsonb
language sql
security definer
set search_path = ''
as $$
  select public.close_shift(_shift_id, _counted, gen_random_uuid(), null::timestamptz);
$$;
revoke all on function public.close_shift(uuid,jsonb) from public;
grant execute on function public.close_shift(uuid,jsonb) to authenticated;

create or replace function public.close_shift(_shift_id uuid, _counted jsonb, _close_id uuid, _closed_at timestamptz)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_shift public.shifts;
  v_total numeric := 0;
  v_figures jsonb;
  v_expected bigint;
  v_at timestamptz;
  r record;
begin
  if _close_id is null then
    raise exception 'a close needs an id' using errcode = '22023';
  end if;
  select s.* into v_shift from public.shifts s where s.id = _shift_id for update;
  if v_shift.id is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  perform private.assert_store_role(v_shift.store_id, array['owner', 'manager', 'cashier']);
  if private.my_role(v_shift.business_id) = 'cashier' and v_shift.cashier_id is distinct from (select auth.uid()) then
    raise exception 'permission denied: only the cashier who opened it or a manager closes this shift' using errcode = '42501';
  elsif v_shift.closed_at is not null then
    if v_shift.close_id = _close_id then
      return public.z_report(_shift_id); -- a retry of this close
    end if;
    raise exception 'this shift is already closed' using errcode = '22023';
  elsif jsonb_typeof(_counted) is distinct from 'object' then
    raise exception 'count the cash by denomination' using errcode = '22023';
  elsif _closed_at is not null and not isfinite(_closed_at) then
    raise exception 'the closing time is not a date and time' using errcode = '22023';
  end if;
  -- Foreign cash (ADR 0395): "foreign" holds the count per other currency, in its minor units.
  perform private.foreign_counts_checked(_counted -> 'foreign', v_shift.store_id);
  for r in select key, value from jsonb_each(_counted - 'foreign') loop
    if r.key !~ '^[1-9][0-9]{0,9}$' or jsonb_typeof(r.value) <> 'number' or (r.value #>> '{}') !~ '^[0-9]{1,9}$' then
      raise exception 'a denomination is a whole amount in minor units and its count a whole number' using errcode = '22023';
    end if;
    v_total := v_total + r.key::numeric * (r.value #>> '{}')::numeric;
  end loop;
  v_at := private.pos_event_time(coalesce(_closed_at, now()), v_shift.opened_at);
  v_expected := (private.shift_figures(_shift_id) ->> 'expected_cash')::bigint;
  update public.shifts s
     set closed_at = v_at, closed_by = (select auth.uid()), counted = _counted, counted_total = v_total::bigint,
         expected_cash = v_expected, difference = v_total::bigint - v_expected, close_id = _close_id,
         close_recorded_at = now()
   where s.id = _shift_id;
  v_figures := private.shift_figures(_shift_id);
  update public.shifts s set z_figures = v_figures where s.id = _shift_id;
  perform private.log_activity(v_shift.business_id, v_shift.store_id, 'shift.closed', 'shift', v_shift.id, null,
    jsonb_build_object('expected_cash', v_expected, 'counted_total', v_total, 'difference', v_total - v_expected,
                       'closed_at', v_at, 'foreign_cash', v_figures -> 'foreign_cash')
    || case when _closed_at is distinct from v_at then jsonb_build_object('register_closed_at', _closed_at) else '{}'::jsonb end);
  return public.z_report(_shift_id);
end;
$$;
comment on function public.close_shift(uuid,jsonb,uuid,timestamp with time zone) is 'The counted close with the register''s id and time for it; a retry of the same close returns the figures (ADR 0155).';
revoke all on function public.close_shift(uuid,jsonb,uuid,timestamp with time zone) from public;
grant execute on function public.close_shift(uuid,jsonb,uuid,timestamp with time zone) to authenticated;

-- The lots a refund line's units go back to: what is left of each lot the sale line took (taken minus what earlier
-- refund lines gave back to it), a quarantined lot first (a unit returned after a recall is most likely a recalled
-- one, and wrongly restocking a good unit into quarantine is the safe mistake), then the latest expiry (FEFO sold
-- the earliest first, so the units a customer still holds and brings back are taken to be the freshest ones).
-- A line without sale_line_lots rows (none since ADR 0360's backfill, kept for safety) returns all to _line_lot.
-- Writes the refund_line_lots rows and returns them.
create or replace function private.refund_line_take_lots(_business_id uuid, _refund_line_id uuid, _sale_line_id uuid,
                                                         _line_lot uuid, _qty numeric)
returns table (o_lot_id uuid, o_qty numeric)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_left numeric := _qty;
  v_ids uuid[] := '{}';
  v_qtys numeric[] := '{}';
  r record;
begin
  for r in
    select ll.lot_id, ll.qty - coalesce((select sum(x.qty) from public.refund_line_lots x
                                           join public.refund_lines rl on rl.id = x.refund_line_id
                                          where rl.sale_line_id = _sale_line_id and x.lot_id = ll.lot_id), 0) as open
      from public.sale_line_lots ll join public.lots lo on lo.id = ll.lot_id
     where ll.sale_line_id = _sale_line_id
     order by lo.quarantined_at is null, lo.expires_on desc nulls first, lo.created_at desc, lo.id desc
  loop
    continue when r.open <= 0 or v_left <= 0;
    v_ids := v_ids || r.lot_id;
    v_qtys := v_qtys || least(r.open, v_left);
    v_left := v_left - least(r.open, v_left);
  end loop;
  if v_left > 0 then
    -- Nothing left on record (a refund of a line refunded before this migration): the line's lot, as before.
    if _line_lot = any (v_ids) then
      v_qtys[array_position(v_ids, _line_lot)] := v_qtys[array_position(v_ids, _line_lot)] + v_left;
    else
      v_ids := v_ids || _line_lot;
      v_qtys := v_qtys || v_left;
    end if;
  end if;
  insert into public.refund_line_lots (refund_line_id, lot_id, business_id, qty)
  select _refund_line_id, x.id, _business_id, x.qty from unnest(v_ids, v_qtys) as x (id, qty);
  return query select x.id, x.qty from unnest(v_ids, v_qtys) as x (id, qty);
end;
$$;
comment on function private.refund_line_take_lots(uuid,uuid,uuid,uuid,numeric) is 'The lots a refund line gives its units back to (recalled first, then latest expiry), recorded in refund_line_lots (ADR 0400).';
revoke all on function private.refund_line_take_lots(uuid,uuid,uuid,uuid,numeric) from public;

-- A refund line as post_refund answers it: the row and the lots its units went back to.
create or replace function private.refund_line_json(_line public.refund_lines)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select to_jsonb(_line) || jsonb_build_object('lots', (
           select jsonb_agg(jsonb_build_object('lot_id', x.lot_id, 'lot_number', lo.lot_number,
                    'expires_on', lo.expires_on, 'qty', x.qty) order by lo.expires_on desc nulls first, lo.lot_number)
             from public.refund_line_lots x join public.lots lo on lo.id = x.lot_id
            where x.refund_line_id = _line.id));
$$;
comment on function private.refund_line_json(public.refund_lines) is 'A refund line with the lots its units went back to (ADR 0400).';
revoke all on function private.refund_line_json(public.refund_lines) from public;

-- post_refund as in 20261202190100_refunds_name_the_switched_person.sql; only the restock of a lot line changed,
-- and each answered line carries its lots.
create or replace function public.post_refund(_payload jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uuid constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  v_id uuid;
  v_sale public.sales;
  v_store public.stores;
  v_business uuid;
  v_role text;
  v_offline boolean;
  v_approval public.pos_approvals;
  v_shift public.shifts;
  v_terms record;
  v_original text;
  v_tender text;
  v_known jsonb;
  v_line jsonb;
  v_sl jsonb;
  v_n int := 0;
  v_qty numeric;
  v_disp text;
  v_problem text;
  v_ids uuid[] := '{}';
  v_disps text[] := '{}';
  v_qtys numeric[] := '{}';
  v_ords int[] := '{}';
  m record;
  v_done_qty numeric;
  v_done_amount bigint;
  v_left numeric;
  v_cum numeric;
  v_amount bigint;
  v_total bigint := 0;
  v_reasons text[] := '{}';
  v_progress jsonb := '{}';
  v_rounding bigint;
  v_register public.registers;
  v_till record;
  v_refund_line uuid;
  v_lot record;
begin
  if jsonb_typeof(_payload) is distinct from 'object'
     or coalesce(_payload ->> 'id', '') !~* v_uuid or coalesce(_payload ->> 'sale_id', '') !~* v_uuid then
    raise exception 'a refund needs its own id and the sale''s id (uuids)' using errcode = '22023';
  end if;
  v_id := (_payload ->> 'id')::uuid;
  v_offline := coalesce(_payload ->> 'offline', 'false') = 'true';
  -- Lock the sale: concurrent refunds of one sale are counted one after the other.
  select s.* into v_sale from public.sales s where s.id = (_payload ->> 'sale_id')::uuid for update;
  if v_sale.id is null then
    raise exception 'no such sale' using errcode = '42501';
  end if;
  select a.o_business_id, a.o_role into v_business, v_role
    from private.pos_store_access(v_sale.store_id, array['owner', 'manager', 'cashier']) a;

  if exists (select 1 from public.refunds f where f.id = v_id) then
    if not exists (select 1 from public.refunds f where f.id = v_id and f.business_id = v_business
                      and f.store_id = v_sale.store_id) then
      raise exception 'permission denied: this refund id belongs to another business or store' using errcode = '42501';
    end if;
    return (select to_jsonb(f) || jsonb_build_object('replayed', true,
              'lines', (select jsonb_agg(private.refund_line_json(l)) from public.refund_lines l where l.refund_id = f.id))
              from public.refunds f where f.id = v_id);
  end if;
  select s.* into v_store from public.stores s where s.id = v_sale.store_id;

  if jsonb_typeof(_payload -> 'lines') is distinct from 'array' or jsonb_array_length(_payload -> 'lines') = 0 then
    raise exception 'choose at least one line to refund' using errcode = '22023';
  elsif jsonb_array_length(_payload -> 'lines') > 30 then
    -- Sized so a refund finishes well under a second on PGlite while others wait (ADR 0180's fairness bench).
    raise exception 'a refund has at most 30 lines: refund the rest in another' using errcode = '22023';
  end if;
  if char_length(coalesce(_payload ->> 'reason', '')) > 500 then
    raise exception 'the reason is too long (500 characters at most)' using errcode = '22023';
  end if;

  -- The shift the money goes out of, and the time.
  if coalesce(_payload ->> 'shift_id', '') ~* v_uuid then
    select s.* into v_shift from public.shifts s
     where s.id = (_payload ->> 'shift_id')::uuid and s.business_id = v_business and s.store_id = v_sale.store_id;
  end if;
  select * into v_terms from private.pos_entry_terms(v_shift, null, v_role, v_offline, _payload -> 'occurred_at');
  if v_terms.o_shift_id is null then
    raise exception 'a refund is made at a register: open your shift on a register of this store first' using errcode = '22023';
  end if;
  v_reasons := v_terms.o_reasons;
  -- The person PIN-switched in at the till (ADR 0300) makes the refund: named on it, and their role decides
  -- whether a manager must approve, as for a sale. A switch that fails its proof offline flags the refund.
  select r.* into v_register from public.registers r
   where r.id = (select s.register_id from public.shifts s where s.id = v_terms.o_shift_id);
  select * into v_till from private.sale_till_cashier(_payload -> 'till_switch', v_business, v_register, v_offline);
  v_reasons := v_reasons || v_till.o_reasons;
  v_role := coalesce(v_till.o_role, v_role);

  -- The original tender (the one that paid most) unless the register names another.
  select t.kind into v_original from public.sale_tenders t where t.sale_id = v_sale.id order by t.amount desc, t.kind limit 1;
  v_tender := coalesce(v_original, 'cash');
  if nullif(_payload ->> 'tender_kind', '') is not null then
    if (_payload ->> 'tender_kind') not in ('cash', 'card', 'other') then
      raise exception 'refund to cash, card or other' using errcode = '22023';
    end if;
    v_tender := _payload ->> 'tender_kind';
  end if;

  if v_role = 'cashier' then
    if nullif(_payload ->> 'approval_id', '') ~* v_uuid then
      v_approval := private.take_approval((_payload ->> 'approval_id')::uuid, v_business, v_sale.store_id, 'refund', v_id);
    end if;
    if v_approval.id is null then
      if not v_offline then
        raise exception 'permission denied: a refund needs a manager''s approval' using errcode = '42501';
      elsif v_tender is distinct from coalesce(v_original, 'cash') then
        raise exception 'permission denied: without a manager''s approval a refund goes back to the original tender (%)',
          coalesce(v_original, 'cash') using errcode = '42501';
      end if;
      v_reasons := array_append(v_reasons, 'no_approval'::text);
    end if;
  end if;
  if v_offline and coalesce(_payload ->> 'sale_pending', 'false') = 'true' then
    v_reasons := array_append(v_reasons, 'sale_not_synced'::text);
  end if;

  -- The sale's lines with their unit, cost and what was refunded of each, read once; keyed by id and by 'n<line_no>'.
  select coalesce(jsonb_object_agg(k.key, k.value), '{}') into v_known
    from (select l.id::text as id, l.line_no, jsonb_build_object(
                   'id', l.id, 'variant_id', l.variant_id, 'lot_id', l.lot_id, 'qty', l.qty, 'line_total', l.line_total,
                   'unit', p.unit, 'track_stock', coalesce(p.track_stock, false), 'cost', c.unit_cost,
                   'done_qty', coalesce(r.qty, 0), 'done_amount', coalesce(r.amount, 0)) as doc
            from public.sale_lines l
            left join public.variants v on v.id = l.variant_id
            left join public.products p on p.id = v.product_id
            left join public.sale_line_costs c on c.sale_line_id = l.id
            left join private.sale_line_refunds(v_sale.id) r on r.sale_line_id = l.id
           where l.sale_id = v_sale.id) s
    cross join lateral (values (s.id, s.doc), ('n' || s.line_no, s.doc)) as k (key, value);

  for v_line in select value from jsonb_array_elements(_payload -> 'lines') loop
    v_n := v_n + 1;
    v_sl := null;
    if jsonb_typeof(v_line) = 'object' and coalesce(v_line ->> 'sale_line_id', '') ~* v_uuid then
      v_sl := v_known -> lower(v_line ->> 'sale_line_id');
    elsif jsonb_typeof(v_line) = 'object' and jsonb_typeof(v_line -> 'line_no') = 'number'
          and (v_line ->> 'line_no') ~ '^[1-9][0-9]{0,5}$' then
      v_sl := v_known -> ('n' || (v_line ->> 'line_no'));
    end if;
    if v_sl is null then
      raise exception 'refund line %: not a line of this sale', v_n using errcode = '22023';
    end if;
    if jsonb_typeof(v_line -> 'qty') is distinct from 'number' or (v_line ->> 'qty')::numeric <= 0 then
      raise exception 'refund line %: enter a quantity above zero', v_n using errcode = '22023';
    end if;
    v_qty := (v_line ->> 'qty')::numeric;
    -- Half a tee marked damaged writes no movement, so only this check stops a fractional refund of a piece.
    v_problem := private.quantity_problem(coalesce(v_sl ->> 'unit', 'each'), v_qty);
    if v_problem is not null then
      raise exception 'refund line %: %', v_n, v_problem using errcode = '22023';
    end if;
    v_disp := coalesce(v_line ->> 'disposition', 'restock');
    if v_disp not in ('restock', 'damaged') then
      raise exception 'refund line %: restock it or mark it damaged', v_n using errcode = '22023';
    end if;
    v_ids := array_append(v_ids, (v_sl ->> 'id')::uuid);
    v_disps := array_append(v_disps, v_disp);
    v_qtys := array_append(v_qtys, v_qty);
    v_ords := array_append(v_ords, v_n);
  end loop;

  insert into public.refunds (id, business_id, store_id, sale_id, register_id, shift_id, actor_id, approval_id,
                              tender_kind, total, reason, offline, occurred_at, till_switch_id)
  select v_id, v_business, v_sale.store_id, v_sale.id, s.register_id, s.id, v_till.o_user_id, v_approval.id,
         v_tender, 0, nullif(btrim(coalesce(_payload ->> 'reason', '')), ''), v_offline, v_terms.o_occurred,
         v_till.o_switch_id
    from public.shifts s where s.id = v_terms.o_shift_id;

  -- One part per sale line and disposition, in the order first named.
  for m in
    select x.id, x.disp, sum(x.qty) as qty, min(x.ord) as ord
      from unnest(v_ids, v_disps, v_qtys, v_ords) as x (id, disp, qty, ord)
     group by x.id, x.disp order by min(x.ord)
  loop
    v_sl := v_known -> m.id::text;
    v_done_qty := (v_sl ->> 'done_qty')::numeric + coalesce((v_progress -> m.id::text ->> 'qty')::numeric, 0);
    v_done_amount := (v_sl ->> 'done_amount')::bigint + coalesce((v_progress -> m.id::text ->> 'amount')::bigint, 0);
    v_left := (v_sl ->> 'qty')::numeric - v_done_qty;
    v_qty := m.qty;
    if v_qty > v_left then
      if not v_offline then
        raise exception 'refund line %: only % left to refund', m.ord, v_left using errcode = '22023';
      end if;
      v_reasons := array_append(v_reasons, ('over_refund:' || m.ord)::text);
      v_qty := v_left;
      continue when v_qty <= 0;
    end if;
    v_cum := v_done_qty + v_qty;
    if v_cum >= (v_sl ->> 'qty')::numeric then
      v_amount := (v_sl ->> 'line_total')::bigint - v_done_amount;
    else
      v_amount := round((v_sl ->> 'line_total')::bigint * v_cum / (v_sl ->> 'qty')::numeric)::bigint - v_done_amount;
    end if;
    v_amount := greatest(0, least(v_amount, (v_sl ->> 'line_total')::bigint - v_done_amount));
    v_progress := v_progress || jsonb_build_object(m.id::text,
      jsonb_build_object('qty', v_cum - (v_sl ->> 'done_qty')::numeric,
                         'amount', v_done_amount + v_amount - (v_sl ->> 'done_amount')::bigint));
    insert into public.refund_lines (business_id, refund_id, sale_line_id, qty, amount, disposition)
    values (v_business, v_id, m.id, v_qty, v_amount, m.disp)
    returning id into v_refund_line;
    v_total := v_total + v_amount;
    if (v_sl ->> 'lot_id') is not null then
      -- A line split over lots (ADR 0360) gives each unit back to a lot it came from (ADR 0400); a damaged unit
      -- is counted against its lot too, so a later restock never returns more to a lot than the line took from it.
      for v_lot in select * from private.refund_line_take_lots(v_business, v_refund_line, m.id,
                                                                 (v_sl ->> 'lot_id')::uuid, v_qty) loop
        if m.disp = 'restock' and (v_sl ->> 'track_stock')::boolean then
          perform private.apply_movement(v_business, v_sale.store_id, (v_sl ->> 'variant_id')::uuid,
            v_lot.o_lot_id, 'refund', v_lot.o_qty, null, (v_sl ->> 'cost')::bigint, v_terms.o_occurred, 'refund', v_id,
            v_sale.receipt_number);
        end if;
      end loop;
    elsif m.disp = 'restock' and (v_sl ->> 'track_stock')::boolean then
      perform private.apply_movement(v_business, v_sale.store_id, (v_sl ->> 'variant_id')::uuid,
        null, 'refund', v_qty, null, (v_sl ->> 'cost')::bigint, v_terms.o_occurred, 'refund', v_id,
        v_sale.receipt_number);
    end if;
  end loop;

  if v_role = 'cashier' and v_approval.id is null and v_total > v_store.offline_refund_limit then
    raise exception 'permission denied: without a manager''s approval a refund is at most % (this one is %)',
      v_store.offline_refund_limit, v_total using errcode = '42501';
  end if;
  -- Cash rounding (20261201141000): a cash refund pays back in the store's step, consistent with earlier parts.
  v_rounding := private.refund_cash_rounding(v_sale.id, v_id, v_tender, v_total, v_store.cash_rounding_step);
  update public.refunds f set total = v_total, cash_rounding = v_rounding, review_reasons = v_reasons where f.id = v_id;
  -- Serial numbers (20261201143000): a restocked unit can be sold again.
  perform private.return_refund_serials(v_id);
  perform private.log_activity(v_business, v_sale.store_id, 'refund.posted', 'refund', v_id, null,
    jsonb_build_object('sale_id', v_sale.id, 'receipt_number', v_sale.receipt_number, 'total', v_total,
                       'cash_rounding', v_rounding,
                       'tender_kind', v_tender, 'approval_id', v_approval.id, 'offline', v_offline,
                       'shift_id', v_terms.o_shift_id, 'review_reasons', to_jsonb(v_reasons),
                       'cashier_id', v_till.o_user_id, 'till_switch_id', v_till.o_switch_id)
    || case when _payload ? 'occurred_at' then jsonb_build_object('register_occurred_at', _payload -> 'occurred_at')
            else '{}'::jsonb end);
  return (select to_jsonb(f) || jsonb_build_object('replayed', false,
            'lines', (select jsonb_agg(private.refund_line_json(l)) from public.refund_lines l where l.refund_id = f.id))
            from public.refunds f where f.id = v_id);
end;
$$;
revoke all on function public.post_refund(jsonb) from public;
grant execute on function public.post_refund(jsonb) to authenticated;

create or replace function public.till_staff(_store_id uuid)
returns table (user_id uuid, full_name text, role text, locked boolean, needs_two_factor boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
begin
  return query
    select s.user_id, s.full_name, s.role, s.locked, private.pin_lacks_two_factor(v_business, s.user_id, s.role)
      from (select p.user_id, coalesce(nullif(btrim(pr.full_name), ''), 'Staff member')::text as full_name,
                   private.store_member_role(_store_id, p.user_id) as role, coalesce(p.locked_until > now(), false) as locked
              from private.staff_pins p
              left join public.profiles pr on pr.id = p.user_id
             where p.business_id = v_business) s
     where s.role is not null
     order by 2, 1;
end;
$$;
comment on function public.till_staff(uuid) is 'Staff of a store who have a till PIN, for the switch and approval pickers; needs_two_factor: a manager whose PIN is refused until they set up two-factor sign-in (ADR 0350).';
revoke all on function public.till_staff(uuid) from public;
grant execute on function public.till_staff(uuid) to authenticated;

create or replace function private.post_sale_core(_payload jsonb, out o_id uuid, out o_replayed boolean,
                                                  out o_receipt text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uuid constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  v_offline boolean;
  v_register public.registers;
  v_store public.stores;
  v_business uuid;
  v_role text;
  v_existing public.sales;
  v_shift public.shifts;
  v_terms record;
  v_reasons text[] := '{}';
  v_customer uuid;
  v_approval_id uuid;
  v_priced record;
  v_paid record;
  v_receipt record;
  v_negative text[];
  v_rounding bigint;
  v_till record;
  v_lot_approval_id uuid;
  v_lots record;
  v_foreign record;
begin
  if jsonb_typeof(_payload) is distinct from 'object' then
    raise exception 'send the sale as an object' using errcode = '22023';
  end if;
  if coalesce(_payload ->> 'id', '') !~* v_uuid then
    raise exception 'a sale needs its register-generated id (a uuid)' using errcode = '22023';
  end if;
  if coalesce(_payload ->> 'register_id', '') !~* v_uuid then
    raise exception 'choose a register' using errcode = '22023';
  end if;
  o_id := (_payload ->> 'id')::uuid;
  o_replayed := false;
  v_offline := coalesce(_payload ->> 'offline', 'false') = 'true';

  select r.* into v_register from public.registers r where r.id = (_payload ->> 'register_id')::uuid;
  if v_register.id is null then
    raise exception 'no such register' using errcode = '42501';
  end if;
  select a.o_business_id, a.o_role into v_business, v_role
    from private.pos_store_access(v_register.store_id, array['owner', 'manager', 'cashier']) a;

  -- A retry: the first result, nothing written twice. Another store's sale of the business is no replay either.
  select s.* into v_existing from public.sales s where s.id = o_id;
  if v_existing.id is not null then
    if v_existing.business_id <> v_business or v_existing.store_id <> v_register.store_id then
      raise exception 'permission denied: this sale id belongs to another business or store' using errcode = '42501';
    end if;
    o_replayed := true;
    o_receipt := v_existing.receipt_number;
    return;
  end if;

  select s.* into v_store from public.stores s where s.id = v_register.store_id;
  if v_register.archived_at is not null then
    if not v_offline then
      raise exception 'this register is archived' using errcode = '22023';
    end if;
    v_reasons := array_append(v_reasons, 'register_archived'::text);
  end if;

  if coalesce(_payload ->> 'shift_id', '') ~* v_uuid then
    select s.* into v_shift from public.shifts s where s.id = (_payload ->> 'shift_id')::uuid and s.business_id = v_business;
  end if;
  select * into v_terms from private.pos_entry_terms(v_shift, v_register.id, v_role, v_offline, _payload -> 'occurred_at');
  v_reasons := v_reasons || v_terms.o_reasons;

  if nullif(_payload ->> 'customer_id', '') is not null then
    if (_payload ->> 'customer_id') ~* v_uuid then
      select c.id into v_customer from public.customers c
       where c.id = (_payload ->> 'customer_id')::uuid and c.business_id = v_business;
    end if;
    if v_customer is null then
      if not v_offline then
        raise exception 'no such customer in this business' using errcode = '22023';
      end if;
      v_reasons := array_append(v_reasons, 'unknown_customer'::text);
    end if;
  end if;

  -- The shared till (20261202120000): a PIN-switched person is the sale's cashier and their role prices its
  -- discounts; the shift stays the signed-in session's (pos_entry_terms above, unchanged).
  select * into v_till from private.sale_till_cashier(_payload -> 'till_switch', v_business, v_register, v_offline);
  v_reasons := v_reasons || v_till.o_reasons;

  if nullif(_payload ->> 'approval_id', '') ~* v_uuid then
    v_approval_id := (_payload ->> 'approval_id')::uuid;
  end if;
  select * into v_priced
    from private.sale_lines_priced(_payload -> 'lines', v_business, v_store, o_id, v_offline, coalesce(v_till.o_role, v_role), v_approval_id);
  v_reasons := v_reasons || v_priced.o_reasons;
  -- Lots (20261203070000, ADR 0360): FEFO where the register named none; expired lots need a manager, recalled
  -- ones are never sold online.
  if nullif(_payload ->> 'lot_approval_id', '') ~* v_uuid then
    v_lot_approval_id := (_payload ->> 'lot_approval_id')::uuid;
  end if;
  select * into v_lots
    from private.sale_lines_lots(v_priced.o_lines, _payload -> 'lines', v_business, v_store, v_terms.o_occurred, v_offline,
                                 coalesce(v_till.o_role, v_role), v_lot_approval_id, o_id);
  v_reasons := v_reasons || v_lots.o_reasons;

  select * into v_paid from private.sale_tenders_checked(_payload -> 'tenders');
  -- Foreign cash (20261204110000, ADR 0395): each foreign tender's rate and conversion checked against the rate it
  -- names; offline a problem is kept and flagged.
  select * into v_foreign
    from private.sale_foreign_cash_checked(v_paid.o_tenders, v_business, v_store, v_terms.o_occurred, v_offline);
  v_reasons := v_reasons || v_foreign.o_reasons;
  -- Cash rounding (20261201141000): what cash pays is rounded to the store's step; the sale keeps the difference.
  v_rounding := private.sale_cash_rounding(v_priced.o_total, v_paid.o_tenders, v_store.cash_rounding_step);
  if v_paid.o_paid <> v_priced.o_total + v_rounding then
    if not v_offline then
      raise exception 'the tenders pay % but the sale totals %', v_paid.o_paid, v_priced.o_total + v_rounding
        using errcode = '22023', detail = format('total:%s', v_priced.o_total + v_rounding);
    end if;
    v_reasons := array_append(v_reasons, 'tenders_mismatch'::text);
  end if;

  select * into v_receipt from private.sale_receipt_number(v_register, v_business, _payload -> 'receipt_seq');
  if v_receipt.o_reassigned then
    v_reasons := array_append(v_reasons, 'receipt_number_reassigned'::text);
  end if;
  o_receipt := v_receipt.o_receipt;

  insert into public.sales (id, business_id, store_id, register_id, shift_id, cashier_id, customer_id, receipt_number,
                            currency, tax_inclusive, subtotal, discount_total, tax_total, total, tendered_total,
                            change_total, review_reasons, offline, approval_id, occurred_at, cash_rounding, till_switch_id)
  values (o_id, v_business, v_store.id, v_register.id, v_terms.o_shift_id, v_till.o_user_id, v_customer, o_receipt,
          v_store.currency, v_store.tax_inclusive, v_priced.o_subtotal, v_priced.o_discounts, v_priced.o_taxes,
          v_priced.o_total, v_paid.o_tendered, v_paid.o_change, v_reasons, v_offline, v_priced.o_approval_id,
          v_terms.o_occurred, v_rounding, v_till.o_switch_id)
  on conflict (id) do nothing;
  if not found then
    -- A concurrent copy committed first: its result, nothing written by this one.
    select s.* into v_existing from public.sales s where s.id = o_id;
    if v_existing.business_id <> v_business or v_existing.store_id <> v_register.store_id then
      raise exception 'permission denied: this sale id belongs to another business or store' using errcode = '42501';
    end if;
    o_replayed := true;
    o_receipt := v_existing.receipt_number;
    return;
  end if;

  perform private.insert_sale_rows(o_id, v_business, v_store.id, v_lots.o_lines, v_foreign.o_tenders);
  perform private.insert_sale_line_lots(v_business, v_lots.o_lines);
  v_negative := private.sale_stock_movements(v_business, v_store.id, o_id, o_receipt, v_terms.o_occurred, v_lots.o_lines);
  -- Serial numbers (20261201143000): each sold once; offline a second sale of one is kept and flagged.
  v_negative := v_negative || private.record_sale_serials(v_business, o_id, v_lots.o_lines, v_offline);
  -- Prescriptions (20261204100000, ADR 0390): a prescription-only line needs its prescription; offline, flagged.
  v_negative := v_negative || private.record_sale_prescriptions(v_business, v_store.id, o_id, v_lots.o_lines,
                                                                _payload -> 'lines', v_offline);
  if cardinality(v_negative) > 0 then
    v_reasons := v_reasons || v_negative;
    update public.sales s set review_reasons = v_reasons where s.id = o_id;
  end if;

  perform private.log_activity(v_business, v_store.id, 'sale.posted', 'sale', o_id, null,
    jsonb_build_object('receipt_number', o_receipt, 'total', v_priced.o_total, 'cash_rounding', v_rounding,
                       'offline', v_offline,
                       'review_reasons', to_jsonb(v_reasons), 'approval_id', v_priced.o_approval_id,
                       'cashier_id', v_till.o_user_id, 'till_switch_id', v_till.o_switch_id,
                       'lot_approval_id', v_lots.o_approval_id)
    || case when _payload ? 'occurred_at' then jsonb_build_object('register_occurred_at', _payload -> 'occurred_at')
            else '{}'::jsonb end);
  -- Expired lots sold: who sold them and who approved it (the seller, an owner or manager, approves themselves).
  if jsonb_array_length(v_lots.o_expired) > 0 then
    perform private.log_activity(v_business, v_store.id, 'sale.expired_lot_sold', 'sale', o_id, null,
      jsonb_build_object('receipt_number', o_receipt, 'lots', v_lots.o_expired, 'approval_id', v_lots.o_approval_id,
                         'approved_by', coalesce((select a.approved_by from public.pos_approvals a where a.id = v_lots.o_approval_id),
                                                 case when coalesce(v_till.o_role, v_role) in ('owner', 'manager')
                                                      then coalesce(v_till.o_user_id, (select auth.uid())) end),
                         'offline', v_offline));
  end if;
end;
$$;
revoke all on function private.post_sale_core(jsonb) from public;

create or replace function private.receipt_email_params(_sale public.sales)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'sale_id', _sale.id,
    'receipt_number', _sale.receipt_number,
    'store_name', st.name,
    'store_address', st.address,
    'store_phone', st.phone,
    -- The business logo's object in the public bucket business-logos, with its version (docs/adr/0321): the
    -- deliverer makes it an absolute URL on the project (its own API URL), so the email shows the current logo.
    'logo_path', (select o.name || '?v=' || floor(extract(epoch from coalesce(o.updated_at, o.created_at)))::bigint::text
                    from storage.objects o
                   where o.bucket_id = 'business-logos' and o.name = _sale.business_id::text || '/logo'),
    'header', st.receipt_header,
    'footer', st.receipt_footer,
    'currency', _sale.currency,
    'occurred_at', _sale.occurred_at,
    'occurred_local', to_char(_sale.occurred_at at time zone st.time_zone, 'YYYY-MM-DD HH24:MI'),
    'tax_inclusive', _sale.tax_inclusive,
    'subtotal', _sale.subtotal,
    'discount_total', _sale.discount_total,
    'tax_total', _sale.tax_total,
    'total', _sale.total,
    'change_total', _sale.change_total,
    'lines', coalesce((select jsonb_agg(jsonb_build_object('description', l.description, 'qty', l.qty,
                                                           'unit_price', l.unit_price, 'discount', l.discount,
                                                           'amount', round(l.unit_price * l.qty)::bigint,
                                                           'line_total', l.line_total, 'serial', ss.serial,
                                                           'lots', coalesce((
                                                             select jsonb_agg(jsonb_build_object('lot_number', lo.lot_number,
                                                                      'expires_on', lo.expires_on, 'qty', ll.qty)
                                                                    order by lo.expires_on nulls last, lo.lot_number)
                                                               from public.sale_line_lots ll
                                                               join public.lots lo on lo.id = ll.lot_id
                                                              where ll.sale_line_id = l.id), '[]'::jsonb))
                                        order by l.line_no)
                         from public.sale_lines l
                         left join public.sale_line_serials ss on ss.sale_line_id = l.id
                        where l.sale_id = _sale.id), '[]'),
    'taxes', coalesce((select jsonb_agg(jsonb_build_object('rate', t.rate, 'tax', t.tax) order by t.rate)
                         from (select l.tax_rate as rate, sum(l.tax_amount) as tax from public.sale_lines l
                                where l.sale_id = _sale.id and l.tax_amount <> 0 group by l.tax_rate) t), '[]'),
    'tenders', coalesce((select jsonb_agg(jsonb_build_object('kind', t.kind, 'amount', t.amount,
                                                             'tendered', t.tendered, 'change', t.change,
                                                             'currency', t.currency, 'rate', t.rate,
                                                             'foreign_tendered', t.foreign_tendered)
                                          order by t.kind, t.id)
                           from public.sale_tenders t where t.sale_id = _sale.id), '[]'))
    from public.stores st
   where st.id = _sale.store_id;
$$;
revoke all on function private.receipt_email_params(public.sales) from public;

create or replace function public.sale_receipt(_sale_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_sale public.sales;
begin
  select s.* into v_sale from public.sales s
   where s.id = _sale_id
     and (((s.business_id in (select private.my_full_access_business_ids()) or s.store_id in (select private.my_listed_store_ids()))
           and s.business_id in (select private.my_business_ids(array['owner', 'manager'])))
          or s.id in (select private.my_rung_sale_ids()));
  if v_sale.id is null then
    raise exception 'receipt not found' using errcode = 'PT404';
  end if;
  return private.receipt_email_params(v_sale)
      || jsonb_build_object('customer', (select c.name from public.customers c where c.id = v_sale.customer_id));
end;
$$;
comment on function public.sale_receipt(uuid) is 'One sale''s receipt with the serial and the lots of each line and the foreign cash handed over, for the readers of the sale (the register once the sale posted, the serial lookup''s receipt link).';
revoke all on function public.sale_receipt(uuid) from public;
grant execute on function public.sale_receipt(uuid) to authenticated;

-- Issue 32 (ADR 0420): the register's full catalog load at 1,000,000 variants. pos_catalog's full load read each
-- row's barcodes in a correlated subplan (a sub-query started, sorted and aggregated per row). Now the page's
-- variants (with their products) are read first and their barcodes in one grouped query over the page: on PGlite,
-- 60,000 variants, ~330 us a row before, ~275 us after (the same rows in the same order). Larger pages were tried
-- and dropped: the Data API answers at most 1,000 rows (db-max-rows). Same signature, rows and role check;
-- deltas (private.pos_catalog_delta) are unchanged.
create or replace function public.pos_catalog(
  _store_id uuid, _after uuid default null, _limit int default 1000, _since timestamptz default null
)
returns table (
  variant_id uuid, name text, sku text, price bigint, tax_rate numeric, unit text, has_lots boolean, barcodes text[],
  archived boolean, changed_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
  v_store public.stores;
  -- 1,000 at most: the Data API's max rows (hosted Supabase's db-max-rows) would cut a larger page anyway.
  v_limit int := least(greatest(coalesce(_limit, 1000), 1), 1000);
begin
  select s.* into v_store from public.stores s where s.id = _store_id;
  if _since is null then
    -- A full load: the business's live variants in id order from the keyset, on (business_id, id); the page's
    -- barcodes in one grouped read rather than a sub-query per row.
    return query
      with page as (
        select v.id, v.sku, v.price, v.updated_at,
               p.name || coalesce(' ' || nullif(concat_ws(' / ', v.option1, v.option2, v.option3), ''), '') as name,
               p.tax_rate, p.unit, p.has_lots, p.updated_at as product_updated_at
          from public.variants v
          join public.products p on p.id = v.product_id
         where v.business_id = v_business
           -- Never "_after is null or ...": a cached generic plan could not use the index for it (ADR 0169).
           and v.id > coalesce(_after, '00000000-0000-0000-0000-000000000000'::uuid)
           and v.archived_at is null and p.archived_at is null
         order by v.business_id, v.id
         limit v_limit
      ), codes as (
        select b.variant_id, array_agg(b.code order by b.code) as codes
          from public.barcodes b
         where b.variant_id in (select page.id from page)
         group by b.variant_id
      )
      select v.id, v.name, v.sku, coalesce(sp.price, v.price), coalesce(v.tax_rate, v_store.default_tax_rate)::numeric,
             v.unit, v.has_lots, coalesce(c.codes, '{}'), false, greatest(v.updated_at, v.product_updated_at, sp.updated_at)
        from page v
        left join public.store_prices sp on sp.store_id = _store_id and sp.variant_id = v.id
        left join codes c on c.variant_id = v.id
       order by v.id;
    return;
  end if;
  -- A delta: only what changed since the register's last load (archived ones too, so it drops them).
  return query select * from private.pos_catalog_delta(v_store, v_business, _after, v_limit, _since);
end;
$$;
revoke all on function public.pos_catalog(uuid,uuid,integer,timestamp with time zone) from public;
grant execute on function public.pos_catalog(uuid,uuid,integer,timestamp with time zone) to authenticated;

-- How many bits of the id cut a catalog of _count live variants into blocks of about 8,192 (at most 4,096 blocks).
create or replace function private.pos_pack_bits(_count bigint)
returns integer
language sql
immutable
set search_path = ''
as $$
  select least(12, greatest(0, ceil(log(2, greatest(_count, 1) / 8192.0))))::int;
$$;
revoke all on function private.pos_pack_bits(bigint) from public;

-- The block holding an id: its first 32 bits' top `_bits` bits.
create or replace function private.pos_pack_block_of(_id uuid, _bits integer)
returns integer
language sql
immutable
set search_path = ''
as $$
  select case when _bits = 0 then 0 else (('x' || left(_id::text, 8))::bit(32)::bigint >> (32 - _bits))::int end;
$$;
revoke all on function private.pos_pack_block_of(uuid,integer) from public;

-- The first id of block _n (the nil uuid for block 0).
create or replace function private.pos_pack_block_start(_n integer, _bits integer)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select (lpad(to_hex(case when _bits = 0 then 0 else _n::bigint << (32 - _bits) end), 8, '0')
          || '-0000-0000-0000-000000000000')::uuid;
$$;
revoke all on function private.pos_pack_block_start(integer,integer) from public;

-- The last id of block _n (the all-ones uuid for the last block), so a block is one closed range of the index.
create or replace function private.pos_pack_block_end(_n integer, _bits integer)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select (lpad(to_hex(case when _bits = 0 then 4294967295 else ((_n::bigint + 1) << (32 - _bits)) - 1 end), 8, '0')
          || '-ffff-ffff-ffff-ffffffffffff')::uuid;
$$;
revoke all on function private.pos_pack_block_end(integer,integer) from public;

-- (Re)cuts a business's catalog: `bits` from its live variants (or as given: tests, an operator), every block
-- present and stale. Called on the first read, and when the catalog has grown or shrunk past twice the blocks' size
-- (pos_catalog_blocks).
create or replace function private.pos_pack_init(_business uuid, _bits integer default null)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_bits int := coalesce(_bits, private.pos_pack_bits((select count(*) from public.variants v
                                                       where v.business_id = _business and v.archived_at is null)));
begin
  insert into private.pos_catalog_packs (business_id, bits) values (_business, v_bits)
  on conflict (business_id) do update set bits = excluded.bits, packed_at = now();
  delete from private.pos_catalog_blocks b where b.business_id = _business;
  -- One revision for the new cut: the register compares `bits` first and loads every block after a new cut.
  insert into private.pos_catalog_blocks (business_id, n, body_rev, price_rev)
  select _business, n, x.r, x.r
    from generate_series(0, (1 << v_bits) - 1) n, (select nextval('private.pos_catalog_rev') as r) x;
  return v_bits;
end;
$$;
revoke all on function private.pos_pack_init(uuid,integer) from public;

-- Rebuilds block _n of a business if it is stale (its row locked: two registers rebuild it once). The body and the
-- prices are read in one statement, so they stay in the same order; when only prices are stale, only they are.
create or replace function private.pos_pack_refresh(_business uuid, _n integer)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_block private.pos_catalog_blocks;
  v_bits int;
  v_from uuid;
  v_to uuid;
begin
  select b.* into v_block from private.pos_catalog_blocks b where b.business_id = _business and b.n = _n for update;
  if v_block.n is null or not (v_block.body_stale or v_block.price_stale) then
    return;
  end if;
  select p.bits into v_bits from private.pos_catalog_packs p where p.business_id = _business;
  v_from := private.pos_pack_block_start(_n, v_bits);
  v_to := private.pos_pack_block_end(_n, v_bits);
  if v_block.body_stale then
    -- The rows pos_catalog's full load returns for these ids (live variants of live products), by id.
    with page as (
      select v.id, v.sku, v.price, p.tax_rate, p.unit, p.has_lots,
             p.name || coalesce(' ' || nullif(concat_ws(' / ', v.option1, v.option2, v.option3), ''), '') as name
        from public.variants v
        join public.products p on p.id = v.product_id
       where v.business_id = _business and v.id between v_from and v_to
         and v.archived_at is null and p.archived_at is null
    ), codes as (
      select b.variant_id, string_agg(b.code, ' ' order by b.code) as codes
        from public.barcodes b
       where b.variant_id in (select page.id from page)
       group by b.variant_id
    ), listed as (
      select page.*, coalesce(codes.codes, '') as codes from page left join codes on codes.variant_id = page.id
    )
    update private.pos_catalog_blocks b
       set body = x.body, prices = x.prices, items = x.items, body_stale = false, price_stale = false, built_at = now()
      from (select json_build_object(
                     'ids', coalesce(json_agg(r.id order by r.id), '[]'),
                     'names', coalesce(json_agg(r.name order by r.id), '[]'),
                     'skus', coalesce(json_agg(r.sku order by r.id), '[]'),
                     'codes', coalesce(json_agg(r.codes order by r.id), '[]'),
                     'tax', coalesce(json_agg(r.tax_rate order by r.id), '[]'),
                     'kg', coalesce(json_agg((r.unit = 'kg')::int order by r.id), '[]'),
                     'lots', coalesce(json_agg(r.has_lots::int order by r.id), '[]')) as body,
                   coalesce(json_agg(r.price order by r.id), '[]') as prices,
                   count(*)::int as items
              from listed r) x
     where b.business_id = _business and b.n = _n;
  else
    -- Only prices changed (pos_pack_variants_updated): the same variants as the body, so the same order. The
    -- archived products come from their partial index as one hashed list, rather than a product lookup per variant
    -- (after a bulk price change every block is rebuilt this way).
    update private.pos_catalog_blocks b
       set prices = x.prices, price_stale = false, built_at = now()
      from (select coalesce(json_agg(v.price order by v.id), '[]') as prices
              from public.variants v
             where v.business_id = _business and v.id between v_from and v_to and v.archived_at is null
               and v.product_id not in (select p.id from public.products p
                                         where p.business_id = _business and p.archived_at is not null)) x
     where b.business_id = _business and b.n = _n;
  end if;
end;
$$;
revoke all on function private.pos_pack_refresh(uuid,integer) from public;

-- Every stale block of a business built now (the large seed, which loads without triggers; an operator after a
-- bulk load). Cuts the catalog first when it has no blocks.
create or replace function private.pos_pack_build(_business uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_n int;
  v_built int := 0;
begin
  if not exists (select 1 from private.pos_catalog_packs p where p.business_id = _business) then
    perform private.pos_pack_init(_business);
  end if;
  for v_n in select b.n from private.pos_catalog_blocks b
              where b.business_id = _business and (b.body_stale or b.price_stale) order by b.n loop
    perform private.pos_pack_refresh(_business, v_n);
    v_built := v_built + 1;
  end loop;
  return v_built;
end;
$$;
revoke all on function private.pos_pack_build(uuid) from public;

-- Marks the blocks holding the given variants stale: the body (and prices) when _body, else the prices only. A
-- business without a pack has nothing to mark (its blocks are cut on the first read).
create or replace function private.pos_pack_mark(_businesses uuid[], _ids uuid[], _body boolean)
returns void
language sql
security definer
set search_path = ''
as $$
  update private.pos_catalog_blocks b
     set body_stale = b.body_stale or _body, price_stale = true,
         body_rev = case when _body then nextval('private.pos_catalog_rev') else b.body_rev end,
         price_rev = nextval('private.pos_catalog_rev')
    from (select distinct x.business_id, private.pos_pack_block_of(x.id, p.bits) as n
            from unnest(_businesses, _ids) as x (business_id, id)
            join private.pos_catalog_packs p on p.business_id = x.business_id) t
   where b.business_id = t.business_id and b.n = t.n;
$$;
revoke all on function private.pos_pack_mark(uuid[],uuid[],boolean) from public;

-- After a statement that changed a quarter or more of a block's variants (a bulk price change, an import), the block
-- is rebuilt at once, in that statement: the writer of a bulk change pays for it (~70 ms a block of 8,192 prices at
-- 1,000,000 variants on PGlite), not the first register to load afterwards (128 blocks, ~9 s). A few scattered
-- changes leave their blocks stale, rebuilt on the next read (pos_catalog_block).
create or replace function private.pos_pack_refresh_bulk(_businesses uuid[], _ids uuid[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v record;
begin
  for v in
    select t.business_id, t.n
      from (select x.business_id, private.pos_pack_block_of(x.id, p.bits) as n, count(*) as changed
              from unnest(_businesses, _ids) as x (business_id, id)
              join private.pos_catalog_packs p on p.business_id = x.business_id
             group by 1, 2) t
      join private.pos_catalog_blocks b on b.business_id = t.business_id and b.n = t.n
     where t.changed * 4 >= greatest(b.items, 1) and (b.body_stale or b.price_stale)
     order by 1, 2
  loop
    perform private.pos_pack_refresh(v.business_id, v.n);
  end loop;
end;
$$;
revoke all on function private.pos_pack_refresh_bulk(uuid[],uuid[]) from public;

-- The triggers: one statement's rows at a time (a bulk change of 62,500 variants marks its 8 blocks once).
create or replace function private.pos_pack_variants_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.pos_pack_mark(array(select n.business_id from new_rows n), array(select n.id from new_rows n), true);
    perform private.pos_pack_refresh_bulk(array(select n.business_id from new_rows n), array(select n.id from new_rows n));
  elsif tg_op = 'DELETE' then
    perform private.pos_pack_mark(array(select o.business_id from old_rows o), array(select o.id from old_rows o), true);
    perform private.pos_pack_refresh_bulk(array(select o.business_id from old_rows o), array(select o.id from old_rows o));
  else
    -- What the register shows of a variant besides its price: a change there re-sends the block's body; a price
    -- alone re-sends the block's prices.
    perform private.pos_pack_mark(array_agg(n.business_id), array_agg(n.id), true)
       from new_rows n join old_rows o on o.id = n.id
      where (o.product_id, o.option1, o.option2, o.option3, o.sku, o.archived_at, o.business_id)
            is distinct from (n.product_id, n.option1, n.option2, n.option3, n.sku, n.archived_at, n.business_id);
    perform private.pos_pack_mark(array_agg(n.business_id), array_agg(n.id), false)
       from new_rows n join old_rows o on o.id = n.id
      where o.price is distinct from n.price
        and (o.product_id, o.option1, o.option2, o.option3, o.sku, o.archived_at, o.business_id)
            is not distinct from (n.product_id, n.option1, n.option2, n.option3, n.sku, n.archived_at, n.business_id);
    perform private.pos_pack_refresh_bulk(array(select n.business_id from new_rows n), array(select n.id from new_rows n));
  end if;
  return null;
end;
$$;
revoke all on function private.pos_pack_variants_changed() from public;

create or replace function private.pos_pack_products_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- What the register shows of a product: its name, tax, unit, lots and archiving.
  perform private.pos_pack_mark(array_agg(v.business_id), array_agg(v.id), true)
     from new_rows n join old_rows o on o.id = n.id
     join public.variants v on v.product_id = n.id
    where (o.name, o.tax_rate, o.unit, o.has_lots, o.archived_at) is distinct from (n.name, n.tax_rate, n.unit, n.has_lots, n.archived_at);
  return null;
end;
$$;
revoke all on function private.pos_pack_products_changed() from public;

create or replace function private.pos_pack_barcodes_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('INSERT', 'UPDATE') then
    perform private.pos_pack_mark(array(select n.business_id from new_rows n), array(select n.variant_id from new_rows n), true);
  end if;
  if tg_op in ('DELETE', 'UPDATE') then
    perform private.pos_pack_mark(array(select o.business_id from old_rows o), array(select o.variant_id from old_rows o), true);
  end if;
  return null;
end;
$$;
revoke all on function private.pos_pack_barcodes_changed() from public;

-- The register's first call of a load: how the business's catalog is cut, each block's revisions and size, and the
-- store's default tax. Cuts the catalog on the first call, and again once it has grown or shrunk past twice the
-- blocks' size (the register then sees new `bits` and loads every block). Owners, managers and cashiers of the store.
create or replace function public.pos_catalog_blocks(_store_id uuid)
returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
  v_bits int;
  v_items bigint;
  v_stale boolean;
begin
  select p.bits into v_bits from private.pos_catalog_packs p where p.business_id = v_business;
  if v_bits is null then
    v_bits := private.pos_pack_init(v_business);
  else
    -- The blocks' sizes say how large the catalog is without counting it, once every body is built.
    select sum(b.items), bool_or(b.body_stale) into v_items, v_stale
      from private.pos_catalog_blocks b where b.business_id = v_business;
    if not v_stale and abs(private.pos_pack_bits(v_items) - v_bits) >= 2 then
      v_bits := private.pos_pack_init(v_business);
    end if;
  end if;
  return json_build_object(
    'bits', v_bits,
    'default_tax_rate', (select s.default_tax_rate from public.stores s where s.id = _store_id),
    'blocks', (select coalesce(json_agg(json_build_array(b.n, b.body_rev, b.price_rev, b.items) order by b.n), '[]')
                 from private.pos_catalog_blocks b where b.business_id = v_business));
end;
$$;
comment on function public.pos_catalog_blocks(uuid) is 'The register''s packed catalog (ADR 0445): how the business''s catalog is cut, each block''s revisions and size, the store''s default tax. Owners, managers and cashiers of the store.';
revoke all on function public.pos_catalog_blocks(uuid) from public;
grant execute on function public.pos_catalog_blocks(uuid) to authenticated;

-- One block of the packed catalog, rebuilt first if a change made it stale. `_bits` is the cut the register holds:
-- after a new cut the answer's `bits` differs and carries no block (the register loads again). `_body` false
-- sends the prices alone (the register has the body at this body_rev). Owners, managers and cashiers of the store.
create or replace function public.pos_catalog_block(_store_id uuid, _n integer, _bits integer, _body boolean default true)
returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
  v_bits int;
  v_block private.pos_catalog_blocks;
begin
  select p.bits into v_bits from private.pos_catalog_packs p where p.business_id = v_business;
  if v_bits is distinct from _bits then
    return json_build_object('bits', v_bits);
  end if;
  if _n is null or _n < 0 or _n >= (1 << v_bits) then
    raise exception 'no such block' using errcode = '22023';
  end if;
  perform private.pos_pack_refresh(v_business, _n);
  select b.* into v_block from private.pos_catalog_blocks b where b.business_id = v_business and b.n = _n;
  return json_build_object('bits', v_bits, 'n', _n, 'body_rev', v_block.body_rev, 'price_rev', v_block.price_rev,
                           'items', v_block.items, 'body', case when coalesce(_body, true) then v_block.body end,
                           'prices', v_block.prices);
end;
$$;
comment on function public.pos_catalog_block(uuid,integer,integer,boolean) is 'One block of the register''s packed catalog (ADR 0445), rebuilt first when stale; the prices alone when _body is false. Owners, managers and cashiers of the store.';
revoke all on function public.pos_catalog_block(uuid,integer,integer,boolean) from public;
grant execute on function public.pos_catalog_block(uuid,integer,integer,boolean) to authenticated;

-- The prices alone of several blocks in one answer (a json array of {n, price_rev, prices}), each rebuilt first when
-- stale: after a bulk price change the register needs every block's prices, and one call per block was ~128 round
-- trips through a database that answers one at a time. At most 256 blocks a call; `_bits` as in pos_catalog_block
-- (another cut answers an empty array). Owners, managers and cashiers of the store.
create or replace function public.pos_catalog_block_prices(_store_id uuid, _bits integer, _ns integer[])
returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
  v_bits int;
  v_n int;
begin
  select p.bits into v_bits from private.pos_catalog_packs p where p.business_id = v_business;
  if v_bits is distinct from _bits then
    return '[]'::json;
  end if;
  if _ns is null or cardinality(_ns) > 256 or exists (select 1 from unnest(_ns) n where n is null or n < 0 or n >= (1 << v_bits)) then
    raise exception 'block numbers: 1 to 256 blocks of this cut' using errcode = '22023';
  end if;
  foreach v_n in array _ns loop
    perform private.pos_pack_refresh(v_business, v_n);
  end loop;
  return (select coalesce(json_agg(json_build_object('n', b.n, 'price_rev', b.price_rev, 'prices', b.prices) order by b.n), '[]')
            from private.pos_catalog_blocks b where b.business_id = v_business and b.n = any (_ns));
end;
$$;
comment on function public.pos_catalog_block_prices(uuid,integer,integer[]) is 'The prices of several blocks of the register''s packed catalog in one answer (ADR 0445), each rebuilt first when stale. Owners, managers and cashiers of the store.';
revoke all on function public.pos_catalog_block_prices(uuid,integer,integer[]) from public;
grant execute on function public.pos_catalog_block_prices(uuid,integer,integer[]) to authenticated;

-- The store's own prices, apart from the business's blocks: every one (a removed price is a variant missing here),
-- as two arrays. Owners, managers and cashiers of the store.
create or replace function public.pos_catalog_store_prices(_store_id uuid)
returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
begin
  return (select json_build_object('ids', coalesce(json_agg(sp.variant_id order by sp.variant_id), '[]'),
                                   'prices', coalesce(json_agg(sp.price order by sp.variant_id), '[]'))
            from public.store_prices sp where sp.store_id = _store_id and sp.business_id = v_business);
end;
$$;
comment on function public.pos_catalog_store_prices(uuid) is 'The store''s own prices for the register''s packed catalog (ADR 0445), as two arrays. Owners, managers and cashiers of the store.';
revoke all on function public.pos_catalog_store_prices(uuid) from public;
grant execute on function public.pos_catalog_store_prices(uuid) to authenticated;

-- ==== Triggers ============================================================================================

create trigger customers_set_updated_at before update on public.customers
  for each row execute function public.set_updated_at();

create trigger audit_customer after insert or update or delete on public.customers
  for each row execute function private.audit_row('customer');

create trigger read_only_guard before insert or update or delete on private.register_counters
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.cash_movements
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.customers
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.pos_approvals
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.refund_lines
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.refunds
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.sale_line_costs
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.sale_line_serials
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.sale_lines
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.sale_tenders
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.sales
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.shifts
  for each statement execute function private.read_only_guard();

create trigger staff_pin_forget_on_promotion after update of role on public.business_members
  for each row when (old.role = 'cashier' and new.role is distinct from 'cashier')
  execute function private.staff_pin_forget_on_promotion();

create trigger read_only_guard before insert or update or delete on public.sale_line_lots
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.sale_line_prescriptions
  for each statement execute function private.read_only_guard();

create trigger audit_exchange_rate after insert or update or delete on public.exchange_rates
  for each row execute function private.audit_row('exchange_rate');

create trigger read_only_guard before insert or update or delete on public.exchange_rates
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.refund_line_lots
  for each statement execute function private.read_only_guard();

create trigger refund_lines_variant before insert on public.refund_lines
  for each row execute function private.refund_lines_variant();

create trigger pos_pack_variants_inserted after insert on public.variants
  referencing new table as new_rows for each statement execute function private.pos_pack_variants_changed();

create trigger pos_pack_variants_updated after update on public.variants
  referencing old table as old_rows new table as new_rows for each statement execute function private.pos_pack_variants_changed();

create trigger pos_pack_variants_deleted after delete on public.variants
  referencing old table as old_rows for each statement execute function private.pos_pack_variants_changed();

create trigger pos_pack_products_updated after update on public.products
  referencing old table as old_rows new table as new_rows for each statement execute function private.pos_pack_products_changed();

create trigger pos_pack_barcodes_inserted after insert on public.barcodes
  referencing new table as new_rows for each statement execute function private.pos_pack_barcodes_changed();

create trigger pos_pack_barcodes_updated after update on public.barcodes
  referencing old table as old_rows new table as new_rows for each statement execute function private.pos_pack_barcodes_changed();

create trigger pos_pack_barcodes_deleted after delete on public.barcodes
  referencing old table as old_rows for each statement execute function private.pos_pack_barcodes_changed();

-- ==== Policies ============================================================================================

create policy "shifts: owners and managers in their stores, cashiers their own" on public.shifts for select to authenticated
  using ((((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager'])))) or (id in (select private.my_shift_ids())));

create policy "cash_movements: owners and managers in their stores, cashiers t" on public.cash_movements for select to authenticated
  using ((((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager'])))) or (shift_id in (select private.my_shift_ids())));

create policy "customers: members read" on public.customers for select to authenticated
  using (business_id in (select private.my_business_ids()));

create policy "customers: members create" on public.customers for insert to authenticated
  with check (business_id in (select private.my_business_ids()));

create policy "customers: owners and managers edit" on public.customers for update to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])))
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "customers: owners and managers delete" on public.customers for delete to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "pos_approvals: owners and managers read in their stores" on public.pos_approvals for select to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "sales: owners and managers in their stores, cashiers their own " on public.sales for select to authenticated
  using ((((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager'])))) or (id in (select private.my_rung_sale_ids())));

create policy "sale_lines: owners and managers in their stores, cashiers their" on public.sale_lines for select to authenticated
  using ((((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager'])))) or (sale_id in (select private.my_rung_sale_ids())));

create policy "sale_line_costs: owners and managers read in their stores" on public.sale_line_costs for select to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "sale_tenders: owners and managers in their stores, cashiers the" on public.sale_tenders for select to authenticated
  using ((((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager'])))) or (sale_id in (select private.my_rung_sale_ids())));

create policy "refunds: owners and managers in their stores, cashiers their ow" on public.refunds for select to authenticated
  using ((((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager'])))) or (shift_id in (select private.my_shift_ids())));

create policy "refund_lines: readers of the refund" on public.refund_lines for select to authenticated
  using (((business_id in (select private.my_full_access_business_ids()))
          and (business_id in (select private.my_business_ids(array['owner', 'manager']))))
         or (refund_id in (select f.id from public.refunds f)));

create policy "sale_line_serials: readers of the sale" on public.sale_line_serials for select to authenticated
  using ((((business_id in (select private.my_full_access_business_ids())) or (sale_id in (select s.id from public.sales s where s.store_id in (select private.my_listed_store_ids())))) and (business_id in (select private.my_business_ids(array['owner', 'manager'])))) or (sale_id in (select private.my_rung_sale_ids())));

create policy "till_switches: owners and managers in their stores, staff their" on public.till_switches for select to authenticated
  using ((((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager'])))) or (user_id = (select auth.uid())) or (signed_in_user_id = (select auth.uid())));

create policy "register_sync_states: owners and managers of the store read" on public.register_sync_states
  for select to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids())))
         and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "sale_line_lots: readers of the sale line" on public.sale_line_lots for select to authenticated
  using (exists (select 1 from public.sale_lines sl where sl.id = sale_line_id));

create policy "sale_line_prescriptions: owners and managers in their stores, c" on public.sale_line_prescriptions for select to authenticated
  using ((((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager'])))) or (sale_id in (select private.my_rung_sale_ids())));

create policy "exchange_rates: members read" on public.exchange_rates for select to authenticated
  using (business_id in (select private.my_business_ids()));

create policy "refund_line_lots: readers of the refund line" on public.refund_line_lots for select to authenticated
  using (exists (select 1 from public.refund_lines rl where rl.id = refund_line_id));
