-- Inventory functions (issue 12). Every stock change goes through private.apply_movement, which writes the
-- ledger row, the balance delta (insert ... on conflict do update set qty = qty + excluded.qty, atomic under
-- concurrency: no read-modify-write) and the activity entry, in the caller's transaction. The public functions
-- check the caller's role and store access first (42501), validate input (22023 with a plain message) and are
-- each one transaction, so a failure writes nothing.

-- The business of a store the caller may use with one of the roles (raises otherwise).
create or replace function private.assert_store_role(_store_id uuid, _roles text[])
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid;
begin
  select s.business_id into v_business from public.stores s where s.id = _store_id and s.archived_at is null;
  if v_business is null then
    raise exception 'no such store' using errcode = '42501';
  end if;
  perform private.assert_role(v_business, _roles);
  if not (v_business in (select private.my_full_access_business_ids())
          or _store_id in (select private.my_listed_store_ids())) then
    raise exception 'permission denied: you do not have access to this store' using errcode = '42501';
  end if;
  return v_business;
end;
$$;
revoke all on function private.assert_store_role(uuid, text[]) from public, anon, authenticated;

-- Quantity rules: at most 3 decimals; whole numbers for products sold by the piece.
create or replace function private.assert_quantity(_variant_id uuid, _qty numeric)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_unit text;
begin
  select p.unit into v_unit from public.variants v join public.products p on p.id = v.product_id where v.id = _variant_id;
  if v_unit is null then
    raise exception 'no such item in this business' using errcode = '22023';
  end if;
  if _qty is null then
    raise exception 'enter a quantity' using errcode = '22023';
  elsif _qty <> round(_qty, 3) then
    raise exception 'a quantity has at most 3 decimals' using errcode = '22023';
  elsif v_unit = 'each' and _qty <> trunc(_qty) then
    raise exception 'this item is counted by the piece: enter a whole number' using errcode = '22023';
  elsif abs(_qty) >= 1000000000 then
    raise exception 'this quantity is too large' using errcode = '22023';
  end if;
end;
$$;
revoke all on function private.assert_quantity(uuid, numeric) from public, anon, authenticated;

-- The one writer of the ledger and the balances. Returns the balance after the movement.
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
revoke all on function private.apply_movement(uuid, uuid, uuid, uuid, text, numeric, text, bigint, timestamptz, text, uuid, text)
  from public, anon, authenticated;

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
revoke all on function private.lot_for(uuid, uuid, text, date) from public, anon, authenticated;

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
revoke all on function private.update_average_cost(uuid, uuid, numeric, bigint) from public, anon, authenticated;

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

-- Post a count: for each line (variant, lot, counted quantity) the difference to the balance is written as a
-- 'count' movement, computed under the balance row's lock (select ... for update) so a sale or receipt
-- committed meanwhile is not overwritten. Lines are locked in a fixed order so two counts cannot deadlock.
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
begin
  if jsonb_typeof(_lines) is distinct from 'array' or jsonb_array_length(_lines) = 0 then
    raise exception 'count at least one item' using errcode = '22023';
  end if;
  if jsonb_array_length(_lines) > 5000 then
    raise exception 'post at most 5000 lines at once' using errcode = '22023';
  end if;
  for r in
    select x.variant_id, x.lot_id, x.counted
      from jsonb_to_recordset(_lines) as x (variant_id uuid, lot_id uuid, counted numeric)
     order by x.variant_id, x.lot_id nulls first
  loop
    if r.variant_id is null or r.counted is null or r.counted < 0 then
      raise exception 'every counted line needs an item and a quantity of zero or more' using errcode = '22023';
    end if;
    if not exists (select 1 from public.variants v where v.id = r.variant_id and v.business_id = v_business) then
      raise exception 'no such item in this business' using errcode = '22023';
    end if;
    perform private.assert_quantity(r.variant_id, r.counted);
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

-- Send stock from one store to another: the transfer, its lines and the transfer_out movements.
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

-- Receive a transfer at its destination: per line received and damaged (missing is the rest). Lines not
-- listed arrive in full. Damaged goods enter and are written off at once, so the trail shows both.
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

-- ---------------------------------------------------------------------------------------------------
-- Reads. search_catalog and store_stock run as the caller (row level security applies); stock_history is
-- security definer to show who made each movement, after checking the caller's role in the store.

