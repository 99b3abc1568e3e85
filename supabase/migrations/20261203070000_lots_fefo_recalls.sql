-- Lots picked earliest-expiring first, expired lots held back, and recalls (issue 29, ADR 0360).
-- * FEFO in the database (private.fefo_pick): a sale line, transfer line or count line of a lot-tracked item that
--   names no lot takes the lots of the store with stock, not expired and not recalled, earliest expiry first; a
--   sale line is split over as many lots as it needs (public.sale_line_lots, one row per lot; sale_lines.lot_id
--   keeps the first), the short remainder goes on the last lot (the balance goes negative and the sale is
--   flagged negative_stock, as before).
-- * An expired lot is sold only by an owner or manager, or with a manager's approval (pos_approvals purpose
--   'expired_lot', approve_discount / approve_with_pin, the sale's lot_approval_id); offline it is kept and
--   flagged expired_lot:<line>. A recalled lot is never sold online; offline it is kept and flagged recalled_lot.
-- * Recalls: public.recalls and public.recall_lots; start_recall (owners, managers) marks the lots quarantined
--   in every store (lots.quarantined_at): the stock stays on hand (counted) but is unsellable, and nothing moves
--   in the ledger, which still equals the balances. recall_report lists the stock and every sale of the lots with
--   the customer where known.
-- Redefined from their latest definitions, every rule kept: private.sale_json, approve_discount and
-- approve_with_pin (20261202120000_till_pins), private.sale_stock_movements and private.post_sale_core
-- (20261202120000_till_pins), send_transfer (20261122120100) and post_count (20261124120000).
-- Revokes are "from public, anon" as the other migrations do; grants are explicit.

-- ==== Tables ===============================================================================================

create table public.recalls (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  reason text not null,
  created_by uuid,
  created_at timestamp with time zone default now() not null,
  constraint recalls_pkey primary key (id),
  constraint recalls_id_business_id_key unique (id, business_id),
  constraint recalls_reason_check check (char_length(btrim(reason)) between 1 and 500),
  constraint recalls_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint recalls_created_by_fkey foreign key (created_by) references auth.users(id) on delete set null
);
alter table public.recalls enable row level security;
comment on table public.recalls is 'A recall of lots: their stock in every store is quarantined (unsellable, still on hand). Owners and managers read; written only by start_recall (ADR 0360).';
revoke all on table public.recalls from public, anon;
grant select on table public.recalls to authenticated;
grant select on table public.recalls to service_role;
create index recalls_business_created_idx on public.recalls (business_id, created_at desc);
create index recalls_created_by_idx on public.recalls (created_by);
create policy "recalls: owners and managers read" on public.recalls for select to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

alter table public.lots add column quarantined_at timestamp with time zone;
alter table public.lots add column recall_id uuid;
alter table public.lots add constraint lots_recall_id_business_id_fkey foreign key (recall_id, business_id)
  references public.recalls(id, business_id);
alter table public.lots add constraint lots_quarantine_has_recall check ((quarantined_at is null) = (recall_id is null));
create index lots_recall_idx on public.lots (recall_id, business_id);
comment on column public.lots.quarantined_at is 'When a recall quarantined the lot: its stock stays on hand but is never sold (ADR 0360).';
comment on column public.lots.recall_id is 'The recall that quarantined the lot.';

create table public.recall_lots (
  recall_id uuid not null,
  lot_id uuid not null,
  business_id uuid not null,
  on_hand numeric(12,3) not null,
  constraint recall_lots_pkey primary key (recall_id, lot_id),
  constraint recall_lots_recall_id_business_id_fkey foreign key (recall_id, business_id)
    references public.recalls(id, business_id) on delete cascade,
  constraint recall_lots_lot_id_fkey foreign key (lot_id) references public.lots(id) on delete cascade
);
alter table public.recall_lots enable row level security;
comment on table public.recall_lots is 'The lots of a recall with the stock on hand in all stores when it was quarantined. Owners and managers read; written only by start_recall.';
revoke all on table public.recall_lots from public, anon;
grant select on table public.recall_lots to authenticated;
grant select on table public.recall_lots to service_role;
create index recall_lots_lot_idx on public.recall_lots (lot_id);
create index recall_lots_recall_business_idx on public.recall_lots (recall_id, business_id);
create policy "recall_lots: owners and managers read" on public.recall_lots for select to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create table public.sale_line_lots (
  sale_line_id uuid not null,
  lot_id uuid not null,
  business_id uuid not null,
  qty numeric(12,3) not null,
  expired boolean default false not null,
  constraint sale_line_lots_pkey primary key (sale_line_id, lot_id),
  constraint sale_line_lots_qty_check check (qty > 0),
  constraint sale_line_lots_sale_line_id_business_id_fkey foreign key (sale_line_id, business_id)
    references public.sale_lines(id, business_id) on delete cascade,
  constraint sale_line_lots_lot_id_fkey foreign key (lot_id) references public.lots(id)
);
alter table public.sale_line_lots enable row level security;
comment on table public.sale_line_lots is 'Which lots a lot-tracked sale line took, and how many of each (FEFO splits a line over lots); expired marks a lot sold past its expiry. Readers of the sale line read them; written only by post_sale (ADR 0360).';
revoke all on table public.sale_line_lots from public, anon;
grant select on table public.sale_line_lots to authenticated;
grant select on table public.sale_line_lots to service_role;
create index sale_line_lots_lot_idx on public.sale_line_lots (lot_id);
create index sale_line_lots_line_business_idx on public.sale_line_lots (sale_line_id, business_id);
create policy "sale_line_lots: readers of the sale line" on public.sale_line_lots for select to authenticated
  using (exists (select 1 from public.sale_lines sl where sl.id = sale_line_id));

