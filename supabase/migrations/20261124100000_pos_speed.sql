-- Point of sale speed (issue 13: a 10-line sale under 50 ms on PostgreSQL, 100 ms on PGlite; 1,000 offline sales
-- synced in under 60 s). ADR 0150. Same signatures, grants, checks, error messages and results as before; the work
-- per sale is what changes. A 10-line sale ran about 200 statements inside post_sale (one catalog read and one
-- quantity read per line; per line one insert into sale_lines and one into sale_line_costs, each firing the daily
-- summaries' statement triggers, so 20 trigger runs of 2-3 upserts; per line private.apply_movement: 2 checks, the
-- quantity read again, the ledger row, the balance, the activity entry with its two reads; five reads for the role
-- check and one more for the role; an update of the sale for any review reason). Now about 25:
--   * one read of the catalog for all lines (private.sale_lines_priced), the quantity rules checked on that row;
--   * one insert of the lines, one of their costs, one of the tenders (private.insert_sale_rows): the summary
--     triggers run once per table;
--   * one statement for the ledger rows, the balance deltas (in (variant, lot) order, as before, so concurrent sales
--     cannot deadlock) and their activity entries (private.sale_stock_movements);
--   * one read for the caller's role and store access (private.pos_store_access);
--   * the sale updated only when its stock went negative (its other reasons are known before it is inserted);
--   * post_sales posts each sale through private.post_sale_core and does not build the sale's JSON it never returns.
-- post_sale is split into these private helpers so a later change redefines one small function, not 300 lines.

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
revoke all on function private.quantity_problem(text, numeric) from public, anon, authenticated;

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
revoke all on function private.assert_quantity(uuid, numeric) from public, anon, authenticated;

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
revoke all on function private.pos_store_access(uuid, text[]) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The lines of a sale priced from the catalog (ADR 0131): store price, else the variant's; the product's tax rate,
-- else the store's; rounded per line. Checks each line in order (the first problem is reported with its line
-- number); offline, a stale price or a discount over the limit is kept and flagged. Reads the catalog once for
-- every line. o_lines: the lines to write, each with a new id, its cost and whether it moves stock.
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
begin
  o_lines := '[]';
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
           'has_lots', p.has_lots, 'unit', p.unit, 'cost', coalesce(c.cost, 0),
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
    o_lines := o_lines || jsonb_build_object(
      'id', gen_random_uuid(), 'line_no', v_n, 'variant_id', lower(v_line ->> 'variant_id'), 'lot_id', v_lot,
      'qty', v_qty, 'unit_price', v_price, 'discount', v_discount, 'tax_rate', v_rate, 'tax_amount', v_tax,
      'line_total', v_line_total, 'cost', (v_item ->> 'cost')::bigint, 'track_stock', (v_item ->> 'track_stock')::boolean,
      'description', v_item ->> 'description');
  end loop;
  o_approval_id := v_approval.id;
end;
$$;
revoke all on function private.sale_lines_priced(jsonb, uuid, public.stores, uuid, boolean, text, uuid)
  from public, anon, authenticated;

-- The tenders of a sale, checked (cash, card or other; whole minor units; change from cash only), with their sums.
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
    o_paid := o_paid + v_amount;
    o_tendered := o_tendered + v_tendered;
    o_change := o_change + (v_tendered - v_amount);
    o_tenders := o_tenders || jsonb_build_object('kind', v_kind, 'amount', v_amount, 'tendered', v_tendered,
                                                 'change', v_tendered - v_amount);
  end loop;
end;
$$;
revoke all on function private.sale_tenders_checked(jsonb) from public, anon, authenticated;