-- Variants by name (prefix or typo-tolerant trigram match), SKU prefix or exact barcode; best matches first.
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
set search_path = ''
as $$
declare
  v_q text := nullif(btrim(coalesce(_query, '')), '');
  v_sku text;
  v_sku_end text;
  v_like text;
begin
  if char_length(v_q) > 100 then
    raise exception 'search text is too long (100 characters at most)' using errcode = '22023';
  end if;
  v_like := replace(replace(replace(v_q, '\', '\\'), '%', '\%'), '_', '\_');
  -- SKU prefix as a range, so the (business_id, sku text_pattern_ops) index serves it even in a generic plan.
  v_sku := upper(v_q);
  v_sku_end := left(v_sku, -1) || chr(ascii(right(v_sku, 1)) + 1);
  return query
    -- Candidates from three indexes (barcode, SKU range, trigram on names), then scored and paged.
    with candidates as (
      select bc.variant_id as id, 4::real as score
        from public.barcodes bc where v_q is not null and bc.business_id = _business_id and bc.code = v_q
      union all
      select v.id, case when v.sku = v_sku then 4 else 3 end::real
        from public.variants v
       where v_q is not null and v.business_id = _business_id
         and v.sku operator(pg_catalog.~>=~) v_sku and v.sku operator(pg_catalog.~<~) v_sku_end
      union all
      select v.id, case when p.name ilike v_like || '%' then 2 else extensions.similarity(p.name, v_q) end::real
        from public.products p join public.variants v on v.product_id = p.id
       where v_q is not null and p.business_id = _business_id
         and (p.name ilike '%' || v_like || '%' or p.name operator(extensions.%) v_q)
      union all
      select v.id, 0::real from public.variants v where v_q is null and v.business_id = _business_id
    ), best as (
      select c.id, max(c.score) as score from candidates c group by c.id
    ), page as (
      select b.id, b.score, p.name, v.sku, count(*) over () as total
        from best b
        join public.variants v on v.id = b.id
        join public.products p on p.id = v.product_id
       where _include_archived or (v.archived_at is null and p.archived_at is null)
       order by b.score desc, p.name, v.sku
       limit least(greatest(coalesce(_limit, 50), 1), 200) offset greatest(coalesce(_offset, 0), 0)
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

-- Every movement of a variant in a store, newest first, with who, why and the running balance after it.
create or replace function public.stock_history(_store_id uuid, _variant_id uuid, _limit int default 100, _offset int default 0)
returns table (
  id bigint, kind text, qty numeric, balance numeric, reason text, lot_number text, expires_on date,
  occurred_at timestamptz, recorded_at timestamptz, actor_id uuid, actor_label text, reference_type text,
  reference_id uuid, note text
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
           h.actor_id, (select coalesce(p.full_name, u.email::text) from auth.users u
                          left join public.profiles p on p.id = u.id where u.id = h.actor_id),
           h.reference_type, h.reference_id, h.note::text
      from h left join public.lots l on l.id = h.lot_id
     order by h.id desc
     limit least(greatest(coalesce(_limit, 100), 1), 500) offset greatest(coalesce(_offset, 0), 0);
end;
$$;

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

do $$
declare
  f text;
begin
  foreach f in array array[
    'public.receive_stock(uuid, uuid, numeric, bigint, text, date, timestamptz, text)',
    'public.adjust_stock(uuid, uuid, numeric, text, uuid, text, timestamptz)',
    'public.post_count(uuid, jsonb, timestamptz)',
    'public.send_transfer(uuid, uuid, jsonb, text)',
    'public.receive_transfer(uuid, jsonb)',
    'public.receive_purchase_order(uuid, jsonb, timestamptz)',
    'public.add_internal_barcode(uuid)',
    'public.search_catalog(uuid, text, int, int, boolean)',
    'public.store_stock(uuid, text, int, int)',
    'public.stock_history(uuid, uuid, int, int)',
    'public.expiring_lots(uuid, int)',
    'public.reorder_list(uuid)'
  ] loop
    execute format('revoke all on function %s from public, anon', f);
    execute format('grant execute on function %s to authenticated', f);
  end loop;
end;
$$;
