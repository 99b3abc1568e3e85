-- Serial numbers and warranty (issue 29, ADR 0253): products tracked by serial (or by IMEI, 15 digits with the Luhn
-- check) have their units registered as they are received (receive_serials); a sale line of such a product is one
-- unit and names its serial. A serial is sold once: the sale takes it with one conditional update (status
-- in_stock -> sold), so of two registers selling it at once the second waits for the first and then finds it sold
-- (refused online with 23505, a 409 over HTTP). Offline the register could not know: the sale is kept, the serial
-- line is recorded as a duplicate and the sale flagged (serial_duplicate:<line>) for a manager. A restocked refund
-- puts the unit back in stock. find_serial finds a serial's sales and refunds with its warranty end (sold on +
-- the product's warranty months). post_sale_core, sale_lines_priced and post_refund are their latest definitions
-- with one call each added (and two keys passed through the priced lines).

alter table public.products add column serial_tracking text;
alter table public.products add column warranty_months integer;
alter table public.products add constraint products_serial_tracking_check check (serial_tracking in ('serial', 'imei'));
alter table public.products add constraint products_warranty_months_range check (warranty_months between 0 and 240);
comment on column public.products.serial_tracking is 'serial or imei: each unit sold names its serial (imei: 15 digits with the Luhn check); null: not tracked.';
comment on column public.products.warranty_months is 'Months of warranty from the day a unit is sold (find_serial shows the end); null: none recorded.';
grant insert (serial_tracking, warranty_months) on table public.products to authenticated;
grant update (serial_tracking, warranty_months) on table public.products to authenticated;

