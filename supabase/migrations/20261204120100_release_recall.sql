-- Issue 29, ADR 0401: a recall can be lifted. Owners and managers release some or all of a recall's lots from
-- quarantine with a reason (the supplier withdrew the notice, a lab cleared the lot); the stock, which never left
-- the shelves' count, is sellable again at the commit and FEFO picks it as any other lot. The release is kept on the
-- recall (recall_lots: when, who, why) and in the trail (recall.released, with each lot's stock per store). The
-- ledger does not move, as for the quarantine itself.

alter table public.recall_lots add column released_at timestamp with time zone;
alter table public.recall_lots add column released_by uuid;
alter table public.recall_lots add column release_reason text;
alter table public.recall_lots add constraint recall_lots_released_by_fkey
  foreign key (released_by) references auth.users(id) on delete set null;
alter table public.recall_lots add constraint recall_lots_release_reason_check
  check (((release_reason is null) or ((char_length(btrim(release_reason)) >= 1) and (char_length(btrim(release_reason)) <= 500))));
alter table public.recall_lots add constraint recall_lots_release_has_reason
  check (((released_at is null) = (release_reason is null)));
create index recall_lots_released_by_idx on public.recall_lots (released_by);
comment on column public.recall_lots.released_at is 'When the lot was released from this recall''s quarantine (release_recall, ADR 0401); null while quarantined.';
comment on column public.recall_lots.released_by is 'Who released the lot from quarantine.';
comment on column public.recall_lots.release_reason is 'Why the lot was released (1 to 500 characters).';

-- Owners and managers of the recall's business release its lots still quarantined (_lot_ids null: all of them).
-- Each named lot must be a lot of this recall still quarantined by it. The lots' rows are locked in id order as
-- start_recall locks them, so a sale waiting on a lot (private.fefo_pick reads them FOR SHARE) sees the release at
-- the commit. Returns how many lots were released.
create or replace function public.release_recall(_recall_id uuid, _reason text, _lot_ids uuid[] default null)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_recall public.recalls;
  v_reason text := btrim(coalesce(_reason, ''));
  v_ids uuid[];
  v_lots jsonb;
begin
  perform private.assert_writable();
  select r.* into v_recall from public.recalls r where r.id = _recall_id;
  if v_recall.id is null then
    raise exception 'no such recall' using errcode = 'PT404';
  end if;
  perform private.assert_role(v_recall.business_id, array['owner', 'manager']);
  if char_length(v_reason) not between 1 and 500 then
    raise exception 'say why the lots are released from quarantine (up to 500 characters)' using errcode = '22023';
  elsif _lot_ids is not null and (cardinality(_lot_ids) = 0 or cardinality(_lot_ids) > 200) then
    raise exception 'choose 1 to 200 lots of this recall to release' using errcode = '22023';
  end if;
  select array_agg(l.id order by l.id) into v_ids from (
    select l.id from public.lots l
     where l.recall_id = v_recall.id and (_lot_ids is null or l.id = any (_lot_ids))
     order by l.id for update) l;
  if _lot_ids is not null and coalesce(cardinality(v_ids), 0) <> (select count(distinct x) from unnest(_lot_ids) x) then
    raise exception 'choose lots of this recall that are still quarantined' using errcode = '22023';
  elsif v_ids is null then
    raise exception 'reload the recall: none of its lots is left in quarantine to release' using errcode = '22023';
  end if;
  select jsonb_agg(jsonb_build_object('lot_id', l.id, 'lot_number', l.lot_number, 'variant_id', l.variant_id,
           'stock', coalesce((select jsonb_object_agg(b.store_id, b.qty) from public.stock_balances b
                               where b.lot_id = l.id and b.qty <> 0), '{}')) order by l.id)
    into v_lots from public.lots l where l.id = any (v_ids);
  update public.lots l set quarantined_at = null, recall_id = null where l.id = any (v_ids);
  update public.recall_lots rl set released_at = now(), released_by = (select auth.uid()), release_reason = v_reason
   where rl.recall_id = v_recall.id and rl.lot_id = any (v_ids);
  perform private.log_activity(v_recall.business_id, null, 'recall.released', 'recall', v_recall.id, null,
    jsonb_build_object('reason', v_reason, 'lots', v_lots));
  return cardinality(v_ids);
end;
$$;
comment on function public.release_recall(uuid,text,uuid[]) is 'Owners and managers: releases a recall''s quarantined lots (all, or those named) back to sale, with a reason; recorded on the recall and audited (ADR 0401).';
revoke all on function public.release_recall(uuid,text,uuid[]) from public, anon;
grant execute on function public.release_recall(uuid,text,uuid[]) to authenticated;

-- recall_report as in 20261203070000_lots_fefo_recalls.sql, each lot saying whether it is still quarantined or
-- when, by whom and why it was released, and each sale's refunded quantity counted for its lot
-- (refund_line_lots, 20261204120000).
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
               'quarantined', l.recall_id is not distinct from v_recall.id, 'released_at', rl.released_at,
               'release_reason', rl.release_reason,
               'released_by_name', (select pr.full_name from public.profiles pr where pr.id = rl.released_by),
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
               'refunded_qty', coalesce((select sum(x.qty) from public.refund_line_lots x
                                          join public.refund_lines rf on rf.id = x.refund_line_id
                                         where rf.sale_line_id = sl.id and x.lot_id = ll.lot_id), 0),
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
comment on function public.recall_report(uuid) is 'Owners and managers: a recall''s lots (quarantined or released, by whom and why), their stock per store, and every sale of them with the customer where known (ADR 0360, 0401).';
revoke all on function public.recall_report(uuid) from public, anon;
grant execute on function public.recall_report(uuid) to authenticated;
