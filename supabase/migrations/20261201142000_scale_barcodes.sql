-- Scale barcodes (issue 29, ADR 0252): EAN-13 labels printed by a scale with the weight or the price in them, by
-- rules per business written like Odoo's: '21.....{NNDDD}' is the prefix 21, five digits of item code, a value of
-- two whole digits and three decimals, then the check digit (13 digits in all). The item is the variant whose
-- barcode is the label with its value zeroed (2112345000002 for item 12345 under that rule), as in Odoo, so the
-- register's offline catalog of barcodes finds it with nothing new to download, and a PLU typed at the register
-- builds the same code. shared/lib/scale-barcode.ts is the register's parser; these functions are the same
-- rule for posted sales (tests/db/scale-barcode-parity.test.ts runs both over the same table).
-- post_sale (sale_lines_priced, its latest definition) checks a line that names its label: the item matches and the
-- quantity is the label's weight, or the label's price over the unit price (3 decimals). Online a mismatch is
-- refused; offline it is kept and flagged (scale_label_mismatch:<line>).

-- Minor digits per currency, as the register's Intl knows them (CLDR): 0 for JPY and HUF, 3 for KWD.
-- tests/db/scale-barcode-parity.test.ts compares it with Intl for every code the currency_code domain allows.
create or replace function private.currency_digits(_currency text)
returns int
language sql
immutable
set search_path = ''
as $$
  select case
    when upper(_currency) in ('AFN', 'ALL', 'BIF', 'CLP', 'COP', 'DJF', 'GNF', 'HUF', 'IDR', 'IQD', 'IRR', 'ISK', 'JPY',
                              'KMF', 'KPW', 'KRW', 'LAK', 'LBP', 'MGA', 'MMK', 'PKR', 'PYG', 'RWF', 'SLL', 'SOS', 'SYP',
                              'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF', 'YER') then 0
    when upper(_currency) in ('BHD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND') then 3
    else 2 end;
$$;
revoke all on function private.currency_digits(text) from public;

-- A rule's pattern: prefix digits, item-code dots, {N..D..} value, 12 positions (the 13th is the check digit).
create or replace function private.scale_pattern_parts(_pattern text,
  out o_prefix text, out o_code_len int, out o_int_digits int, out o_decimals int)
language plpgsql
immutable
set search_path = ''
as $$
declare
  m text[];
begin
  m := regexp_match(coalesce(_pattern, ''), '^([0-9]{1,4})(\.{1,6})\{(N{1,6})(D{0,3})\}$');
  if m is null or char_length(m[1]) + char_length(m[2]) + char_length(m[3]) + char_length(m[4]) <> 12 then
    return;
  end if;
  o_prefix := m[1];
  o_code_len := char_length(m[2]);
  o_int_digits := char_length(m[3]);
  o_decimals := char_length(m[4]);
end;
$$;
revoke all on function private.scale_pattern_parts(text) from public;
-- The rules' check constraint calls it as the inserting member.
grant execute on function private.scale_pattern_parts(text) to authenticated;
grant execute on function private.scale_pattern_parts(text) to service_role;

-- A 13-digit label read by one pattern: its item code, its value as digits, and the item's own barcode (value
-- zeroed, check digit recomputed). Null when the code is not 13 digits with a right check digit or not this
-- pattern's prefix.
create or replace function private.scale_barcode_parse(_code text, _pattern text)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  p record;
  v_value_len int;
  v_base text;
begin
  select * into p from private.scale_pattern_parts(_pattern);
  if p.o_prefix is null or coalesce(_code, '') !~ '^[0-9]{13}$'
     or private.gtin_check_digit(left(_code, 12)) <> right(_code, 1)::int or left(_code, char_length(p.o_prefix)) <> p.o_prefix then
    return null;
  end if;
  v_value_len := p.o_int_digits + p.o_decimals;
  v_base := left(_code, 12 - v_value_len) || repeat('0', v_value_len);
  return jsonb_build_object(
    'item_code', substr(_code, char_length(p.o_prefix) + 1, p.o_code_len),
    'value_digits', substr(_code, 13 - v_value_len, v_value_len),
    'decimals', p.o_decimals,
    'base_code', v_base || private.gtin_check_digit(v_base)::text);
end;
$$;
revoke all on function private.scale_barcode_parse(text,text) from public;

