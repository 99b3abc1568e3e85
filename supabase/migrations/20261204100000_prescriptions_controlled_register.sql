-- Pharmacy: prescriptions and the controlled-substance register (issue 29, ADR 0390). Records that help a pharmacy
-- keep its books; nothing here verifies a prescription with a prescriber or a registry.
--
-- - products.prescription_only: a sale line of such an item names its prescription (prescriber, number, date
--   written, refills remaining of authorised), kept in sale_line_prescriptions (personal: the prescriber is named;
--   owners and managers of the store read them, a cashier the sales they rang). post_sale refuses the line without
--   one (22023); an offline sale is kept and flagged prescription_missing:<line>, as the other offline rules do.
--   post_sale_core is its latest definition (20261203070000) with one call added, private.record_sale_prescriptions.
--   Refunds need no prescription.
-- - products.controlled: controlled_register(store, item) is the item's stock ledger at the store with the running
--   balance, each movement as received, sold, refunded, transferred, counted, adjusted, damaged or destroyed, who,
--   the witness of a destruction and the prescription number of a sale. Owners and managers of the store.
-- - destroy_controlled_stock: takes destroyed stock out as a 'damage' movement with the new reason 'destroyed',
--   through apply_movement like every adjustment, named by its controlled_destructions row (reference_type
--   'destruction'); a witness who may use the store, not the person destroying, confirms with their till PIN. A wrong
--   PIN is answered ok:false (the lockout counter is kept), like approve_with_pin.

alter table public.products add column prescription_only boolean default false not null;
alter table public.products add column controlled boolean default false not null;
comment on column public.products.prescription_only is 'Sold only with a prescription recorded on the sale line (sale_line_prescriptions); post_sale refuses the line without one (ADR 0390).';
comment on column public.products.controlled is 'A controlled substance: its movements form the controlled register (controlled_register) and it is destroyed only with a witness (destroy_controlled_stock).';
grant insert (prescription_only, controlled) on table public.products to authenticated;
grant update (prescription_only, controlled) on table public.products to authenticated;

alter table public.stock_movements drop constraint stock_movements_reason_check;
alter table public.stock_movements add constraint stock_movements_reason_check
  check (reason = any (array['damaged', 'lost', 'theft', 'found', 'correction', 'count', 'expired', 'destroyed']));
alter table public.stock_movements drop constraint stock_movements_reference_type_check;
alter table public.stock_movements add constraint stock_movements_reference_type_check
  check (reference_type = any (array['purchase_order', 'transfer', 'sale', 'refund', 'import', 'destruction']));

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
  constraint sale_line_prescriptions_prescriber_check check (char_length(btrim(prescriber)) between 2 and 120),
  constraint sale_line_prescriptions_number_check check (char_length(btrim(prescription_number)) between 1 and 40),
  constraint sale_line_prescriptions_refills_authorised_check check (refills_authorised between 0 and 99),
  constraint sale_line_prescriptions_refills_remaining_check check (refills_remaining between 0 and refills_authorised),
  constraint sale_line_prescriptions_sale_line_id_business_id_fkey foreign key (sale_line_id, business_id)
    references public.sale_lines(id, business_id) on delete cascade,
  constraint sale_line_prescriptions_sale_id_business_id_fkey foreign key (sale_id, business_id)
    references public.sales(id, business_id) on delete cascade,
  constraint sale_line_prescriptions_store_id_business_id_fkey foreign key (store_id, business_id)
    references public.stores(id, business_id) on delete cascade
);
alter table public.sale_line_prescriptions enable row level security;
comment on table public.sale_line_prescriptions is 'The prescription a sale line was sold on (prescription-only items): prescriber, number, date written, refills. Personal (names a prescriber, for a patient). Owners and managers of the store read, a cashier the sales they rang; written only by post_sale (ADR 0390).';
grant select on table public.sale_line_prescriptions to authenticated;
grant select on table public.sale_line_prescriptions to service_role;
create index sale_line_prescriptions_sale_idx on public.sale_line_prescriptions (sale_id, business_id);
create index sale_line_prescriptions_line_business_idx on public.sale_line_prescriptions (sale_line_id, business_id);
create index sale_line_prescriptions_store_idx on public.sale_line_prescriptions (store_id, business_id);
create index sale_line_prescriptions_number_idx on public.sale_line_prescriptions (business_id, prescription_number);
create policy "sale_line_prescriptions: owners and managers in their stores, cas" on public.sale_line_prescriptions
  for select to authenticated
  using ((((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids())))
          and (business_id in (select private.my_business_ids(array['owner', 'manager']))))
         or (sale_id in (select private.my_rung_sale_ids())));
create trigger read_only_guard before insert or update or delete on public.sale_line_prescriptions
  for each statement execute function private.read_only_guard();

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
  constraint controlled_destructions_qty_check check (qty > 0),
  constraint controlled_destructions_witness_not_self check (witness_id <> destroyed_by),
  constraint controlled_destructions_store_id_business_id_fkey foreign key (store_id, business_id)
    references public.stores(id, business_id) on delete cascade,
  constraint controlled_destructions_variant_id_business_id_fkey foreign key (variant_id, business_id)
    references public.variants(id, business_id) on delete cascade,
  constraint controlled_destructions_lot_id_fkey foreign key (lot_id) references public.lots(id),
  constraint controlled_destructions_destroyed_by_fkey foreign key (destroyed_by) references auth.users(id) on delete set null,
  constraint controlled_destructions_witness_id_fkey foreign key (witness_id) references auth.users(id) on delete set null
);
alter table public.controlled_destructions enable row level security;
comment on table public.controlled_destructions is 'Controlled stock destroyed: who destroyed it and the witness (another member of staff who confirmed with their PIN). The ledger''s damage movement (reason destroyed) names the row. Owners and managers of the store read; written only by destroy_controlled_stock (ADR 0390).';
grant select on table public.controlled_destructions to authenticated;
grant select on table public.controlled_destructions to service_role;
create index controlled_destructions_store_idx on public.controlled_destructions (store_id, business_id);
create index controlled_destructions_variant_idx on public.controlled_destructions (variant_id, business_id);
create index controlled_destructions_lot_idx on public.controlled_destructions (lot_id);
create index controlled_destructions_destroyed_by_idx on public.controlled_destructions (destroyed_by);
create index controlled_destructions_witness_idx on public.controlled_destructions (witness_id);
create policy "controlled_destructions: owners and managers read in their stor" on public.controlled_destructions
  for select to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids())))
         and (business_id in (select private.my_business_ids(array['owner', 'manager']))));
create trigger read_only_guard before insert or update or delete on public.controlled_destructions
  for each statement execute function private.read_only_guard();

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

-- post_sale_core as in 20261203070000_lots_fefo_recalls, every rule kept, with one call added: the prescriptions.
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

  perform private.insert_sale_rows(o_id, v_business, v_store.id, v_lots.o_lines, v_paid.o_tenders);
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
revoke all on function public.controlled_register(uuid,uuid,integer) from public, anon;
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
revoke all on function public.destroy_controlled_stock(uuid,uuid,numeric,uuid,text,uuid,text) from public, anon;
grant execute on function public.destroy_controlled_stock(uuid,uuid,numeric,uuid,text,uuid,text) to authenticated;