-- Sales posted before: one lot per line, as sale_lines.lot_id says.
insert into public.sale_line_lots (sale_line_id, lot_id, business_id, qty)
select l.id, l.lot_id, l.business_id, l.qty from public.sale_lines l where l.lot_id is not null;

create trigger read_only_guard before insert or update or delete on public.recalls
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.recall_lots
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.sale_line_lots
  for each statement execute function private.read_only_guard();

-- A manager approves selling an expired lot as they approve a discount or a refund (ADR 0131, 0300).
alter table public.pos_approvals drop constraint pos_approvals_purpose_check;
alter table public.pos_approvals add constraint pos_approvals_purpose_check
  check (purpose = any (array['discount'::text, 'refund'::text, 'expired_lot'::text]));

-- ==== FEFO =================================================================================================

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
revoke all on function private.fefo_pick(uuid,uuid,numeric,date) from public, anon;

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
revoke all on function private.sale_lines_lots(jsonb,jsonb,uuid,public.stores,timestamp with time zone,boolean,text,uuid,uuid) from public, anon;

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
revoke all on function private.insert_sale_line_lots(uuid,jsonb) from public, anon;

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
revoke all on function private.count_fefo(uuid,uuid,uuid,numeric,timestamp with time zone) from public, anon;

-- ==== Recalls ==============================================================================================

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
revoke all on function public.start_recall(uuid,uuid[],text) from public, anon;
grant execute on function public.start_recall(uuid,uuid[],text) to authenticated;

-- A recall's report for owners and managers of its business: the recall, its lots with the stock now in each
-- store, and every sale of those lots (before and after the recall) with what was refunded since and the customer
-- where the sale named one. Managers limited to some stores see those stores' stock and sales only, as elsewhere.
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
               'refunded_qty', coalesce((select sum(rf.qty) from public.refund_lines rf where rf.sale_line_id = sl.id), 0),
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
comment on function public.recall_report(uuid) is 'Owners and managers: a recall''s lots, their stock per store, and every sale of them with the customer where known (ADR 0360).';
revoke all on function public.recall_report(uuid) from public, anon;
grant execute on function public.recall_report(uuid) to authenticated;

-- ==== Redefined (ADR 0360) =================================================================================

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
revoke all on function private.sale_json(uuid) from public, anon;

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
revoke all on function public.approve_discount(uuid,numeric,text) from public, anon;
grant execute on function public.approve_discount(uuid,numeric,text) to authenticated;

-- approve_with_pin as in 20261202120000_till_pins, also approving the sale of an expired lot (no percent).
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
revoke all on function public.approve_with_pin(uuid,uuid,text,numeric,text) from public, anon;
grant execute on function public.approve_with_pin(uuid,uuid,text,numeric,text) to authenticated;

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
revoke all on function private.sale_stock_movements(uuid,uuid,uuid,text,timestamp with time zone,jsonb) from public, anon;

-- post_sale_core as in 20261202120000_till_pins, every rule kept, with the lots of each line
-- (private.sale_lines_lots), their rows (sale_line_lots) and a trail entry when an expired lot is sold.
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
revoke all on function private.post_sale_core(jsonb) from public, anon;

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
revoke all on function public.send_transfer(uuid,uuid,jsonb,text) from public, anon;
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
revoke all on function public.post_count(uuid,jsonb,timestamp with time zone) from public, anon;
grant execute on function public.post_count(uuid,jsonb,timestamp with time zone) to authenticated;
