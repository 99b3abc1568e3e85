-- Point of sale, second pass (issue 13, ADR 0133): refunds that the register queued offline.
--
-- * refunds.review_reasons (and the generated flagged_for_review), as on sales: a refund from the offline outbox is
--   never refused for a question a manager can settle later; it is accepted and flagged with its reasons.
-- * post_refund takes a line by its line number as well as by its id: a refund of a sale that was made offline and
--   had not synced yet when the customer came back names lines the register knows (it never saw their server ids).
--   The register queues such a refund behind its sale in the same outbox (sale_pending: true), so the sale is
--   always posted first; the refund is flagged sale_not_synced.
-- * A cashier refunding offline without a manager's approval (the manager cannot sign in without a connection):
--   accepted, flagged no_approval. Online the approval is still required (42501), as before.
-- * More than is left to refund, from the offline outbox (another register refunded the same line meanwhile):
--   clamped to what is left and flagged over_refund:<line>; online it is still refused (22023).
-- * tender_kind: the original tender by default (the one that paid most); the register may name another.
-- Who reads or writes: unchanged. refunds stay readable by members of the store (policies of 20261122140000) and
-- written only by post_refund (security definer); the new columns need no grant beyond the table's select.

alter table public.refunds add column review_reasons text[] not null default '{}';
alter table public.refunds add column flagged_for_review boolean generated always as (cardinality(review_reasons) > 0) stored;
comment on column public.refunds.review_reasons is
  'Why a manager should look at this refund (sale_not_synced, no_approval, over_refund:<line>); empty when none.';
create index refunds_flagged_idx on public.refunds (business_id) where flagged_for_review;

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

-- ---------------------------------------------------------------------------------------------------
-- post_sales(payloads): a register's offline outbox in batches (up to 50 sales, in order) instead of one request
-- per sale. Each sale goes through post_sale in its own subtransaction, so one sale refused (a 4xx: it stays in the
-- outbox for a manager) neither undoes nor blocks the others, and a retry of the batch replays what was posted
-- (post_sale is idempotent by the sale's id). Returns one result per payload, in order:
--   { id, ok: true, replayed, receipt_number }  or  { id, ok: false, code (SQLSTATE), message }.
-- The caller treats serialization failures, deadlocks and lock or statement timeouts as "retry later" and any
-- other code as a refusal. Same callers and checks as post_sale (security definer, role checked per sale).
create or replace function public.post_sales(_payloads jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_payload jsonb;
  v_result jsonb;
  v_out jsonb := '[]';
begin
  if jsonb_typeof(_payloads) is distinct from 'array' or jsonb_array_length(_payloads) = 0 then
    raise exception 'send the sales as a list' using errcode = '22023';
  elsif jsonb_array_length(_payloads) > 50 then
    raise exception 'send at most 50 sales at a time' using errcode = '22023';
  end if;
  for v_payload in select value from jsonb_array_elements(_payloads) loop
    begin
      v_result := public.post_sale(v_payload);
      v_out := v_out || jsonb_build_array(jsonb_build_object('id', v_payload ->> 'id', 'ok', true,
        'replayed', coalesce((v_result ->> 'replayed')::boolean, false), 'receipt_number', v_result ->> 'receipt_number'));
    exception when others then
      v_out := v_out || jsonb_build_array(jsonb_build_object('id', v_payload ->> 'id', 'ok', false,
        'code', sqlstate, 'message', sqlerrm));
    end;
  end loop;
  return v_out;
end;
$$;
revoke all on function public.post_sales(jsonb) from public, anon;
grant execute on function public.post_sales(jsonb) to authenticated;