create table public.scale_barcode_rules (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  name text not null,
  pattern text not null,
  kind text not null,
  created_at timestamp with time zone default now() not null,
  constraint scale_barcode_rules_pkey primary key (id),
  constraint scale_barcode_rules_business_id_pattern_key unique (business_id, pattern),
  constraint scale_barcode_rules_name_check check (char_length(btrim(name)) between 1 and 60),
  constraint scale_barcode_rules_pattern_check check ((private.scale_pattern_parts(pattern)).o_prefix is not null),
  constraint scale_barcode_rules_kind_check check (kind in ('weight', 'price')),
  constraint scale_barcode_rules_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table public.scale_barcode_rules enable row level security;
comment on table public.scale_barcode_rules is 'How this business''s scale labels carry a weight or a price (Odoo-style patterns such as 21.....{NNDDD}). Members read (the register parses labels offline); owners and managers add and delete.';
grant delete, insert, select, update on table public.scale_barcode_rules to service_role;
grant delete, select on table public.scale_barcode_rules to authenticated;
grant insert (business_id, name, pattern, kind) on table public.scale_barcode_rules to authenticated;
create index scale_barcode_rules_business_idx on public.scale_barcode_rules (business_id);

create policy "scale_barcode_rules: members read" on public.scale_barcode_rules for select to authenticated
  using (business_id in (select private.my_business_ids()));
create policy "scale_barcode_rules: owners and managers insert" on public.scale_barcode_rules for insert to authenticated
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));
create policy "scale_barcode_rules: owners and managers delete" on public.scale_barcode_rules for delete to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create trigger audit_scale_barcode_rule after insert or update or delete on public.scale_barcode_rules
  for each row execute function private.audit_keyed_row('scale_barcode_rule', 'id');

-- A label read by the business's rules, the longest prefix first (a '21' rule before a '2' rule).
create or replace function private.scale_barcode_match(_business_id uuid, _code text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select x.parsed || jsonb_build_object('rule_id', r.id, 'kind', r.kind)
    from public.scale_barcode_rules r
    cross join lateral (select private.scale_barcode_parse(_code, r.pattern) as parsed) x
   where r.business_id = _business_id and x.parsed is not null
   order by char_length((private.scale_pattern_parts(r.pattern)).o_prefix) desc, r.pattern
   limit 1;
$$;
revoke all on function private.scale_barcode_match(uuid,text) from public;

-- The quantity a price label stands for at a unit price: the label's amount over the price, to 3 decimals,
-- half away from zero (shared/lib/scale-barcode.ts quantityForPrice).
create or replace function private.scale_price_qty(_label_minor bigint, _unit_price bigint)
returns numeric
language sql
immutable
set search_path = ''
as $$
  select case when coalesce(_unit_price, 0) <= 0 then null else round(_label_minor::numeric / _unit_price, 3) end;
$$;
revoke all on function private.scale_price_qty(bigint,bigint) from public;

-- What is wrong with a sale line that names a scale label (null: nothing, or no label).
create or replace function private.scale_line_problem(_business_id uuid, _line jsonb, _qty numeric, _unit_price bigint,
                                                      _currency text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_label text;
  v_match jsonb;
  v_digits int;
  v_expected numeric;
begin
  if not (_line ? 'scale_label') or jsonb_typeof(_line -> 'scale_label') = 'null' then
    return null;
  end if;
  v_label := _line ->> 'scale_label';
  v_match := private.scale_barcode_match(_business_id, v_label);
  if v_match is null then
    return format('%s is not a scale label of this business (or its check digit is wrong)', left(v_label, 20));
  end if;
  if not exists (select 1 from public.barcodes b
                  where b.business_id = _business_id and b.code = v_match ->> 'base_code'
                    and b.variant_id::text = lower(_line ->> 'variant_id')) then
    return format('the scale label is for the item with barcode %s, not this one', v_match ->> 'base_code');
  end if;
  if v_match ->> 'kind' = 'weight' then
    v_expected := (v_match ->> 'value_digits')::numeric / power(10::numeric, (v_match ->> 'decimals')::int);
  else
    v_digits := private.currency_digits(_currency);
    if (v_match ->> 'decimals')::int > v_digits then
      return format('the label''s price has %s decimals but %s has %s', v_match ->> 'decimals', _currency, v_digits);
    end if;
    v_expected := private.scale_price_qty(
      (v_match ->> 'value_digits')::bigint * power(10::numeric, v_digits - (v_match ->> 'decimals')::int)::bigint, _unit_price);
  end if;
  if v_expected is null or v_expected <> _qty then
    return format('the label says %s but the line has %s', coalesce(v_expected::text, 'no quantity'), _qty);
  end if;
  return null;
end;
$$;
revoke all on function private.scale_line_problem(uuid,jsonb,numeric,bigint,text) from public;

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
      'description', v_item ->> 'description'));
  end loop;
  o_lines := to_jsonb(v_out);
  o_approval_id := v_approval.id;
end;
$$;
revoke all on function private.sale_lines_priced(jsonb,uuid,public.stores,uuid,boolean,text,uuid) from public;
