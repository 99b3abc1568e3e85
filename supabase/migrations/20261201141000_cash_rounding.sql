-- Cash rounding per store (issue 29, ADR 0251): where the smallest coins are gone (Switzerland's 0.05, Sweden's
-- whole krona), what a customer pays in cash is rounded to the store's step; card and other tenders pay exact.
-- The sale keeps its exact total (its lines still add up, ADR 0171) and the rounding as its own amount
-- (sales.cash_rounding), so the tenders pay total + cash_rounding. A cash refund is rounded the same way, counted
-- over the sale's refunds so far so that refunding a sale in parts pays back what refunding it at once would.
-- The drawer (shift_figures, the Z report) counts cash tenders and cash refunds with their rounding.
-- The step is in the currency's minor units, so a 0-decimal currency (JPY step 10) and a 3-decimal one (KWD
-- step 5 = 0.005) need nothing special. shared/features/pos/cash-rounding.ts is the register's copy of the rule.
-- post_sale_core, post_refund, shift_figures and z_report are their latest definitions with only the lines that
-- call the two helpers below changed.

alter table public.stores add column cash_rounding_step bigint default 0 not null;
alter table public.stores add constraint stores_cash_rounding_step_range check (cash_rounding_step >= 0 and cash_rounding_step <= 100000);
comment on column public.stores.cash_rounding_step is 'Cash is paid in multiples of this many minor units (5 = CHF 0.05; 0 = exact). Owners and managers set it with the store''s settings.';
grant insert (cash_rounding_step) on table public.stores to authenticated;
grant update (cash_rounding_step) on table public.stores to authenticated;

alter table public.sales add column cash_rounding bigint default 0 not null;
alter table public.sales add constraint sales_cash_rounding_range check (cash_rounding >= -100000 and cash_rounding <= 100000);
comment on column public.sales.cash_rounding is 'What rounding cash to the store''s step added to the total (negative: taken off); the tenders pay total + cash_rounding.';

alter table public.refunds add column cash_rounding bigint default 0 not null;
alter table public.refunds add constraint refunds_cash_rounding_range check (cash_rounding >= -100000 and cash_rounding <= 100000);
comment on column public.refunds.cash_rounding is 'What rounding a cash refund to the store''s step added to its total: the drawer pays out total + cash_rounding.';

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

  if nullif(_payload ->> 'approval_id', '') ~* v_uuid then
    v_approval_id := (_payload ->> 'approval_id')::uuid;
  end if;
  select * into v_priced
    from private.sale_lines_priced(_payload -> 'lines', v_business, v_store, o_id, v_offline, v_role, v_approval_id);
  v_reasons := v_reasons || v_priced.o_reasons;

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
                            change_total, review_reasons, offline, approval_id, occurred_at, cash_rounding)
  values (o_id, v_business, v_store.id, v_register.id, v_terms.o_shift_id, (select auth.uid()), v_customer, o_receipt,
          v_store.currency, v_store.tax_inclusive, v_priced.o_subtotal, v_priced.o_discounts, v_priced.o_taxes,
          v_priced.o_total, v_paid.o_tendered, v_paid.o_change, v_reasons, v_offline, v_priced.o_approval_id,
          v_terms.o_occurred, v_rounding)
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

  perform private.insert_sale_rows(o_id, v_business, v_store.id, v_priced.o_lines, v_paid.o_tenders);
  v_negative := private.sale_stock_movements(v_business, v_store.id, o_id, o_receipt, v_terms.o_occurred, v_priced.o_lines);
  if cardinality(v_negative) > 0 then
    v_reasons := v_reasons || v_negative;
    update public.sales s set review_reasons = v_reasons where s.id = o_id;
  end if;

  perform private.log_activity(v_business, v_store.id, 'sale.posted', 'sale', o_id, null,
    jsonb_build_object('receipt_number', o_receipt, 'total', v_priced.o_total, 'cash_rounding', v_rounding,
                       'offline', v_offline,
                       'review_reasons', to_jsonb(v_reasons), 'approval_id', v_priced.o_approval_id)
    || case when _payload ? 'occurred_at' then jsonb_build_object('register_occurred_at', _payload -> 'occurred_at')
            else '{}'::jsonb end);
end;
$$;
revoke all on function private.post_sale_core(jsonb) from public;

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
              'lines', (select jsonb_agg(to_jsonb(l)) from public.refund_lines l where l.refund_id = f.id))
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
                              tender_kind, total, reason, offline, occurred_at)
  select v_id, v_business, v_sale.store_id, v_sale.id, s.register_id, s.id, (select auth.uid()), v_approval.id,
         v_tender, 0, nullif(btrim(coalesce(_payload ->> 'reason', '')), ''), v_offline, v_terms.o_occurred
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
    values (v_business, v_id, m.id, v_qty, v_amount, m.disp);
    v_total := v_total + v_amount;
    if m.disp = 'restock' and (v_sl ->> 'track_stock')::boolean then
      perform private.apply_movement(v_business, v_sale.store_id, (v_sl ->> 'variant_id')::uuid,
        (v_sl ->> 'lot_id')::uuid, 'refund', v_qty, null, (v_sl ->> 'cost')::bigint, v_terms.o_occurred, 'refund', v_id,
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
  perform private.log_activity(v_business, v_sale.store_id, 'refund.posted', 'refund', v_id, null,
    jsonb_build_object('sale_id', v_sale.id, 'receipt_number', v_sale.receipt_number, 'total', v_total,
                       'cash_rounding', v_rounding,
                       'tender_kind', v_tender, 'approval_id', v_approval.id, 'offline', v_offline,
                       'shift_id', v_terms.o_shift_id, 'review_reasons', to_jsonb(v_reasons))
    || case when _payload ? 'occurred_at' then jsonb_build_object('register_occurred_at', _payload -> 'occurred_at')
            else '{}'::jsonb end);
  return (select to_jsonb(f) || jsonb_build_object('replayed', false,
            'lines', (select jsonb_agg(to_jsonb(l)) from public.refund_lines l where l.refund_id = f.id))
            from public.refunds f where f.id = v_id);
end;
$$;
revoke all on function public.post_refund(jsonb) from public;
grant execute on function public.post_refund(jsonb) to authenticated;

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
    'expected_cash', s.opening_float + coalesce((select amount from te where kind = 'cash'), 0) - re.cash
                     + cm.cash_in - cm.cash_out,
    'counted', s.counted, 'counted_total', s.counted_total, 'difference', s.difference)
  from s, sa, re, cm;
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
                     coalesce(sum((select coalesce(sum(t.amount), 0) from public.sale_tenders t
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
