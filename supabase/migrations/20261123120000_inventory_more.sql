-- Inventory screens, the missing pieces (issue 12): a purchase order drafted with its lines in one call (the
-- reorder list turns into one), the count sheet a count starts from (expected quantities per variant and lot,
-- for the variance shown before posting), and a purchase order emailed to its supplier through the email
-- outbox (ADR 0111). Hosted Supabase grants nothing by default: every function below grants explicitly.

-- ---------------------------------------------------------------------------------------------------
-- A draft purchase order with its lines, all or nothing. Lines: [{variant_id, qty, unit_cost?}]; the same
-- variant twice is one line (quantities added); a missing unit cost is the variant's current average cost.
-- Owners and managers of the store (as for a draft made through the table API).
create or replace function public.create_purchase_order(
  _store_id uuid, _supplier_id uuid, _lines jsonb, _notes text default null, _expected_on date default null
)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager']);
  v_po uuid;
  r record;
begin
  if not exists (select 1 from public.suppliers s where s.id = _supplier_id and s.business_id = v_business
                    and s.archived_at is null) then
    raise exception 'choose a supplier of this business' using errcode = '22023';
  end if;
  if jsonb_typeof(_lines) is distinct from 'array' or jsonb_array_length(_lines) = 0 then
    raise exception 'add at least one line' using errcode = '22023';
  end if;
  if jsonb_array_length(_lines) > 1000 then
    raise exception 'a purchase order has at most 1000 lines' using errcode = '22023';
  end if;
  if _notes is not null and char_length(_notes) > 500 then
    raise exception 'notes have at most 500 characters' using errcode = '22023';
  end if;
  insert into public.purchase_orders (business_id, store_id, supplier_id, notes, expected_on, created_by)
  values (v_business, _store_id, _supplier_id, nullif(btrim(_notes), ''), _expected_on, (select auth.uid()))
  returning id into v_po;
  for r in
    select x.variant_id, sum(x.qty) as qty, max(x.unit_cost) as unit_cost, bool_or(x.qty is null) as missing
      from jsonb_to_recordset(_lines) as x (variant_id uuid, qty numeric, unit_cost bigint)
     group by x.variant_id
     order by x.variant_id
  loop
    if r.variant_id is null or r.missing or r.qty <= 0 then
      raise exception 'every line needs an item and a quantity above zero' using errcode = '22023';
    end if;
    if not exists (select 1 from public.variants v where v.id = r.variant_id and v.business_id = v_business) then
      raise exception 'no such item in this business' using errcode = '22023';
    end if;
    if r.unit_cost is not null and r.unit_cost < 0 then
      raise exception 'a cost cannot be negative' using errcode = '22023';
    end if;
    perform private.assert_quantity(r.variant_id, r.qty);
    insert into public.purchase_order_lines (business_id, purchase_order_id, variant_id, qty_ordered, unit_cost)
    values (v_business, v_po, r.variant_id, r.qty,
            coalesce(r.unit_cost, (select c.cost from public.variant_costs c where c.variant_id = r.variant_id), 0));
  end loop;
  return v_po;
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- The count sheet of a store: what the ledger says is on hand, per variant (lot-tracked items: per lot with a
-- balance here), for the whole store or the chosen variants. Runs as the caller: row level security decides
-- (a store the caller may not use yields nothing). The variance is shown against this before posting;
-- post_count recomputes it under lock, so a sale in between is not lost.
create or replace function public.count_sheet(_store_id uuid, _variant_ids uuid[] default null)
returns table (
  variant_id uuid, lot_id uuid, product_name text, sku text, option1 text, option2 text, option3 text, unit text,
  has_lots boolean, lot_number text, expires_on date, on_hand numeric
)
language sql
stable
set search_path = ''
as $$
  with s as (select st.business_id from public.stores st where st.id = _store_id and st.archived_at is null),
  items as (
    select v.id, v.sku, v.option1, v.option2, v.option3, p.name, p.unit, p.has_lots
      from s
      join public.variants v on v.business_id = s.business_id and v.archived_at is null
      join public.products p on p.id = v.product_id and p.archived_at is null and p.track_stock
     where _variant_ids is null or v.id = any (_variant_ids)
  )
  select i.id, null::uuid, i.name, i.sku, i.option1, i.option2, i.option3, i.unit, false, null::text, null::date,
         coalesce((select sum(b.qty) from public.stock_balances b where b.store_id = _store_id and b.variant_id = i.id), 0)
    from items i where not i.has_lots
  union all
  select i.id, l.id, i.name, i.sku, i.option1, i.option2, i.option3, i.unit, true, l.lot_number, l.expires_on, b.qty
    from items i
    join public.stock_balances b on b.store_id = _store_id and b.variant_id = i.id
    join public.lots l on l.id = b.lot_id
   where i.has_lots
   order by 3, 4, 11 nulls first, 10
   limit 5000;