-- An IMEI: 15 digits whose last is the Luhn check digit of the first 14.
create or replace function private.imei_is_valid(_imei text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(_imei, '') ~ '^[0-9]{15}$'
     and (select sum(case when i % 2 = 0 then (d * 2) / 10 + (d * 2) % 10 else d end) % 10 = 0
            from (select i, substr(_imei, i, 1)::int as d from generate_series(1, 15) i) x);
$$;
revoke all on function private.imei_is_valid(text) from public;

-- What is wrong with a serial for a product's tracking (null: nothing).
create or replace function private.serial_problem(_tracking text, _serial text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when coalesce(btrim(_serial), '') = '' then 'enter the serial number'
    when _tracking = 'imei' and not private.imei_is_valid(_serial) then 'an IMEI is 15 digits and its last digit checks the others (Luhn)'
    when _serial !~ '^[A-Za-z0-9./-]{1,64}$' then 'a serial number is up to 64 letters, digits, dots, dashes or slashes'
    end;
$$;
revoke all on function private.serial_problem(text,text) from public;

create table public.serial_numbers (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  variant_id uuid not null,
  serial text not null,
  store_id uuid not null,
  status text default 'in_stock'::text not null,
  sale_line_id uuid,
  received_at timestamp with time zone default now() not null,
  received_by uuid,
  constraint serial_numbers_pkey primary key (id),
  constraint serial_numbers_business_id_variant_id_serial_key unique (business_id, variant_id, serial),
  constraint serial_numbers_serial_check check (serial ~ '^[A-Za-z0-9./-]{1,64}$'),
  constraint serial_numbers_status_check check (status in ('in_stock', 'sold', 'damaged')),
  constraint serial_numbers_sold_has_line check ((status = 'sold') = (sale_line_id is not null)),
  constraint serial_numbers_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint serial_numbers_variant_id_business_id_fkey foreign key (variant_id, business_id) references public.variants(id, business_id) on delete cascade,
  constraint serial_numbers_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade,
  constraint serial_numbers_sale_line_id_fkey foreign key (sale_line_id) references public.sale_lines(id),
  constraint serial_numbers_received_by_fkey foreign key (received_by) references auth.users(id) on delete set null
);
alter table public.serial_numbers enable row level security;
comment on table public.serial_numbers is 'Units of serial-tracked products: received (receive_serials), sold once (post_sale), back in stock after a restocked refund. Members of the business read; written only by those functions.';
grant select on table public.serial_numbers to authenticated;
grant delete, insert, select, update on table public.serial_numbers to service_role;
create index serial_numbers_serial_idx on public.serial_numbers (business_id, serial);
create index serial_numbers_sale_line_idx on public.serial_numbers (sale_line_id);
create index serial_numbers_received_by_idx on public.serial_numbers (received_by);
create index serial_numbers_variant_idx on public.serial_numbers (variant_id, business_id);
create index serial_numbers_store_idx on public.serial_numbers (store_id, business_id);
create policy "serial_numbers: members read" on public.serial_numbers for select to authenticated
  using (business_id in (select private.my_business_ids()));

create table public.sale_line_serials (
  sale_line_id uuid not null,
  business_id uuid not null,
  sale_id uuid not null,
  serial text not null,
  serial_id uuid,
  duplicate boolean default false not null,
  constraint sale_line_serials_pkey primary key (sale_line_id),
  constraint sale_line_serials_sale_line_id_business_id_fkey foreign key (sale_line_id, business_id) references public.sale_lines(id, business_id) on delete cascade,
  constraint sale_line_serials_sale_id_business_id_fkey foreign key (sale_id, business_id) references public.sales(id, business_id) on delete cascade,
  constraint sale_line_serials_serial_id_fkey foreign key (serial_id) references public.serial_numbers(id)
);
alter table public.sale_line_serials enable row level security;
comment on table public.sale_line_serials is 'The serial a sale line sold (duplicate: an offline sale of a unit already sold, flagged for review). Readers of the sale read them; written by post_sale.';
grant select on table public.sale_line_serials to authenticated;
grant select on table public.sale_line_serials to service_role;
create index sale_line_serials_sale_idx on public.sale_line_serials (sale_id, business_id);
create index sale_line_serials_serial_id_idx on public.sale_line_serials (serial_id);
create index sale_line_serials_line_business_idx on public.sale_line_serials (sale_line_id, business_id);
create index sale_line_serials_business_serial_idx on public.sale_line_serials (business_id, serial);
create policy "sale_line_serials: readers of the sale" on public.sale_line_serials for select to authenticated
  using ((((business_id in (select private.my_full_access_business_ids())) or (sale_id in (select s.id from public.sales s where s.store_id in (select private.my_listed_store_ids())))) and (business_id in (select private.my_business_ids(array['owner', 'manager'])))) or (sale_id in (select private.my_rung_sale_ids())));

-- Owners and managers register the serials of units received at a store (a purchase order's receipt moves the
-- stock; this names the units). All or nothing: a serial already known for the item refuses the batch (23505).
create or replace function public.receive_serials(_store_id uuid, _variant_id uuid, _serials text[])
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
  insert into public.serial_numbers (business_id, variant_id, serial, store_id, received_by)
  select v_business, _variant_id, btrim(s), _store_id, (select auth.uid()) from unnest(_serials) s;
  perform private.log_activity(v_business, _store_id, 'serial.received', 'variant', _variant_id, null,
    jsonb_build_object('count', cardinality(_serials), 'first', btrim(_serials[1])));
  return cardinality(_serials);
end;
$$;
revoke all on function public.receive_serials(uuid,uuid,text[]) from public, anon;
grant execute on function public.receive_serials(uuid,uuid,text[]) to authenticated;

-- The serial lines of a posted sale: checked, the units taken (status in_stock -> sold, one at a time under
-- concurrency), recorded. Returns the review reasons of an offline sale.
create or replace function private.record_sale_serials(_business_id uuid, _sale_id uuid, _lines jsonb, _offline boolean)
returns text[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  l record;
  v_problem text;
  v_serial text;
  v_unit uuid;
  v_reasons text[] := '{}';
begin
  for l in select x.id, x.line_no, x.variant_id, x.qty, x.serial_tracking, x.serial
             from jsonb_to_recordset(_lines) as x (id uuid, line_no int, variant_id uuid, qty numeric, serial_tracking text,
                                                   serial jsonb)
            where x.serial_tracking is not null
            order by x.line_no loop
    v_serial := case when jsonb_typeof(l.serial) = 'string' then btrim(l.serial #>> '{}') end;
    v_problem := case when l.qty <> 1 then 'sell a serial-numbered item one unit per line'
                      else private.serial_problem(l.serial_tracking, v_serial) end;
    if v_problem is not null then
      if not _offline then
        raise exception 'line %: %', l.line_no, v_problem using errcode = '22023';
      end if;
      v_reasons := array_append(v_reasons, ('serial_missing:' || l.line_no)::text);
      continue;
    end if;
    v_unit := null;
    update public.serial_numbers n set status = 'sold', sale_line_id = l.id
     where n.business_id = _business_id and n.variant_id = l.variant_id and n.serial = v_serial and n.status = 'in_stock'
    returning n.id into v_unit;
    if v_unit is null then
      select n.id into v_unit from public.serial_numbers n
       where n.business_id = _business_id and n.variant_id = l.variant_id and n.serial = v_serial;
      if not _offline then
        if v_unit is null then
          raise exception 'line %: serial % was never received for this item', l.line_no, v_serial using errcode = '22023';
        end if;
        raise exception 'line %: serial % is already sold', l.line_no, v_serial using errcode = '23505';
      end if;
      v_reasons := array_append(v_reasons,
        ((case when v_unit is null then 'serial_unknown:' else 'serial_duplicate:' end) || l.line_no)::text);
      insert into public.sale_line_serials (sale_line_id, business_id, sale_id, serial, serial_id, duplicate)
      values (l.id, _business_id, _sale_id, v_serial, v_unit, true);
    else
      insert into public.sale_line_serials (sale_line_id, business_id, sale_id, serial, serial_id)
      values (l.id, _business_id, _sale_id, v_serial, v_unit);
    end if;
  end loop;
  return v_reasons;
end;
$$;
revoke all on function private.record_sale_serials(uuid,uuid,jsonb,boolean) from public;

-- A refund's serial lines: a restocked unit is back in stock, a damaged one is marked so.
create or replace function private.return_refund_serials(_refund_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.serial_numbers n
     set status = case when rl.disposition = 'restock' then 'in_stock' else 'damaged' end, sale_line_id = null
    from public.refund_lines rl
    join public.sale_line_serials ss on ss.sale_line_id = rl.sale_line_id and not ss.duplicate
   where rl.refund_id = _refund_id and n.id = ss.serial_id and n.sale_line_id = ss.sale_line_id;
$$;
revoke all on function private.return_refund_serials(uuid) from public;

-- A serial across the business: its unit(s), each sale and refund of it, and the warranty end of the last sale.
-- Owners and managers of the business; the customer's name where the sale has one.
create or replace function public.find_serial(_business_id uuid, _serial text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if coalesce(btrim(_serial), '') = '' or char_length(_serial) > 64 then
    raise exception 'enter a serial number (up to 64 characters)' using errcode = '22023';
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
      'serial', x.serial, 'variant_id', x.variant_id, 'product', x.product, 'status', x.status,
      'received_at', x.received_at, 'warranty_months', x.warranty_months,
      'sales', x.sales,
      'warranty_ends_on', case when x.warranty_months is not null and x.last_sold is not null
                               then (x.last_sold + make_interval(months => x.warranty_months))::date end)
      order by x.serial)
    from (
      select n.serial, n.variant_id, n.status, n.received_at, p.name as product, p.warranty_months,
             (select max(s.occurred_at) from public.sale_line_serials ss join public.sales s on s.id = ss.sale_id
               where ss.serial_id = n.id and not ss.duplicate) as last_sold,
             coalesce((select jsonb_agg(jsonb_build_object(
                        'sale_id', s.id, 'receipt_number', s.receipt_number, 'occurred_at', s.occurred_at,
                        'store_id', s.store_id, 'customer', c.name, 'duplicate', ss.duplicate,
                        'refunds', coalesce((select jsonb_agg(jsonb_build_object('refund_id', rl.refund_id, 'qty', rl.qty,
                                                                                'disposition', rl.disposition))
                                               from public.refund_lines rl where rl.sale_line_id = ss.sale_line_id), '[]'))
                        order by s.occurred_at)
                        from public.sale_line_serials ss join public.sales s on s.id = ss.sale_id
                        left join public.customers c on c.id = s.customer_id
                       where ss.serial_id = n.id), '[]') as sales
        from public.serial_numbers n
        join public.variants v on v.id = n.variant_id
        join public.products p on p.id = v.product_id
       where n.business_id = _business_id and n.serial = btrim(_serial)) x), '[]');
end;
$$;
revoke all on function public.find_serial(uuid,text) from public, anon;
grant execute on function public.find_serial(uuid,text) to authenticated;

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
  v_out jsonb[] := '{}';
begin
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
           'has_lots', p.has_lots, 'unit', p.unit, 'cost', coalesce(c.cost, 0), 'serial_tracking', p.serial_tracking,
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
    -- A scale label (20261201142000): the weight or price it carries is the line's quantity.
    v_problem := private.scale_line_problem(_business_id, v_line, v_qty, v_price, _store.currency);
    if v_problem is not null then
      if not _offline then
        raise exception 'line %: %', v_n, v_problem using errcode = '22023';
      end if;
      o_reasons := array_append(o_reasons, ('scale_label_mismatch:' || v_n)::text);
    end if;
    v_discount := 0;
    if v_line ? 'discount' and jsonb_typeof(v_line -> 'discount') <> 'null' then
      if jsonb_typeof(v_line -> 'discount') <> 'number' or (v_line ->> 'discount') !~ '^[0-9]{1,12}$' then
        raise exception 'line %: a discount is a whole amount in minor units', v_n using errcode = '22023';
      end if;
      v_discount := (v_line ->> 'discount')::bigint;
    end if;
    v_gross := round(v_price * v_qty)::bigint;
    if v_gross = 0 and v_price > 0 then
      if not _offline then
        raise exception 'line %: % is too little to charge for at this price: weigh it again or add it to its other line',
          v_n, v_qty using errcode = '22023';
      end if;
      o_reasons := array_append(o_reasons, ('zero_price_line:' || v_n)::text);
    end if;
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
    v_out := array_append(v_out, jsonb_build_object(
      'id', gen_random_uuid(), 'line_no', v_n, 'variant_id', lower(v_line ->> 'variant_id'), 'lot_id', v_lot,
      'qty', v_qty, 'unit_price', v_price, 'discount', v_discount, 'tax_rate', v_rate, 'tax_amount', v_tax,
      'line_total', v_line_total, 'cost', (v_item ->> 'cost')::bigint, 'track_stock', (v_item ->> 'track_stock')::boolean,
      'description', v_item ->> 'description', 'serial_tracking', v_item -> 'serial_tracking', 'serial', v_line -> 'serial'));
  end loop;
  o_lines := to_jsonb(v_out);
  o_approval_id := v_approval.id;
end;
$$;
revoke all on function private.sale_lines_priced(jsonb,uuid,public.stores,uuid,boolean,text,uuid) from public;

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

  if nullif(_payload ->> 'approval_id', '') ~* v_uuid then
    v_approval_id := (_payload ->> 'approval_id')::uuid;
  end if;
  select * into v_priced
    from private.sale_lines_priced(_payload -> 'lines', v_business, v_store, o_id, v_offline, v_role, v_approval_id);
  v_reasons := v_reasons || v_priced.o_reasons;

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
                            change_total, review_reasons, offline, approval_id, occurred_at, cash_rounding)
  values (o_id, v_business, v_store.id, v_register.id, v_terms.o_shift_id, (select auth.uid()), v_customer, o_receipt,
          v_store.currency, v_store.tax_inclusive, v_priced.o_subtotal, v_priced.o_discounts, v_priced.o_taxes,
          v_priced.o_total, v_paid.o_tendered, v_paid.o_change, v_reasons, v_offline, v_priced.o_approval_id,
          v_terms.o_occurred, v_rounding)
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

  perform private.insert_sale_rows(o_id, v_business, v_store.id, v_priced.o_lines, v_paid.o_tenders);
  v_negative := private.sale_stock_movements(v_business, v_store.id, o_id, o_receipt, v_terms.o_occurred, v_priced.o_lines);
  -- Serial numbers (20261201143000): each sold once; offline a second sale of one is kept and flagged.
  v_negative := v_negative || private.record_sale_serials(v_business, o_id, v_priced.o_lines, v_offline);
  if cardinality(v_negative) > 0 then
    v_reasons := v_reasons || v_negative;
    update public.sales s set review_reasons = v_reasons where s.id = o_id;
  end if;

  perform private.log_activity(v_business, v_store.id, 'sale.posted', 'sale', o_id, null,
    jsonb_build_object('receipt_number', o_receipt, 'total', v_priced.o_total, 'cash_rounding', v_rounding,
                       'offline', v_offline,
                       'review_reasons', to_jsonb(v_reasons), 'approval_id', v_priced.o_approval_id)
    || case when _payload ? 'occurred_at' then jsonb_build_object('register_occurred_at', _payload -> 'occurred_at')
            else '{}'::jsonb end);
end;
$$;
revoke all on function private.post_sale_core(jsonb) from public;

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
              'lines', (select jsonb_agg(to_jsonb(l)) from public.refund_lines l where l.refund_id = f.id))
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
                              tender_kind, total, reason, offline, occurred_at)
  select v_id, v_business, v_sale.store_id, v_sale.id, s.register_id, s.id, (select auth.uid()), v_approval.id,
         v_tender, 0, nullif(btrim(coalesce(_payload ->> 'reason', '')), ''), v_offline, v_terms.o_occurred
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
    values (v_business, v_id, m.id, v_qty, v_amount, m.disp);
    v_total := v_total + v_amount;
    if m.disp = 'restock' and (v_sl ->> 'track_stock')::boolean then
      perform private.apply_movement(v_business, v_sale.store_id, (v_sl ->> 'variant_id')::uuid,
        (v_sl ->> 'lot_id')::uuid, 'refund', v_qty, null, (v_sl ->> 'cost')::bigint, v_terms.o_occurred, 'refund', v_id,
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
                       'shift_id', v_terms.o_shift_id, 'review_reasons', to_jsonb(v_reasons))
    || case when _payload ? 'occurred_at' then jsonb_build_object('register_occurred_at', _payload -> 'occurred_at')
            else '{}'::jsonb end);
  return (select to_jsonb(f) || jsonb_build_object('replayed', false,
            'lines', (select jsonb_agg(to_jsonb(l)) from public.refund_lines l where l.refund_id = f.id))
            from public.refunds f where f.id = v_id);
end;
$$;
revoke all on function public.post_refund(jsonb) from public;
grant execute on function public.post_refund(jsonb) to authenticated;
