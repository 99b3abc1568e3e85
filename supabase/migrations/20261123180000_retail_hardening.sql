-- Retail hardening after an attacker's pass over HTTP (tests/db/retail-attacks.test.ts). Each function below is
-- re-created from its latest definition with one minimal change; signatures, grants and callers are unchanged
-- (create or replace keeps the existing grants: post_sale, post_refund, send_transfer and receive_transfer execute for
-- authenticated only, create_reorder_purchase_order as before).
--
-- * post_refund: the refunded quantity follows the item's quantity rules (private.assert_quantity): a refund of
--   half a tee marked damaged (no stock movement, so the ledger's check never ran) paid out half the line.
-- * send_transfer, receive_transfer: at most 1000 lines, like a purchase order; a request just under the
--   gateway's 1 MB limit carried ~15,000 lines that were each processed (or, for receive_transfer, each scanned
--   per transfer line) before any refusal.
-- * create_reorder_purchase_order (security invoker, so it cannot call private.assert_quantity): the quantity
--   has at most 3 decimals, is a whole number for items sold by the piece and is below 1,000,000,000; half a
--   tee was ordered and the order could then never be received.
-- * post_sale and post_refund replays: a retry with the id of a sale (or refund) of ANOTHER STORE of the same
--   business returned that sale (lines, tenders, totals) to a member limited to their own store; now 42501, as
--   for another business. (Ids are uuids, so this needed a leaked id: defence in depth.)