$$;

-- ---------------------------------------------------------------------------------------------------
-- Emailing a purchase order to its supplier: a row in the email outbox (docs/adr/0120), delivered by the local
-- relay or, on hosted, the send-email Edge Function. The template is added to the outbox's list.
alter table public.email_outbox drop constraint email_outbox_template_check;
alter table public.email_outbox add constraint email_outbox_template_check
  check (template in ('ticket_reply', 'ticket_resolved', 'purchase_order'));

-- Ordered (or partly received) orders only, to the supplier's saved address, at most 3 times an hour per
-- order (the address is typed by the business: the relay must not become a way to send mail in bulk).
-- Returns the address it was sent to.
create or replace function public.email_purchase_order(_purchase_order_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_po public.purchase_orders;
  v_business uuid;
  v_supplier public.suppliers;
  v_lines jsonb;
begin
  select po.* into v_po from public.purchase_orders po where po.id = _purchase_order_id;
  if v_po.id is null then
    raise exception 'no such purchase order' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_po.store_id, array['owner', 'manager']);
  if v_po.status not in ('ordered', 'partly_received') then
    raise exception 'mark the order as ordered before sending it to the supplier' using errcode = '22023';
  end if;
  select s.* into v_supplier from public.suppliers s where s.id = v_po.supplier_id;
  if v_supplier.email is null then
    raise exception 'this supplier has no email address: add one on the Suppliers page' using errcode = '22023';
  end if;
  if (select count(*) from public.activity a where a.business_id = v_business and a.entity_id = _purchase_order_id
        and a.kind = 'purchase_order.emailed' and a.at > now() - interval '1 hour') >= 3 then
    raise exception 'this order was emailed 3 times in the last hour: try again later' using errcode = '22023';
  end if;
  select coalesce(jsonb_agg(jsonb_build_object(
           'sku', v.sku,
           'name', concat_ws(' / ', p.name, v.option1, v.option2, v.option3),
           'qty', l.qty_ordered, 'unit', p.unit) order by p.name, v.sku), '[]')
    into v_lines
    from public.purchase_order_lines l
    join public.variants v on v.id = l.variant_id
    join public.products p on p.id = v.product_id
   where l.purchase_order_id = _purchase_order_id;
  insert into public.email_outbox (to_email, template, params)
  values (v_supplier.email, 'purchase_order', jsonb_build_object(
    'order_number', upper(left(replace(_purchase_order_id::text, '-', ''), 8)),
    'business_name', (select b.name from public.businesses b where b.id = v_business),
    'store_name', (select st.name from public.stores st where st.id = v_po.store_id),
    'contact_name', v_supplier.contact_name,
    'expected_on', v_po.expected_on,
    'notes', v_po.notes,
    'lines', v_lines));
  perform private.log_activity(v_business, v_po.store_id, 'purchase_order.emailed', 'purchase_order',
    _purchase_order_id, null, jsonb_build_object('supplier_id', v_supplier.id, 'lines', jsonb_array_length(v_lines)));
  return v_supplier.email;
end;
$$;

do $$
declare
  f text;
begin
  foreach f in array array[
    'public.create_purchase_order(uuid, uuid, jsonb, text, date)',
    'public.count_sheet(uuid, uuid[])',
    'public.email_purchase_order(uuid)'
  ] loop
    execute format('revoke all on function %s from public, anon', f);
    execute format('grant execute on function %s to authenticated', f);
  end loop;
end;
$$;
comment on function public.create_purchase_order(uuid, uuid, jsonb, text, date) is
  'Owners and managers of the store: a draft purchase order with its lines in one transaction.';
comment on function public.count_sheet(uuid, uuid[]) is
  'Members who may use the store (row level security): expected quantities per variant and lot for a count.';
comment on function public.email_purchase_order(uuid) is
  'Owners and managers of the store: queue the ordered purchase order as an email to its supplier.';
