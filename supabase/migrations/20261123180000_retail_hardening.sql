-- Retail hardening after an attacker's pass over HTTP (tests/db/retail-attacks.test.ts). Each function below is
-- re-created from its latest definition with one minimal change; signatures, grants and callers are unchanged
-- (create or replace keeps the existing grants: post_refund, send_transfer and receive_transfer execute for
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
    if not exists (select 1 from public.refunds f where f.id = v_id and f.business_id = v_business) then
      raise exception 'permission denied: this refund id belongs to another business' using errcode = '42501';
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
