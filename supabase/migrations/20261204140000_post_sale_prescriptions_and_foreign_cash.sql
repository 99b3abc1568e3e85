-- post_sale_core with both of the day's additions (ADR 0390 and ADR 0395).
--
-- The prescriptions migration (20261204100000) and the foreign cash migration (20261204110000) each restated
-- post_sale_core from 20261203070000 with their own change; the later one would drop the prescription check. This is
-- the foreign cash definition with the prescriptions call put back, unchanged otherwise.

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
