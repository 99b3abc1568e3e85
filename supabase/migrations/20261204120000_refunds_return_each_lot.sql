-- Issue 29, ADR 0400: a refund of a sale line that FEFO split over several lots (ADR 0360) restocked only the
-- line's first lot, so the earliest-expiring lot grew by what the later lots had sold. Each refunded unit now goes
-- back to a lot the line took it from, recorded per lot in refund_line_lots, so later partial refunds know what is
-- left of each lot. A partial refund returns a quarantined (recalled) lot first, then the latest-expiring lot
-- (why: ADR 0400). Refunds made before this migration restocked the line's lot_id: they are recorded as such.

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
create index refund_line_lots_lot_idx on public.refund_line_lots (lot_id);
create trigger read_only_guard before insert or update or delete on public.refund_line_lots
  for each statement execute function private.read_only_guard();
create policy "refund_line_lots: readers of the refund line" on public.refund_line_lots for select to authenticated
  using (exists (select 1 from public.refund_lines rl where rl.id = refund_line_id));

-- Refunds before this migration restocked the sale line's lot_id (its first lot): recorded as that.
insert into public.refund_line_lots (refund_line_id, lot_id, business_id, qty)
select rl.id, sl.lot_id, rl.business_id, rl.qty
  from public.refund_lines rl join public.sale_lines sl on sl.id = rl.sale_line_id
 where sl.lot_id is not null;

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
revoke all on function private.refund_line_take_lots(uuid,uuid,uuid,uuid,numeric) from public, anon;

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
revoke all on function private.refund_line_json(public.refund_lines) from public, anon;

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
revoke all on function public.post_refund(jsonb) from public, anon;
grant execute on function public.post_refund(jsonb) to authenticated;