-- Post a sale (20261122140000_pos), a replay only within the register's store.
create or replace function public.post_sale(_payload jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id uuid;
  v_offline boolean;
  v_register public.registers;
  v_store public.stores;
  v_business uuid;
  v_role text;
  v_uid uuid := (select auth.uid());
  v_existing public.sales;
  v_shift public.shifts;
  v_reasons text[] := '{}';
  v_occurred timestamptz;
  v_seq bigint;
  v_receipt text;
  v_customer uuid;
  v_approval public.pos_approvals;
  v_approval_id uuid;
  v_max_pct numeric := 0;
  v_line jsonb;
  v_n int := 0;
  v_lines jsonb := '[]';
  v_variant record;
  v_qty numeric;
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
  v_subtotal bigint := 0;
  v_discounts bigint := 0;
  v_taxes bigint := 0;
  v_total bigint := 0;
  v_paid bigint := 0;
  v_tendered_total bigint := 0;
  v_change_total bigint := 0;
  v_tender jsonb;
  v_tenders jsonb := '[]';
  v_kind text;
  v_amount bigint;
  v_tendered bigint;
  v_change bigint;
  v_line_id uuid;
  v_balance numeric;
  v_mv record;
begin
  if jsonb_typeof(_payload) is distinct from 'object' then
    raise exception 'send the sale as an object' using errcode = '22023';
  end if;
  if coalesce(_payload ->> 'id', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    raise exception 'a sale needs its register-generated id (a uuid)' using errcode = '22023';
  end if;
  if coalesce(_payload ->> 'register_id', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    raise exception 'choose a register' using errcode = '22023';
  end if;
  v_id := (_payload ->> 'id')::uuid;
  v_offline := coalesce(_payload ->> 'offline', 'false') = 'true';

  select r.* into v_register from public.registers r where r.id = (_payload ->> 'register_id')::uuid;
  if v_register.id is null then
    raise exception 'no such register' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_register.store_id, array['owner', 'manager', 'cashier']);
  v_role := private.my_role(v_business);

  -- A retry: the first result, nothing written twice.
  select s.* into v_existing from public.sales s where s.id = v_id;
  if v_existing.id is not null then
    -- Another store's sale of the business is no replay either: its lines and tenders are not the caller's.
    if v_existing.business_id <> v_business or v_existing.store_id <> v_register.store_id then
      raise exception 'permission denied: this sale id belongs to another business or store' using errcode = '42501';
    end if;
    return private.sale_json(v_id) || jsonb_build_object('replayed', true);
  end if;

  select s.* into v_store from public.stores s where s.id = v_register.store_id;
  if v_register.archived_at is not null then
    if not v_offline then
      raise exception 'this register is archived' using errcode = '22023';
    end if;
    v_reasons := array_append(v_reasons, 'register_archived'::text);
  end if;

  -- The shift: open on this register (an offline sale may arrive after its shift closed: flagged).
  if coalesce(_payload ->> 'shift_id', '') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    select s.* into v_shift from public.shifts s where s.id = (_payload ->> 'shift_id')::uuid and s.register_id = v_register.id;
  end if;
  if v_shift.id is null or v_shift.closed_at is not null then
    if not v_offline then
      raise exception 'open a shift on this register first' using errcode = '22023';
    end if;
    v_reasons := array_append(v_reasons, 'no_open_shift'::text);
  end if;

  v_occurred := now();
  if _payload ? 'occurred_at' and jsonb_typeof(_payload -> 'occurred_at') = 'string' then
    begin
      v_occurred := (_payload ->> 'occurred_at')::timestamptz;
    exception when others then
      raise exception 'occurred_at is not a date and time' using errcode = '22023';
    end;
    if v_occurred > now() + interval '5 minutes' then
      v_reasons := array_append(v_reasons, 'clock_ahead'::text);
      v_occurred := now();
    end if;
  end if;

  if nullif(_payload ->> 'customer_id', '') is not null then
    select c.id into v_customer from public.customers c
     where c.id::text = (_payload ->> 'customer_id') and c.business_id = v_business;
    if v_customer is null then
      if not v_offline then
        raise exception 'no such customer in this business' using errcode = '22023';
      end if;
      v_reasons := array_append(v_reasons, 'unknown_customer'::text);
    end if;
  end if;

  v_max_pct := private.discount_limit_percent(v_role);
  if nullif(_payload ->> 'approval_id', '') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    v_approval_id := (_payload ->> 'approval_id')::uuid;
  end if;

  -- Lines: price and tax from the catalog.
  if jsonb_typeof(_payload -> 'lines') is distinct from 'array' or jsonb_array_length(_payload -> 'lines') = 0 then
    raise exception 'a sale has at least one line' using errcode = '22023';
  elsif jsonb_array_length(_payload -> 'lines') > 500 then
    raise exception 'a sale has at most 500 lines' using errcode = '22023';
  end if;
  for v_line in select value from jsonb_array_elements(_payload -> 'lines') loop
    v_n := v_n + 1;
    if jsonb_typeof(v_line) <> 'object'
       or coalesce(v_line ->> 'variant_id', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      raise exception 'line %: choose an item', v_n using errcode = '22023';
    end if;
    if jsonb_typeof(v_line -> 'qty') <> 'number' or (v_line ->> 'qty')::numeric <= 0 then
      raise exception 'line %: enter a quantity above zero', v_n using errcode = '22023';
    end if;
    v_qty := (v_line ->> 'qty')::numeric;
    select v.id, v.sku, v.price, p.name, p.tax_rate, p.track_stock, p.has_lots, v.option1, v.option2, v.option3,
           sp.price as store_price, coalesce(c.cost, 0) as cost
      into v_variant
      from public.variants v
      join public.products p on p.id = v.product_id
      left join public.store_prices sp on sp.store_id = v_store.id and sp.variant_id = v.id
      left join public.variant_costs c on c.variant_id = v.id
     where v.id = (v_line ->> 'variant_id')::uuid and v.business_id = v_business;
    if v_variant.id is null then
      raise exception 'line %: no such item in this business', v_n using errcode = '22023';
    end if;
    perform private.assert_quantity(v_variant.id, v_qty);
    v_price := coalesce(v_variant.store_price, v_variant.price);
    if v_line ? 'unit_price' then
      if jsonb_typeof(v_line -> 'unit_price') <> 'number' or (v_line ->> 'unit_price') !~ '^[0-9]{1,12}$' then
        raise exception 'line %: a price is a whole amount in minor units', v_n using errcode = '22023';
      end if;
      v_claimed := (v_line ->> 'unit_price')::bigint;
      if v_claimed <> v_price then
        if not v_offline then
          raise exception 'line %: the price % is not this item''s price (%): refresh the register', v_n, v_claimed, v_price
            using errcode = 'SW002';
        end if;
        -- Offline the register sold at the price it showed (maybe stale): keep it, flag it.
        v_reasons := array_append(v_reasons, ('price_mismatch:' || v_n)::text);
        v_price := v_claimed;
      end if;
    end if;
    v_discount := 0;
    if v_line ? 'discount' and jsonb_typeof(v_line -> 'discount') <> 'null' then
      if jsonb_typeof(v_line -> 'discount') <> 'number' or (v_line ->> 'discount') !~ '^[0-9]{1,12}$' then
        raise exception 'line %: a discount is a whole amount in minor units', v_n using errcode = '22023';
      end if;
      v_discount := (v_line ->> 'discount')::bigint;
    end if;
    v_gross := round(v_price * v_qty)::bigint;
    if v_discount > v_gross then
      raise exception 'line %: the discount is larger than the line', v_n using errcode = '22023';
    end if;
    v_pct := case when v_gross = 0 then 0 else v_discount * 100.0 / v_gross end;
    if v_pct > v_max_pct then
      if v_approval.id is null and v_approval_id is not null then
        v_approval := private.take_approval(v_approval_id, v_business, v_store.id, 'discount', v_id);
      end if;
      if v_approval.id is null or v_pct > v_approval.max_discount_percent then
        if not v_offline then
          raise exception 'line %: a discount of % percent is above your limit of % percent: ask a manager to approve it',
            v_n, round(v_pct, 1), v_max_pct using errcode = '42501';
        end if;
        v_reasons := array_append(v_reasons, ('discount_over_limit:' || v_n)::text);
      end if;
    end if;
    v_net := v_gross - v_discount;
    v_rate := coalesce(v_variant.tax_rate, v_store.default_tax_rate);
    -- Rounded per line, half away from zero, in minor units.
    if v_store.tax_inclusive then
      v_tax := round(v_net * v_rate / (100 + v_rate))::bigint;
      v_line_total := v_net;
    else
      v_tax := round(v_net * v_rate / 100)::bigint;
      v_line_total := v_net + v_tax;
    end if;
    v_lot := null;
    if v_variant.has_lots then
      if nullif(v_line ->> 'lot_id', '') is not null then
        select l.id into v_lot from public.lots l where l.id::text = (v_line ->> 'lot_id') and l.variant_id = v_variant.id;
      end if;
      if v_lot is null then
        -- First expiring lot with stock here, else the newest lot.
        select l.id into v_lot from public.lots l
          left join public.stock_balances b on b.lot_id = l.id and b.store_id = v_store.id
         where l.variant_id = v_variant.id
         order by (coalesce(b.qty, 0) > 0) desc, l.expires_on nulls last, l.created_at desc limit 1;
      end if;
      if v_lot is null then
        raise exception 'line %: this item is tracked by lot and has none yet: receive it first', v_n using errcode = '22023';
      end if;
    end if;
    v_subtotal := v_subtotal + v_gross;
    v_discounts := v_discounts + v_discount;
    v_taxes := v_taxes + v_tax;
    v_total := v_total + v_line_total;
    v_lines := v_lines || jsonb_build_object(
      'line_no', v_n, 'variant_id', v_variant.id, 'lot_id', v_lot, 'qty', v_qty, 'unit_price', v_price,
      'discount', v_discount, 'tax_rate', v_rate, 'tax_amount', v_tax, 'line_total', v_line_total,
      'cost', v_variant.cost, 'track_stock', v_variant.track_stock,
      'description', v_variant.name || coalesce(' ' || concat_ws(' / ', v_variant.option1, v_variant.option2, v_variant.option3), ''));
  end loop;

  -- Tenders.
  if jsonb_typeof(_payload -> 'tenders') is distinct from 'array' or jsonb_array_length(_payload -> 'tenders') = 0 then
    raise exception 'add how the sale was paid' using errcode = '22023';
  elsif jsonb_array_length(_payload -> 'tenders') > 10 then
    raise exception 'a sale has at most 10 tenders' using errcode = '22023';
  end if;
  for v_tender in select value from jsonb_array_elements(_payload -> 'tenders') loop
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
    v_change := v_tendered - v_amount;
    v_paid := v_paid + v_amount;
    v_tendered_total := v_tendered_total + v_tendered;
    v_change_total := v_change_total + v_change;
    v_tenders := v_tenders || jsonb_build_object('kind', v_kind, 'amount', v_amount, 'tendered', v_tendered, 'change', v_change);
  end loop;
  if v_paid <> v_total then
    if not v_offline then
      raise exception 'the tenders pay % but the sale totals %', v_paid, v_total using errcode = '22023',
        detail = format('total:%s', v_total);
    end if;
    v_reasons := array_append(v_reasons, 'tenders_mismatch'::text);
  end if;

  -- The receipt number: the register's own sequence when it sent one, else the next on the server.
  if jsonb_typeof(_payload -> 'receipt_seq') = 'number' and (_payload ->> 'receipt_seq') ~ '^[1-9][0-9]{0,11}$' then
    v_seq := (_payload ->> 'receipt_seq')::bigint;
    insert into private.register_counters as c (register_id, last_seq) values (v_register.id, v_seq)
    on conflict (register_id) do update set last_seq = greatest(c.last_seq, excluded.last_seq);
    if exists (select 1 from public.sales s where s.business_id = v_business
                and s.receipt_number = private.receipt_number(v_register.receipt_prefix, v_seq)) then
      v_seq := null;
      v_reasons := array_append(v_reasons, 'receipt_number_reassigned'::text);
    end if;
  end if;
  if v_seq is null then
    insert into private.register_counters as c (register_id, last_seq) values (v_register.id, 1)
    on conflict (register_id) do update set last_seq = c.last_seq + 1
    returning c.last_seq into v_seq;
  end if;
  v_receipt := private.receipt_number(v_register.receipt_prefix, v_seq);

  insert into public.sales (id, business_id, store_id, register_id, shift_id, cashier_id, customer_id, receipt_number,
                            currency, tax_inclusive, subtotal, discount_total, tax_total, total, tendered_total,
                            change_total, review_reasons, offline, approval_id, occurred_at)
  values (v_id, v_business, v_store.id, v_register.id, v_shift.id, v_uid, v_customer, v_receipt, v_store.currency,
          v_store.tax_inclusive, v_subtotal, v_discounts, v_taxes, v_total, v_tendered_total, v_change_total, v_reasons,
          v_offline, v_approval.id, v_occurred)
  on conflict (id) do nothing;
  if not found then
    -- A concurrent copy committed first: its result, nothing written by this one (the transaction still rolls
    -- back the counter bump and any approval taken above when it raises; here they are harmless).
    select s.* into v_existing from public.sales s where s.id = v_id;
    -- Another store's sale of the business is no replay either: its lines and tenders are not the caller's.
    if v_existing.business_id <> v_business or v_existing.store_id <> v_register.store_id then
      raise exception 'permission denied: this sale id belongs to another business or store' using errcode = '42501';
    end if;
    return private.sale_json(v_id) || jsonb_build_object('replayed', true);
  end if;

  for v_line in select value from jsonb_array_elements(v_lines) loop
    insert into public.sale_lines (business_id, store_id, sale_id, line_no, variant_id, lot_id, description, qty,
                                   unit_price, discount, tax_rate, tax_amount, line_total)
    values (v_business, v_store.id, v_id, (v_line ->> 'line_no')::int, (v_line ->> 'variant_id')::uuid,
            (v_line ->> 'lot_id')::uuid, v_line ->> 'description', (v_line ->> 'qty')::numeric,
            (v_line ->> 'unit_price')::bigint, (v_line ->> 'discount')::bigint, (v_line ->> 'tax_rate')::numeric,
            (v_line ->> 'tax_amount')::bigint, (v_line ->> 'line_total')::bigint)
    returning id into v_line_id;
    insert into public.sale_line_costs (sale_line_id, business_id, store_id, unit_cost)
    values (v_line_id, v_business, v_store.id, (v_line ->> 'cost')::bigint);
  end loop;
  insert into public.sale_tenders (business_id, store_id, sale_id, kind, amount, tendered, change)
  select v_business, v_store.id, v_id, t ->> 'kind', (t ->> 'amount')::bigint, (t ->> 'tendered')::bigint,
         (t ->> 'change')::bigint
    from jsonb_array_elements(v_tenders) t;

  -- Stock: one ledger row per line, in a fixed order (variant, lot) so concurrent sales cannot deadlock on the
  -- balance rows. Stock may go negative (never refuse a sale at the counter): flagged for the manager.
  for v_mv in select (l ->> 'variant_id')::uuid as variant_id, (l ->> 'lot_id')::uuid as lot_id,
                  sum((l ->> 'qty')::numeric) as qty, max((l ->> 'cost')::bigint) as cost
             from jsonb_array_elements(v_lines) l
            where (l ->> 'track_stock')::boolean
            group by 1, 2 order by 1, 2 loop
    v_balance := private.apply_movement(v_business, v_store.id, v_mv.variant_id, v_mv.lot_id, 'sale', -v_mv.qty, null, v_mv.cost,
                                        v_occurred, 'sale', v_id, v_receipt);
    if v_balance < 0 then
      v_reasons := array_append(v_reasons, ('negative_stock:' || v_mv.variant_id)::text);
    end if;
  end loop;
  if cardinality(v_reasons) > 0 then
    update public.sales s set review_reasons = v_reasons where s.id = v_id;
  end if;

  perform private.log_activity(v_business, v_store.id, 'sale.posted', 'sale', v_id, null,
    jsonb_build_object('receipt_number', v_receipt, 'total', v_total, 'offline', v_offline,
                       'review_reasons', to_jsonb(v_reasons), 'approval_id', v_approval.id));
  return private.sale_json(v_id) || jsonb_build_object('replayed', false);
end;
$$;

-- A refund against a sale (20261123130000_pos_more), the quantity checked by the item's rules.
create or replace function public.post_refund(_payload jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id uuid;
  v_sale public.sales;
  v_business uuid;
  v_role text;
  v_offline boolean;
  v_approval public.pos_approvals;
  v_shift uuid;
  v_line jsonb;
  v_sl public.sale_lines;
  v_qty numeric;
  v_done numeric;
  v_amount bigint;
  v_total bigint := 0;
  v_disp text;
  v_tender text;
  v_n int := 0;
  v_occurred timestamptz := now();
  v_reasons text[] := '{}';
begin
  if jsonb_typeof(_payload) is distinct from 'object'
     or coalesce(_payload ->> 'id', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
     or coalesce(_payload ->> 'sale_id', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    raise exception 'a refund needs its own id and the sale''s id (uuids)' using errcode = '22023';
  end if;
  v_id := (_payload ->> 'id')::uuid;
  v_offline := coalesce(_payload ->> 'offline', 'false') = 'true';
  -- Lock the sale: concurrent refunds of one sale are counted one after the other.
  select s.* into v_sale from public.sales s where s.id = (_payload ->> 'sale_id')::uuid for update;
  if v_sale.id is null then
    raise exception 'no such sale' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_sale.store_id, array['owner', 'manager', 'cashier']);
  v_role := private.my_role(v_business);

  if exists (select 1 from public.refunds f where f.id = v_id) then
    if not exists (select 1 from public.refunds f where f.id = v_id and f.business_id = v_business
                      and f.store_id = v_sale.store_id) then
      raise exception 'permission denied: this refund id belongs to another business or store' using errcode = '42501';
    end if;
    return (select to_jsonb(f) || jsonb_build_object('replayed', true,
              'lines', (select jsonb_agg(to_jsonb(l)) from public.refund_lines l where l.refund_id = f.id))
              from public.refunds f where f.id = v_id);
  end if;

  if v_role = 'cashier' then
    if nullif(_payload ->> 'approval_id', '') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      v_approval := private.take_approval((_payload ->> 'approval_id')::uuid, v_business, v_sale.store_id, 'refund', v_id);
    end if;
    if v_approval.id is null then
      if not v_offline then
        raise exception 'permission denied: a refund needs a manager''s approval' using errcode = '42501';
      end if;
      v_reasons := array_append(v_reasons, 'no_approval'::text);
    end if;
  end if;
  if v_offline and coalesce(_payload ->> 'sale_pending', 'false') = 'true' then
    v_reasons := array_append(v_reasons, 'sale_not_synced'::text);
  end if;

  if _payload ? 'occurred_at' and jsonb_typeof(_payload -> 'occurred_at') = 'string' then
    begin
      v_occurred := least((_payload ->> 'occurred_at')::timestamptz, now());
    exception when others then
      raise exception 'occurred_at is not a date and time' using errcode = '22023';
    end;
  end if;
  if nullif(_payload ->> 'shift_id', '') is not null then
    select s.id into v_shift from public.shifts s
     where s.id::text = (_payload ->> 'shift_id') and s.business_id = v_business and s.store_id = v_sale.store_id;
  end if;
  if char_length(coalesce(_payload ->> 'reason', '')) > 500 then
    raise exception 'the reason is too long (500 characters at most)' using errcode = '22023';
  end if;
  -- The original tender (the one that paid most) unless the register names another.
  if nullif(_payload ->> 'tender_kind', '') is not null then
    if (_payload ->> 'tender_kind') not in ('cash', 'card', 'other') then
      raise exception 'refund to cash, card or other' using errcode = '22023';
    end if;
    v_tender := _payload ->> 'tender_kind';
  else
    select t.kind into v_tender from public.sale_tenders t where t.sale_id = v_sale.id order by t.amount desc, t.kind limit 1;
  end if;

  if jsonb_typeof(_payload -> 'lines') is distinct from 'array' or jsonb_array_length(_payload -> 'lines') = 0 then
    raise exception 'choose at least one line to refund' using errcode = '22023';
  elsif jsonb_array_length(_payload -> 'lines') > 500 then
    raise exception 'a refund has at most 500 lines' using errcode = '22023';
  end if;
  insert into public.refunds (id, business_id, store_id, sale_id, register_id, shift_id, actor_id, approval_id,
                              tender_kind, total, reason, offline, occurred_at)
  values (v_id, v_business, v_sale.store_id, v_sale.id, v_sale.register_id, v_shift, (select auth.uid()), v_approval.id,
          v_tender, 0, nullif(btrim(coalesce(_payload ->> 'reason', '')), ''), v_offline, v_occurred);
  for v_line in select value from jsonb_array_elements(_payload -> 'lines') loop
    v_n := v_n + 1;
    v_sl := null;
    if jsonb_typeof(v_line) = 'object' and nullif(v_line ->> 'sale_line_id', '') is not null then
      select l.* into v_sl from public.sale_lines l
       where l.id::text = (v_line ->> 'sale_line_id') and l.sale_id = v_sale.id;
    elsif jsonb_typeof(v_line) = 'object' and jsonb_typeof(v_line -> 'line_no') = 'number'
          and (v_line ->> 'line_no') ~ '^[1-9][0-9]{0,5}$' then
      select l.* into v_sl from public.sale_lines l
       where l.sale_id = v_sale.id and l.line_no = (v_line ->> 'line_no')::int;
    end if;
    if v_sl.id is null then
      raise exception 'refund line %: not a line of this sale', v_n using errcode = '22023';
    end if;
    if jsonb_typeof(v_line -> 'qty') is distinct from 'number' or (v_line ->> 'qty')::numeric <= 0 then
      raise exception 'refund line %: enter a quantity above zero', v_n using errcode = '22023';
    end if;
    v_qty := (v_line ->> 'qty')::numeric;
    -- Half a tee marked damaged wrote no movement, so only this check stops a fractional refund of a piece.
    if v_sl.variant_id is not null then
      perform private.assert_quantity(v_sl.variant_id, v_qty);
    end if;
    v_disp := coalesce(v_line ->> 'disposition', 'restock');
    if v_disp not in ('restock', 'damaged') then
      raise exception 'refund line %: restock it or mark it damaged', v_n using errcode = '22023';
    end if;
    select coalesce(sum(rl.qty), 0) into v_done from public.refund_lines rl where rl.sale_line_id = v_sl.id;
    if v_qty > v_sl.qty - v_done then
      if not v_offline then
        raise exception 'refund line %: only % left to refund', v_n, v_sl.qty - v_done using errcode = '22023';
      end if;
      v_reasons := array_append(v_reasons, ('over_refund:' || v_n)::text);
      v_qty := v_sl.qty - v_done;
      continue when v_qty <= 0;
    end if;
    -- The line's share, rounded; the last part of a line takes what remains so the parts add up exactly.
    if v_qty = v_sl.qty - v_done then
      v_amount := v_sl.line_total - coalesce((select sum(rl.amount) from public.refund_lines rl where rl.sale_line_id = v_sl.id), 0);
    else
      v_amount := round(v_sl.line_total * v_qty / v_sl.qty)::bigint;
    end if;
    insert into public.refund_lines (business_id, refund_id, sale_line_id, qty, amount, disposition)
    values (v_business, v_id, v_sl.id, v_qty, v_amount, v_disp);
    v_total := v_total + v_amount;
    if v_disp = 'restock' and exists (select 1 from public.variants v join public.products p on p.id = v.product_id
                                       where v.id = v_sl.variant_id and p.track_stock) then
      perform private.apply_movement(v_business, v_sale.store_id, v_sl.variant_id, v_sl.lot_id, 'refund', v_qty, null,
        (select c.unit_cost from public.sale_line_costs c where c.sale_line_id = v_sl.id), v_occurred, 'refund', v_id,
        v_sale.receipt_number);
    end if;
  end loop;
  update public.refunds f set total = v_total, review_reasons = v_reasons where f.id = v_id;
  perform private.log_activity(v_business, v_sale.store_id, 'refund.posted', 'refund', v_id, null,
    jsonb_build_object('sale_id', v_sale.id, 'receipt_number', v_sale.receipt_number, 'total', v_total,
                       'tender_kind', v_tender, 'approval_id', v_approval.id, 'offline', v_offline,
                       'review_reasons', to_jsonb(v_reasons)));
  return (select to_jsonb(f) || jsonb_build_object('replayed', false,
            'lines', (select jsonb_agg(to_jsonb(l)) from public.refund_lines l where l.refund_id = f.id))
            from public.refunds f where f.id = v_id);
end;
$$;
revoke all on function public.post_refund(jsonb) from public, anon;
grant execute on function public.post_refund(jsonb) to authenticated;

-- Send stock from one store to another (20261122120100), at most 1000 lines.
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

-- A draft purchase order from the reorder insights (20261123150000), quantities checked like assert_quantity.
create or replace function public.create_reorder_purchase_order(_store_id uuid, _supplier_id uuid, _lines jsonb)
returns uuid
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_business uuid := (select s.business_id from public.stores s where s.id = _store_id);
  v_po uuid;
  v_line jsonb;
  v_n int := 0;
begin
  if v_business is null then
    raise exception 'permission denied: not a store you can use' using errcode = '42501';
  end if;
  perform private.assert_role(v_business, array['owner', 'manager']);
  if jsonb_typeof(_lines) is distinct from 'array' or jsonb_array_length(_lines) = 0 or jsonb_array_length(_lines) > 500 then
    raise exception 'choose between 1 and 500 lines' using errcode = '22023';
  end if;
  insert into public.purchase_orders (business_id, store_id, supplier_id, notes)
  values (v_business, _store_id, _supplier_id, 'Suggested by the reorder insights')
  returning id into v_po;
  for v_line in select value from jsonb_array_elements(_lines) loop
    v_n := v_n + 1;
    if jsonb_typeof(v_line -> 'qty') is distinct from 'number' or (v_line ->> 'qty')::numeric <= 0
       or coalesce(v_line ->> 'variant_id', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      raise exception 'line %: a variant and a quantity above zero', v_n using errcode = '22023';
    end if;
    -- The rules of private.assert_quantity (not callable by this security invoker function).
    if (v_line ->> 'qty')::numeric <> round((v_line ->> 'qty')::numeric, 3)
       or (v_line ->> 'qty')::numeric >= 1000000000
       or ((v_line ->> 'qty')::numeric <> trunc((v_line ->> 'qty')::numeric)
           and exists (select 1 from public.variants v join public.products p on p.id = v.product_id
                        where v.id = (v_line ->> 'variant_id')::uuid and p.unit = 'each')) then
      raise exception 'line %: a whole number below 1,000,000,000 for items sold by the piece, at most 3 decimals otherwise', v_n
        using errcode = '22023';
    end if;
    insert into public.purchase_order_lines (business_id, purchase_order_id, variant_id, qty_ordered, unit_cost)
    select v_business, v_po, v.id, (v_line ->> 'qty')::numeric, coalesce(vc.cost, 0)
      from public.variants v left join public.variant_costs vc on vc.variant_id = v.id
     where v.id = (v_line ->> 'variant_id')::uuid and v.business_id = v_business;
    if not found then
      raise exception 'line %: not a product of this business', v_n using errcode = '22023';
    end if;
  end loop;
  return v_po;
exception when unique_violation then
  raise exception 'a product appears twice in the order' using errcode = '22023';
end;
$$;
