-- Serial lookup (issue 29, ADR 0365): a serial or IMEI found across receiving, sales and returns, with its warranty.
--
-- - serial_numbers.purchase_order_id: the purchase order a unit arrived on. receive_serials takes it as an optional
--   fourth argument (the receive screen passes it); it must be an order of the same store that has a line for the
--   item, so a unit cannot be tied to another store's or another business's order.
-- - find_serial (same signature) now says where and when each unit was received, each sale (store, receipt, date)
--   and each return (date, store, restocked or damaged), and the warranty end counted from the selling store's local
--   date, with in warranty / expired as of that store's today. Cashiers may look a serial up at the counter for a
--   warranty claim: they get the product, the dates, the stores and the receipt number (which the refund screen
--   takes), but not the customer, the purchase order or the supplier, and no sale id. Owners and managers get those
--   for the stores they may use (RLS's rule for sales), so a manager of one store does not read another store's
--   customers. Another business's serial is never found: the business is checked against the caller's role and
--   every row is filtered by it.
-- - sale_receipt(sale): the receipt of one sale as the email receipt renders it, plus each line's serial, for the
--   readers of the sale under the sales read policy: the lookup screen's receipt link.

alter table public.serial_numbers add column purchase_order_id uuid;
alter table public.serial_numbers add constraint serial_numbers_purchase_order_id_business_id_fkey
  foreign key (purchase_order_id, business_id) references public.purchase_orders(id, business_id);
create index serial_numbers_purchase_order_idx on public.serial_numbers (purchase_order_id, business_id);
comment on column public.serial_numbers.purchase_order_id is 'The purchase order the unit was received on (null: named outside an order, e.g. opening stock).';

-- receive_serials as in 20261201143000_serial_numbers, with the purchase order it arrived on (optional).
drop function public.receive_serials(uuid,uuid,text[]);
create or replace function public.receive_serials(_store_id uuid, _variant_id uuid, _serials text[],
                                                  _purchase_order_id uuid default null)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid;
  v_tracking text;
  v_serial text;
  v_problem text;
  v_known text[];
begin
  select a.o_business_id into v_business from private.pos_store_access(_store_id, array['owner', 'manager']) a;
  select p.serial_tracking into v_tracking
    from public.variants v join public.products p on p.id = v.product_id
   where v.id = _variant_id and v.business_id = v_business;
  if v_tracking is null then
    raise exception 'this item is not tracked by serial number: turn serial tracking on for its product first' using errcode = '22023';
  end if;
  if _purchase_order_id is not null and not exists (
       select 1 from public.purchase_orders o join public.purchase_order_lines l on l.purchase_order_id = o.id
        where o.id = _purchase_order_id and o.business_id = v_business and o.store_id = _store_id
          and l.variant_id = _variant_id) then
    raise exception 'the purchase order is not one of this store with this item' using errcode = '22023';
  end if;
  if coalesce(cardinality(_serials), 0) = 0 or cardinality(_serials) > 500 then
    raise exception 'receive between 1 and 500 serial numbers at a time' using errcode = '22023';
  end if;
  foreach v_serial in array _serials loop
    v_problem := private.serial_problem(v_tracking, v_serial);
    if v_problem is not null then
      raise exception '%: %', left(coalesce(v_serial, ''), 64), v_problem using errcode = '22023';
    end if;
  end loop;
  if (select count(distinct btrim(s)) from unnest(_serials) s) <> cardinality(_serials) then
    raise exception 'a serial number is listed twice' using errcode = '22023';
  end if;
  select array_agg(n.serial order by n.serial) into v_known from public.serial_numbers n
   where n.business_id = v_business and n.variant_id = _variant_id and n.serial = any (select btrim(s) from unnest(_serials) s);
  if v_known is not null then
    raise exception 'already received: %', array_to_string(v_known[1:10], ', ') using errcode = '23505';
  end if;
  insert into public.serial_numbers (business_id, variant_id, serial, store_id, received_by, purchase_order_id)
  select v_business, _variant_id, btrim(s), _store_id, (select auth.uid()), _purchase_order_id from unnest(_serials) s;
  perform private.log_activity(v_business, _store_id, 'serial.received', 'variant', _variant_id, null,
    jsonb_build_object('count', cardinality(_serials), 'first', btrim(_serials[1]), 'purchase_order_id', _purchase_order_id));
  return cardinality(_serials);
end;
$$;
comment on function public.receive_serials(uuid,uuid,text[],uuid) is 'Owners and managers of the store name the units received (all or nothing; 23505 for a known serial), optionally on a purchase order of the store with a line for the item.';
revoke all on function public.receive_serials(uuid,uuid,text[],uuid) from public, anon;
grant execute on function public.receive_serials(uuid,uuid,text[],uuid) to authenticated;

-- A serial across the business: each unit of that serial (or a sale of it that was never received), where it was
-- received, each sale and return, and the warranty. Details (customer, order, supplier, sale id) only for owners and
-- managers in the stores they may use; cashiers see the rest for warranty claims at the counter.
create or replace function public.find_serial(_business_id uuid, _serial text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_role text;
  v_full boolean;
  v_stores uuid[];
  v_serial text := btrim(coalesce(_serial, ''));
begin
  v_role := private.assert_role(_business_id, array['owner', 'manager', 'cashier']);
  if v_serial = '' or char_length(v_serial) > 64 then
    raise exception 'enter a serial number (up to 64 characters)' using errcode = '22023';
  end if;
  v_full := v_role <> 'cashier' and _business_id in (select private.my_full_access_business_ids());
  v_stores := case when v_role = 'cashier' then '{}'::uuid[]
                   else array(select private.my_listed_store_ids()) end;
  return coalesce((
    with units as (
      select n.id, n.serial, n.variant_id, n.status, n.store_id, n.received_at, n.purchase_order_id, n.sale_line_id
        from public.serial_numbers n
       where n.business_id = _business_id and n.serial = v_serial
      union all
      -- Sold offline but never received (flagged serial_unknown): still found, as not received.
      select distinct null::uuid, ss.serial, l.variant_id, 'not_received', null::uuid, null::timestamptz, null::uuid, null::uuid
        from public.sale_line_serials ss join public.sale_lines l on l.id = ss.sale_line_id
       where ss.business_id = _business_id and ss.serial = v_serial and ss.serial_id is null
    ),
    sold as (
      select u.id as unit_id, u.variant_id as unit_variant, s.id as sale_id, s.receipt_number, s.occurred_at, s.store_id,
             st.name as store, st.time_zone, c.name as customer, ss.duplicate, ss.sale_line_id,
             (v_full or s.store_id = any (v_stores)) as open
        from units u
        join public.sale_line_serials ss on ss.business_id = _business_id
         and ((u.id is not null and ss.serial_id = u.id) or (u.id is null and ss.serial_id is null and ss.serial = v_serial))
        join public.sale_lines l on l.id = ss.sale_line_id and l.variant_id = u.variant_id
        join public.sales s on s.id = ss.sale_id
        join public.stores st on st.id = s.store_id
        left join public.customers c on c.id = s.customer_id
    )
    select jsonb_agg(jsonb_build_object(
      'serial', u.serial, 'variant_id', u.variant_id, 'product', p.name, 'sku', v.sku, 'tracking', p.serial_tracking,
      'status', u.status, 'store', rs.name,
      'received', case when u.id is not null then jsonb_build_object(
          'at', u.received_at, 'store_id', u.store_id, 'store', rs.name,
          'purchase_order_id', case when v_full or u.store_id = any (v_stores) then u.purchase_order_id end,
          'supplier', case when v_full or u.store_id = any (v_stores) then sup.name end) end,
      'sales', coalesce((
        select jsonb_agg(jsonb_build_object(
                 'occurred_at', x.occurred_at, 'sold_on', (x.occurred_at at time zone x.time_zone)::date,
                 'store_id', x.store_id, 'store', x.store, 'receipt_number', x.receipt_number, 'duplicate', x.duplicate,
                 'sale_id', case when x.open then x.sale_id end,
                 'customer', case when x.open then x.customer end,
                 'refunds', coalesce((
                   select jsonb_agg(jsonb_build_object(
                            'refund_id', case when x.open then f.id end, 'occurred_at', f.occurred_at, 'returned_on', (f.occurred_at at time zone fs.time_zone)::date,
                            'store', fs.name, 'qty', rl.qty, 'disposition', rl.disposition)
                          order by f.occurred_at)
                     from public.refund_lines rl
                     join public.refunds f on f.id = rl.refund_id
                     join public.stores fs on fs.id = f.store_id
                    where rl.sale_line_id = x.sale_line_id and rl.business_id = _business_id), '[]'))
               order by x.occurred_at)
          from sold x where x.unit_id is not distinct from u.id and x.unit_variant = u.variant_id), '[]'),
      'warranty_months', p.warranty_months,
      'warranty_ends_on', w.ends_on,
      'warranty', case when p.warranty_months is null then 'none'
                       when u.status not in ('sold', 'not_received') or w.ends_on is null then 'not_sold'
                       when w.today <= w.ends_on then 'in_warranty'
                       else 'expired' end,
      'details', v_full or u.store_id = any (v_stores))
      order by p.name, u.serial, u.received_at)
      from units u
      join public.variants v on v.id = u.variant_id and v.business_id = _business_id
      join public.products p on p.id = v.product_id
      left join public.stores rs on rs.id = u.store_id
      left join public.purchase_orders po on po.id = u.purchase_order_id
      left join public.suppliers sup on sup.id = po.supplier_id
      -- The warranty runs from the sale that holds the unit now (a returned and resold unit: the resale), on the
      -- selling store's calendar, and is judged against that store's today. A unit sold but never received (its
      -- offline sales are flagged serial_unknown): its latest sale.
      left join lateral (
        select ((x.occurred_at at time zone x.time_zone)::date + make_interval(months => p.warranty_months))::date as ends_on,
               (now() at time zone x.time_zone)::date as today
          from sold x
         where x.unit_variant = u.variant_id and x.unit_id is not distinct from u.id
           and (u.id is null or x.sale_line_id = u.sale_line_id)
         order by x.occurred_at desc limit 1) w on p.warranty_months is not null), '[]');
end;
$$;
comment on function public.find_serial(uuid,text) is 'A serial across the business: received (store, order), sold (store, receipt, date), returned, and the warranty end with in warranty / expired. Owners, managers and cashiers; customer, order, supplier and sale id only for owners and managers in stores they may use.';
revoke all on function public.find_serial(uuid,text) from public, anon;
grant execute on function public.find_serial(uuid,text) to authenticated;

-- The receipt of one sale (the email receipt's fields) with each line's serial, for readers of the sale under the
-- sales read policy (owners and managers in their stores, a cashier the sales they rang).
create or replace function public.sale_receipt(_sale_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_sale public.sales;
begin
  select s.* into v_sale from public.sales s
   where s.id = _sale_id
     and (((s.business_id in (select private.my_full_access_business_ids()) or s.store_id in (select private.my_listed_store_ids()))
           and s.business_id in (select private.my_business_ids(array['owner', 'manager'])))
          or s.id in (select private.my_rung_sale_ids()));
  if v_sale.id is null then
    raise exception 'receipt not found' using errcode = 'PT404';
  end if;
  return private.receipt_email_params(v_sale) || jsonb_build_object(
    'lines', coalesce((select jsonb_agg(jsonb_build_object('description', l.description, 'qty', l.qty,
                                                           'unit_price', l.unit_price, 'discount', l.discount,
                                                           'line_total', l.line_total, 'serial', ss.serial)
                                        order by l.line_no)
                         from public.sale_lines l
                         left join public.sale_line_serials ss on ss.sale_line_id = l.id
                        where l.sale_id = v_sale.id), '[]'),
    'customer', (select c.name from public.customers c where c.id = v_sale.customer_id));
end;
$$;
comment on function public.sale_receipt(uuid) is 'One sale''s receipt with the serial of each line, for the readers of the sale (the serial lookup''s receipt link).';
revoke all on function public.sale_receipt(uuid) from public, anon;
grant execute on function public.sale_receipt(uuid) to authenticated;
