-- Foreign cash at a rate a manager sets (issue 29, ADR 0395).
--
-- - public.exchange_rates: per business, what one unit of a foreign currency is worth in a store currency (an exact
--   numeric), from a moment on. A new rate is a new row; old rows stay, because a sale names the rate it used and an
--   offline register may still sell at a rate replaced meanwhile. Members read them (the register caches them);
--   nobody writes them but public.set_exchange_rate, which owners and managers call; the trail has every row.
-- - sale_tenders: a cash tender may be foreign: its currency, the rate it names (rate_id, rate) and what was handed
--   over in that currency (foreign_tendered). amount, tendered and change stay in the store's currency.
-- - post_sale: private.sale_tenders_checked checks the shape; private.sale_foreign_cash_checked checks the rate
--   (this business, this currency pair, in effect when the sale was made, the value sent) and the conversion
--   (tendered = amount + change, change = value - amount rounded down to the store's cash step). Online a problem is
--   a 400; offline the sale is kept and flagged foreign_cash_mismatch (ADR 0171: offline is a claim the server bounds).
--   post_sale_core changes only in the three tender lines; insert_sale_rows only in its tender insert.
-- - The drawer: shift_figures' expected_cash counts the store-currency cash kept and takes away the change given for
--   foreign cash; foreign_cash lists per currency what is expected (all foreign cash handed over stays in the drawer),
--   what was counted at the close (close_shift's _counted.foreign) and the difference. z_report's after-close cash
--   follows the same rule.

create table public.exchange_rates (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  currency public.currency_code not null,
  base_currency public.currency_code not null,
  rate numeric(19, 10) not null,
  effective_from timestamp with time zone default now() not null,
  created_at timestamp with time zone default now() not null,
  created_by uuid default auth.uid(),
  constraint exchange_rates_pkey primary key (id),
  constraint exchange_rates_id_business_id_key unique (id, business_id),
  constraint exchange_rates_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint exchange_rates_created_by_fkey foreign key (created_by) references auth.users(id) on delete set null,
  constraint exchange_rates_rate_positive check ((rate > (0)::numeric)),
  constraint exchange_rates_other_currency check ((currency::text <> base_currency::text))
);
alter table public.exchange_rates enable row level security;
comment on table public.exchange_rates is 'What one unit of a foreign currency is worth in a store currency, from effective_from on (ADR 0395). Members read; set_exchange_rate (owners, managers) adds a row; rows are never changed.';
comment on column public.exchange_rates.rate is 'Store-currency units for one foreign unit (1 EUR = 1.0825 USD): exact, at most 10 decimals.';
grant select on table public.exchange_rates to authenticated;
grant select on table public.exchange_rates to service_role;
create index exchange_rates_lookup_idx on public.exchange_rates (business_id, base_currency, currency, effective_from desc);
create index exchange_rates_created_by_idx on public.exchange_rates (created_by);
create policy "exchange_rates: members read" on public.exchange_rates for select to authenticated
  using (business_id in (select private.my_business_ids()));
create trigger audit_exchange_rate after insert or update or delete on public.exchange_rates
  for each row execute function private.audit_row('exchange_rate');
create trigger read_only_guard before insert or update or delete on public.exchange_rates
  for each statement execute function private.read_only_guard();

alter table public.sale_tenders add column currency public.currency_code;
alter table public.sale_tenders add column rate_id uuid;
alter table public.sale_tenders add column rate numeric(19, 10);
alter table public.sale_tenders add column foreign_tendered bigint;
alter table public.sale_tenders add constraint sale_tenders_rate_id_business_id_fkey
  foreign key (rate_id, business_id) references public.exchange_rates(id, business_id);
-- A foreign tender is cash with its rate and what was handed over; a flagged offline one may name no known rate.
alter table public.sale_tenders add constraint sale_tenders_foreign_check check ((
  (currency is null and rate_id is null and rate is null and foreign_tendered is null)
  or (currency is not null and kind = 'cash' and rate is not null and rate > (0)::numeric
      and foreign_tendered is not null and foreign_tendered >= 0)));
create index sale_tenders_rate_idx on public.sale_tenders (rate_id, business_id);
comment on column public.sale_tenders.currency is 'Foreign cash (ADR 0395): the currency handed over; null for the store''s own.';
comment on column public.sale_tenders.foreign_tendered is 'Foreign cash: what was handed over, in minor units of currency; tendered is its store-currency value less what the cash step keeps.';

-- What foreign cash is worth in the store currency: foreign minor units x rate, scaled between the two currencies'
-- minor digits (JPY 0, USD 2, KWD 3), rounded down (a fraction of the smallest unit is never paid out).
create or replace function private.foreign_cash_value(_foreign bigint, _rate numeric, _currency text, _base text)
returns bigint
language sql
immutable
set search_path = ''
as $$
  select floor(_foreign::numeric * _rate
               * (10::numeric ^ (private.currency_digits(_base) - private.currency_digits(_currency))))::bigint;
$$;
revoke all on function private.foreign_cash_value(bigint,numeric,text,text) from public;

-- The change for foreign cash worth _value paying _amount: the excess, rounded down to the store's cash step.
create or replace function private.foreign_cash_change(_value bigint, _amount bigint, _step bigint)
returns bigint
language sql
immutable
set search_path = ''
as $$
  select case when _value <= _amount then 0
              when coalesce(_step, 0) <= 1 then _value - _amount
              else (_value - _amount) - (_value - _amount) % _step end;
$$;
revoke all on function private.foreign_cash_change(bigint,bigint,bigint) from public;

-- A sale's foreign tenders against the rates they name. Online a problem is refused (22023: HTTP 400); offline the
-- sale is kept with foreign_cash_mismatch and a rate id that is not this business's is dropped (the FK holds).
create or replace function private.sale_foreign_cash_checked(_tenders jsonb, _business_id uuid, _store public.stores,
                                                             _occurred timestamptz, _offline boolean,
                                                             out o_tenders jsonb, out o_reasons text[])
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_tender jsonb;
  v_rate public.exchange_rates;
  v_problem text;
  v_value bigint;
  v_change bigint;
begin
  o_tenders := '[]';
  o_reasons := '{}';
  for v_tender in select value from jsonb_array_elements(_tenders) loop
    if v_tender ->> 'currency' is null then
      o_tenders := o_tenders || jsonb_build_array(v_tender);
      continue;
    end if;
    v_problem := null;
    select r.* into v_rate from public.exchange_rates r
     where r.id = (v_tender ->> 'rate_id')::uuid and r.business_id = _business_id;
    if v_tender ->> 'currency' = _store.currency then
      v_problem := format('%s is this store''s own currency: take it as plain cash', _store.currency);
    elsif v_rate.id is null or v_rate.currency <> v_tender ->> 'currency' or v_rate.base_currency <> _store.currency then
      v_problem := format('no such %s to %s exchange rate in this business', v_tender ->> 'currency', _store.currency);
    elsif v_rate.effective_from > _occurred then
      v_problem := format('the %s rate named was not in effect when the sale was made', v_rate.currency);
    elsif v_rate.rate <> (v_tender ->> 'rate')::numeric then
      v_problem := format('the rate sent (%s) is not the rate it names (%s)', v_tender ->> 'rate', v_rate.rate);
    else
      v_value := private.foreign_cash_value((v_tender ->> 'foreign_tendered')::bigint, v_rate.rate, v_rate.currency,
                                            _store.currency);
      v_change := private.foreign_cash_change(v_value, (v_tender ->> 'amount')::bigint, _store.cash_rounding_step);
      if (v_tender ->> 'amount')::bigint > v_value then
        v_problem := format('%s %s in minor units is worth %s, less than the %s it pays', v_tender ->> 'foreign_tendered',
                            v_rate.currency, v_value, v_tender ->> 'amount');
      elsif (v_tender ->> 'tendered')::bigint <> (v_tender ->> 'amount')::bigint + v_change then
        v_problem := format('at %s the %s handed over gives %s change, not %s', v_rate.rate, v_rate.currency, v_change,
                            (v_tender ->> 'tendered')::bigint - (v_tender ->> 'amount')::bigint);
      end if;
    end if;
    if v_problem is not null then
      if not _offline then
        raise exception '%', v_problem using errcode = '22023', hint = 'foreign_cash';
      end if;
      if not 'foreign_cash_mismatch' = any (o_reasons) then
        o_reasons := array_append(o_reasons, 'foreign_cash_mismatch'::text);
      end if;
      if v_rate.id is null then
        v_tender := jsonb_set(v_tender, '{rate_id}', 'null'::jsonb);
      end if;
    end if;
    o_tenders := o_tenders || jsonb_build_array(v_tender);
  end loop;
end;
$$;
revoke all on function private.sale_foreign_cash_checked(jsonb,uuid,public.stores,timestamptz,boolean) from public;

-- The counts of foreign cash at a close: {"EUR": 12000} in each currency's minor units, never the store's own.
create or replace function private.foreign_counts_checked(_foreign jsonb, _store_id uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_currency text := (select s.currency from public.stores s where s.id = _store_id);
  r record;
begin
  if _foreign is null or jsonb_typeof(_foreign) = 'null' then
    return;
  elsif jsonb_typeof(_foreign) <> 'object' then
    raise exception 'count foreign cash as an object of currency codes and amounts' using errcode = '22023';
  end if;
  for r in select key, value from jsonb_each(_foreign) loop
    if r.key !~ '^[A-Z]{3}$' or r.key = v_currency then
      raise exception 'a foreign count is by ISO 4217 code, other than the store''s %', v_currency using errcode = '22023';
    elsif jsonb_typeof(r.value) <> 'number' or (r.value #>> '{}') !~ '^[0-9]{1,12}$' then
      raise exception 'a foreign count is a whole amount in that currency''s minor units' using errcode = '22023';
    end if;
  end loop;
end;
$$;
revoke all on function private.foreign_counts_checked(jsonb,uuid) from public;

-- A new rate for a currency pair (owners and managers). It takes effect now or later, never in the past: a past
-- sale cannot be made to match a rate set after it. Returns the row.
create or replace function public.set_exchange_rate(_business_id uuid, _currency text, _base_currency text, _rate numeric,
                                                    _effective_from timestamptz default null)
returns public.exchange_rates
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.exchange_rates;
  v_from timestamptz := greatest(coalesce(_effective_from, now()), now());
begin
  perform private.assert_writable();
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if _currency is null or _base_currency is null or upper(_currency) !~ '^[A-Z]{3}$' or upper(_base_currency) !~ '^[A-Z]{3}$' then
    raise exception 'name the currencies by their ISO 4217 codes' using errcode = '22023';
  elsif upper(_currency) = upper(_base_currency) then
    raise exception 'choose a currency other than the store currency it converts to' using errcode = '22023';
  elsif not exists (select 1 from public.stores s where s.business_id = _business_id and s.archived_at is null
                       and s.currency = upper(_base_currency)) then
    raise exception 'choose the currency of one of your stores: none sells in %', upper(_base_currency) using errcode = '22023';
  elsif _rate is null or _rate <= 0 or _rate >= 1000000000 or _rate <> round(_rate, 10) then
    raise exception 'enter a rate above 0 and below 1000000000, with at most 10 decimals' using errcode = '22023';
  elsif not isfinite(v_from) or v_from > now() + interval '1 year' then
    raise exception 'choose a start within a year from now' using errcode = '22023';
  end if;
  begin
    insert into public.exchange_rates (business_id, currency, base_currency, rate, effective_from)
    values (_business_id, upper(_currency), upper(_base_currency), _rate, v_from)
    returning * into v_row;
  exception when check_violation then
    raise exception 'choose a currency by its ISO 4217 code: % is not one', upper(_currency) using errcode = '22023';
  end;
  return v_row;
end;
$$;
comment on function public.set_exchange_rate(uuid,text,text,numeric,timestamptz) is 'Owners and managers: a new exchange rate (a new row, the old kept; in the trail), from now or a later moment.';
revoke all on function public.set_exchange_rate(uuid,text,text,numeric,timestamptz) from public, anon;
grant execute on function public.set_exchange_rate(uuid,text,text,numeric,timestamptz) to authenticated;

-- The tenders of a sale, checked (cash, card or other; whole minor units; change from cash only), with their sums; a
-- foreign tender's shape.
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
  v_foreign jsonb;
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
    -- Foreign cash (ADR 0395): the shape here; private.sale_foreign_cash_checked checks the rate and the conversion.
    if v_tender ? 'currency' and jsonb_typeof(v_tender -> 'currency') <> 'null' then
      if v_kind <> 'cash' then
        raise exception 'only cash is taken in another currency' using errcode = '22023';
      elsif (v_tender ->> 'currency') !~ '^[A-Z]{3}$' then
        raise exception 'a foreign tender''s currency is an ISO 4217 code such as EUR' using errcode = '22023';
      elsif coalesce(v_tender ->> 'rate_id', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
        raise exception 'a foreign tender names the exchange rate it used' using errcode = '22023';
      elsif jsonb_typeof(v_tender -> 'rate') not in ('number', 'string') or (v_tender ->> 'rate') !~ '^[0-9]{1,9}(\.[0-9]{1,10})?$' then
        raise exception 'a foreign tender gives the rate it used (a decimal such as 1.0825)' using errcode = '22023';
      elsif jsonb_typeof(v_tender -> 'foreign_tendered') is distinct from 'number'
            or (v_tender ->> 'foreign_tendered') !~ '^[0-9]{1,12}$' then
        raise exception 'a foreign tender gives what was handed over in its currency''s minor units'
          using errcode = '22023';
      end if;
      v_foreign := jsonb_build_object('currency', v_tender ->> 'currency', 'rate_id', lower(v_tender ->> 'rate_id'),
                                      'rate', (v_tender ->> 'rate')::numeric,
                                      'foreign_tendered', (v_tender ->> 'foreign_tendered')::bigint);
    else
      v_foreign := '{}';
    end if;
    o_paid := o_paid + v_amount;
    o_tendered := o_tendered + v_tendered;
    o_change := o_change + (v_tendered - v_amount);
    o_tenders := o_tenders || jsonb_build_array(jsonb_build_object('kind', v_kind, 'amount', v_amount,
                                                 'tendered', v_tendered, 'change', v_tendered - v_amount) || v_foreign);
  end loop;
end;
$$;
revoke all on function private.sale_tenders_checked(jsonb) from public;

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
  -- Foreign cash (20261204110000, ADR 0395): the currency, the rate named and used, what was handed over in it.
  insert into public.sale_tenders (business_id, store_id, sale_id, kind, amount, tendered, change, currency, rate_id, rate,
                                   foreign_tendered)
  select _business_id, _store_id, _sale_id, t.kind, t.amount, t.tendered, t.change, t.currency, t.rate_id, t.rate,
         t.foreign_tendered
    from jsonb_to_recordset(_tenders) as t (kind text, amount bigint, tendered bigint, change bigint, currency text,
                                            rate_id uuid, rate numeric, foreign_tendered bigint);
end;
$$;
revoke all on function private.insert_sale_rows(uuid,uuid,uuid,jsonb,jsonb) from public;

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
  v_foreign record;
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
  -- Foreign cash (20261204110000, ADR 0395): each foreign tender's rate and conversion checked against the rate it
  -- names; offline a problem is kept and flagged.
  select * into v_foreign
    from private.sale_foreign_cash_checked(v_paid.o_tenders, v_business, v_store, v_terms.o_occurred, v_offline);
  v_reasons := v_reasons || v_foreign.o_reasons;
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

  perform private.insert_sale_rows(o_id, v_business, v_store.id, v_lots.o_lines, v_foreign.o_tenders);
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
revoke all on function private.post_sale_core(jsonb) from public;

create or replace function private.shift_figures(_shift_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with s as (select * from public.shifts where id = _shift_id),
  sa as (select count(*) as n, coalesce(sum(total), 0) as total, coalesce(sum(discount_total), 0) as discounts,
                coalesce(sum(cash_rounding), 0) as cash_rounding,
                coalesce(sum(tax_total), 0) as tax, count(*) filter (where flagged_for_review) as flagged
           from public.sales where shift_id = _shift_id),
  te as (select t.kind, sum(t.amount) as amount from public.sale_tenders t join public.sales x on x.id = t.sale_id
          where x.shift_id = _shift_id group by t.kind),
  -- Foreign cash (ADR 0395): the store's drawer takes the store-currency cash and gives the change of foreign cash.
  dr as (select coalesce(sum(t.amount) filter (where t.currency is null), 0) as local_cash,
                coalesce(sum(t.change) filter (where t.currency is not null), 0) as foreign_change
           from public.sale_tenders t join public.sales x on x.id = t.sale_id
          where x.shift_id = _shift_id and t.kind = 'cash'),
  fe as (select t.currency, sum(t.foreign_tendered) as expected, sum(t.amount) as paid, sum(t.change) as change,
                count(*) as n
           from public.sale_tenders t join public.sales x on x.id = t.sale_id
          where x.shift_id = _shift_id and t.currency is not null group by t.currency),
  fc as (select k.key as currency, (k.value #>> '{}')::bigint as counted
           from s, jsonb_each(case when jsonb_typeof(s.counted -> 'foreign') = 'object' then s.counted -> 'foreign'
                                   else '{}'::jsonb end) k),
  fx as (select coalesce(fe.currency, fc.currency) as currency, coalesce(fe.expected, 0) as expected,
                coalesce(fe.paid, 0) as paid, coalesce(fe.change, 0) as change, coalesce(fe.n, 0) as n, fc.counted
           from fe full join fc on fc.currency = fe.currency),
  re as (select count(*) as n, coalesce(sum(total), 0) as total,
                coalesce(sum(total + cash_rounding) filter (where tender_kind = 'cash'), 0) as cash,
                coalesce(sum(cash_rounding), 0) as cash_rounding
           from public.refunds where shift_id = _shift_id),
  cm as (select coalesce(sum(amount) filter (where kind = 'in'), 0) as cash_in,
                coalesce(sum(amount) filter (where kind = 'out'), 0) as cash_out
           from public.cash_movements where shift_id = _shift_id)
  select jsonb_build_object(
    'shift_id', s.id, 'register_id', s.register_id, 'opened_at', s.opened_at, 'closed_at', s.closed_at,
    'opening_float', s.opening_float, 'sales_count', sa.n, 'sales_total', sa.total, 'discount_total', sa.discounts,
    'tax_total', sa.tax, 'flagged_count', sa.flagged, 'cash_rounding', sa.cash_rounding,
    'refunds_cash_rounding', re.cash_rounding,
    'tenders', coalesce((select jsonb_object_agg(kind, amount) from te), '{}'),
    'refunds_count', re.n, 'refunds_total', re.total, 'cash_in', cm.cash_in, 'cash_out', cm.cash_out,
    'expected_cash', s.opening_float + dr.local_cash - dr.foreign_change - re.cash + cm.cash_in - cm.cash_out,
    'foreign_cash', coalesce((select jsonb_agg(jsonb_build_object(
                                'currency', fx.currency, 'tenders', fx.n, 'expected', fx.expected, 'paid', fx.paid,
                                'change', fx.change, 'counted', fx.counted, 'difference', fx.counted - fx.expected)
                              order by fx.currency) from fx), '[]'::jsonb),
    'counted', s.counted, 'counted_total', s.counted_total, 'difference', s.difference)
  from s, sa, re, cm, dr;
$$;
revoke all on function private.shift_figures(uuid) from public;

create or replace function public.z_report(_shift_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_shift public.shifts;
  v_role text;
  v_after jsonb;
begin
  select s.* into v_shift from public.shifts s where s.id = _shift_id;
  if v_shift.id is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  select a.o_role into v_role from private.pos_store_access(v_shift.store_id, array['owner', 'manager', 'cashier']) a;
  if v_role = 'cashier' and v_shift.cashier_id is distinct from (select auth.uid()) then
    raise exception 'permission denied: this is another cashier''s shift' using errcode = '42501';
  elsif v_shift.closed_at is null then
    raise exception 'this shift is still open: print an X report or close it' using errcode = '22023';
  end if;
  with sa as (select count(*) as n, coalesce(sum(x.total), 0) as total,
                     coalesce(sum((select coalesce(sum(case when t.currency is null then t.amount else -t.change end), 0)
                                     from public.sale_tenders t
                                    where t.sale_id = x.id and t.kind = 'cash')), 0) as cash
                from public.sales x where x.shift_id = _shift_id and x.recorded_at > v_shift.close_recorded_at),
       re as (select count(*) as n, coalesce(sum(f.total), 0) as total,
                     coalesce(sum(f.total + f.cash_rounding) filter (where f.tender_kind = 'cash'), 0) as cash
                from public.refunds f where f.shift_id = _shift_id and f.recorded_at > v_shift.close_recorded_at)
  select jsonb_build_object('sales_count', sa.n, 'sales_total', sa.total, 'refunds_count', re.n,
                            'refunds_total', re.total, 'cash_change', sa.cash - re.cash)
    into v_after from sa, re;
  return coalesce(v_shift.z_figures, private.shift_figures(_shift_id))
         || jsonb_build_object('after_close', case when (v_after ->> 'sales_count')::int + (v_after ->> 'refunds_count')::int > 0
                                                   then v_after end);
end;
$$;
revoke all on function public.z_report(uuid) from public;
grant execute on function public.z_report(uuid) to authenticated;

create or replace function public.close_shift(_shift_id uuid, _counted jsonb, _close_id uuid, _closed_at timestamptz)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_shift public.shifts;
  v_total numeric := 0;
  v_figures jsonb;
  v_expected bigint;
  v_at timestamptz;
  r record;
begin
  if _close_id is null then
    raise exception 'a close needs an id' using errcode = '22023';
  end if;
  select s.* into v_shift from public.shifts s where s.id = _shift_id for update;
  if v_shift.id is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  perform private.assert_store_role(v_shift.store_id, array['owner', 'manager', 'cashier']);
  if private.my_role(v_shift.business_id) = 'cashier' and v_shift.cashier_id is distinct from (select auth.uid()) then
    raise exception 'permission denied: only the cashier who opened it or a manager closes this shift' using errcode = '42501';
  elsif v_shift.closed_at is not null then
    if v_shift.close_id = _close_id then
      return public.z_report(_shift_id); -- a retry of this close
    end if;
    raise exception 'this shift is already closed' using errcode = '22023';
  elsif jsonb_typeof(_counted) is distinct from 'object' then
    raise exception 'count the cash by denomination' using errcode = '22023';
  elsif _closed_at is not null and not isfinite(_closed_at) then
    raise exception 'the closing time is not a date and time' using errcode = '22023';
  end if;
  -- Foreign cash (ADR 0395): "foreign" holds the count per other currency, in its minor units.
  perform private.foreign_counts_checked(_counted -> 'foreign', v_shift.store_id);
  for r in select key, value from jsonb_each(_counted - 'foreign') loop
    if r.key !~ '^[1-9][0-9]{0,9}$' or jsonb_typeof(r.value) <> 'number' or (r.value #>> '{}') !~ '^[0-9]{1,9}$' then
      raise exception 'a denomination is a whole amount in minor units and its count a whole number' using errcode = '22023';
    end if;
    v_total := v_total + r.key::numeric * (r.value #>> '{}')::numeric;
  end loop;
  v_at := private.pos_event_time(coalesce(_closed_at, now()), v_shift.opened_at);
  v_expected := (private.shift_figures(_shift_id) ->> 'expected_cash')::bigint;
  update public.shifts s
     set closed_at = v_at, closed_by = (select auth.uid()), counted = _counted, counted_total = v_total::bigint,
         expected_cash = v_expected, difference = v_total::bigint - v_expected, close_id = _close_id,
         close_recorded_at = now()
   where s.id = _shift_id;
  v_figures := private.shift_figures(_shift_id);
  update public.shifts s set z_figures = v_figures where s.id = _shift_id;
  perform private.log_activity(v_shift.business_id, v_shift.store_id, 'shift.closed', 'shift', v_shift.id, null,
    jsonb_build_object('expected_cash', v_expected, 'counted_total', v_total, 'difference', v_total - v_expected,
                       'closed_at', v_at, 'foreign_cash', v_figures -> 'foreign_cash')
    || case when _closed_at is distinct from v_at then jsonb_build_object('register_closed_at', _closed_at) else '{}'::jsonb end);
  return public.z_report(_shift_id);
end;
$$;
comment on function public.close_shift(uuid,jsonb,uuid,timestamp with time zone) is 'The counted close with the register''s id and time for it; a retry of the same close returns the figures (ADR 0155).';
revoke all on function public.close_shift(uuid,jsonb,uuid,timestamp with time zone) from public;
grant execute on function public.close_shift(uuid,jsonb,uuid,timestamp with time zone) to authenticated;