-- The receipt number: the register's own sequence when it sent one (the counter keeps the highest seen), else the
-- next on the server; a number already used in the business is reassigned (o_reassigned) and flagged by the caller.
create or replace function private.sale_receipt_number(_register public.registers, _business_id uuid, _receipt_seq jsonb,
                                                       out o_receipt text, out o_reassigned boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_seq bigint;
begin
  o_reassigned := false;
  if jsonb_typeof(_receipt_seq) = 'number' and (_receipt_seq #>> '{}') ~ '^[1-9][0-9]{0,11}$' then
    v_seq := (_receipt_seq #>> '{}')::bigint;
    insert into private.register_counters as c (register_id, last_seq) values (_register.id, v_seq)
    on conflict (register_id) do update set last_seq = greatest(c.last_seq, excluded.last_seq);
    if exists (select 1 from public.sales s where s.business_id = _business_id
                and s.receipt_number = private.receipt_number(_register.receipt_prefix, v_seq)) then
      v_seq := null;
      o_reassigned := true;
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
revoke all on function private.sale_receipt_number(public.registers, uuid, jsonb) from public, anon, authenticated;

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
  insert into public.sale_tenders (business_id, store_id, sale_id, kind, amount, tendered, change)
  select _business_id, _store_id, _sale_id, t.kind, t.amount, t.tendered, t.change
    from jsonb_to_recordset(_tenders) as t (kind text, amount bigint, tendered bigint, change bigint);
end;
$$;
revoke all on function private.insert_sale_rows(uuid, uuid, uuid, jsonb, jsonb) from public, anon, authenticated;

-- A sale's stock: what private.apply_movement writes per (variant, lot) of its stock-tracked lines (the ledger row,
-- the balance delta, the 'stock.sale' activity entry with the balance after), in one statement. The balance rows
-- are changed in (variant, lot) order, as before, so concurrent sales cannot deadlock on them. Stock may go
-- negative (a sale is never refused at the counter): returns 'negative_stock:<variant>' for each, in that order.
-- The lines come from private.sale_lines_priced: items of this business, quantities checked, lots of their item.
create or replace function private.sale_stock_movements(_business_id uuid, _store_id uuid, _sale_id uuid,
                                                        _receipt text, _occurred_at timestamptz, _lines jsonb)
returns text[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_negative text[];
begin
  with mv as materialized (
    select l.variant_id, l.lot_id, sum(l.qty) as qty, max(l.cost) as cost
      from jsonb_to_recordset(_lines) as l (variant_id uuid, lot_id uuid, qty numeric, cost bigint, track_stock boolean)
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
    insert into public.activity (business_id, store_id, actor_id, actor_label, kind, entity_type, entity_id, before, after)
    select _business_id, _store_id, v_uid,
           (select coalesce(p.full_name, u.email) from auth.users u left join public.profiles p on p.id = u.id
             where u.id = v_uid),
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
revoke all on function private.sale_stock_movements(uuid, uuid, uuid, text, timestamptz, jsonb)
  from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Posting a sale (20261123180000_retail_hardening), the steps in the helpers above. Returns the sale's id, whether
-- it was a replay (a retry: the first result, nothing written twice) and its receipt number.
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
  v_reasons text[] := '{}';
  v_occurred timestamptz;
  v_customer uuid;
  v_approval_id uuid;
  v_priced record;
  v_paid record;
  v_receipt record;
  v_negative text[];
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

  -- A retry: the first result, nothing written twice. Another store's sale of the business is no replay either:
  -- its lines and tenders are not the caller's.
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

  -- The shift: open on this register (an offline sale may arrive after its shift closed: flagged).
  if coalesce(_payload ->> 'shift_id', '') ~* v_uuid then
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
  if v_paid.o_paid <> v_priced.o_total then
    if not v_offline then
      raise exception 'the tenders pay % but the sale totals %', v_paid.o_paid, v_priced.o_total using errcode = '22023',
        detail = format('total:%s', v_priced.o_total);
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
                            change_total, review_reasons, offline, approval_id, occurred_at)
  values (o_id, v_business, v_store.id, v_register.id, v_shift.id, (select auth.uid()), v_customer, o_receipt,
          v_store.currency, v_store.tax_inclusive, v_priced.o_subtotal, v_priced.o_discounts, v_priced.o_taxes,
          v_priced.o_total, v_paid.o_tendered, v_paid.o_change, v_reasons, v_offline, v_priced.o_approval_id, v_occurred)
  on conflict (id) do nothing;
  if not found then
    -- A concurrent copy committed first: its result, nothing written by this one (the transaction still rolls
    -- back the counter bump and any approval taken above when it raises; here they are harmless).
    select s.* into v_existing from public.sales s where s.id = o_id;
    if v_existing.business_id <> v_business or v_existing.store_id <> v_register.store_id then
      raise exception 'permission denied: this sale id belongs to another business or store' using errcode = '42501';
    end if;
    o_replayed := true;
    o_receipt := v_existing.receipt_number;
    return;
  end if;

  perform private.insert_sale_rows(o_id, v_business, v_store.id, v_priced.o_lines, v_paid.o_tenders);
  v_negative := private.sale_stock_movements(v_business, v_store.id, o_id, o_receipt, v_occurred, v_priced.o_lines);
  if cardinality(v_negative) > 0 then
    v_reasons := v_reasons || v_negative;
    update public.sales s set review_reasons = v_reasons where s.id = o_id;
  end if;

  perform private.log_activity(v_business, v_store.id, 'sale.posted', 'sale', o_id, null,
    jsonb_build_object('receipt_number', o_receipt, 'total', v_priced.o_total, 'offline', v_offline,
                       'review_reasons', to_jsonb(v_reasons), 'approval_id', v_priced.o_approval_id));
end;
$$;
revoke all on function private.post_sale_core(jsonb) from public, anon, authenticated;

-- Post a sale: the sale as the register shows it (private.sale_json) and whether this was a replay.
create or replace function public.post_sale(_payload jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v record;
begin
  select * into v from private.post_sale_core(_payload);
  return private.sale_json(v.o_id) || jsonb_build_object('replayed', v.o_replayed);
end;
$$;
revoke all on function public.post_sale(jsonb) from public, anon;
grant execute on function public.post_sale(jsonb) to authenticated;

-- A register's outbox in batches (20261123130000_pos_more): each sale in its own subtransaction, so one refused
-- sale neither undoes nor blocks the others; one result per payload, in order:
--   { id, ok: true, replayed, receipt_number }  or  { id, ok: false, code (SQLSTATE), message }.
-- Through private.post_sale_core: the sale's JSON, which the batch does not return, is not built.
create or replace function public.post_sales(_payloads jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_payload jsonb;
  v record;
  v_out jsonb[] := '{}';
begin
  if jsonb_typeof(_payloads) is distinct from 'array' or jsonb_array_length(_payloads) = 0 then
    raise exception 'send the sales as a list' using errcode = '22023';
  elsif jsonb_array_length(_payloads) > 50 then
    raise exception 'send at most 50 sales at a time' using errcode = '22023';
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
revoke all on function public.post_sales(jsonb) from public, anon;
grant execute on function public.post_sales(jsonb) to authenticated;
