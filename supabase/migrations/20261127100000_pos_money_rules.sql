-- Money and trust inside a business (issue 22, ADR 0171). An attacker's pass inside one business found that a
-- cashier could move money a manager never saw. The server now decides what an "offline" entry may do:
--
-- * Offline is a claim, not a credential (private.pos_entry_terms). An entry is taken on offline terms only inside
--   its own shift: a shift of the entry's register, the caller's own when the caller is a cashier. It is dated by
--   the register's clock kept between the shift's opening and its close (or the arrival); a time outside is moved
--   to the edge and flagged. An online entry takes the server's time and needs an open shift of the caller's.
--   A sale claimed offline without such a shift is still kept (never lose a sale), dated at its arrival, flagged.
-- * A cashier's refund without a manager's approval (post_refund) is bounded: offline terms in the cashier's own
--   shift, back to the sale's original tender, at most the store's offline_refund_limit. Every flagged refund is
--   listed for the manager beside flagged sales (flagged_refunds), with the sale it refunds, and reviewed by a
--   second person (review_refund). A manager does not clear their own flagged sales, refunds or shifts.
-- * Partial refunds are priced from cumulative quantities: the parts of a line never add up to more than the line;
--   a refund's lines are merged per sale line and disposition.
-- * A sale line whose gross rounds to zero while its price is not zero is refused online and flagged offline.
-- * A Z report is frozen at the close (shifts.z_figures); entries that arrive after the close are shown apart.
-- * Cashiers read their own shifts and what was rung in them, not the whole store's (docs/permissions.md); a refund
--   finds its receipt through find_sale_for_refund. cash_in_out follows close_shift's rule (own shift for a
--   cashier). pos_outbox_review names only a member as an entry's author. A receipt sequence far ahead of the
--   register's counter is not taken.
-- Grants are explicit (hosted Supabase grants nothing by default).

-- ---------------------------------------------------------------------------------------------------
-- Columns.
alter table public.stores add column offline_refund_limit bigint not null default 5000
  constraint stores_offline_refund_limit_range check (offline_refund_limit between 0 and 100000000);
comment on column public.stores.offline_refund_limit is
  'The most (minor units) a cashier refunds offline without a manager''s approval, to the original tender, in '
  'their own shift; flagged for review. Owners change it with the store''s settings.';
grant insert (offline_refund_limit), update (offline_refund_limit) on table public.stores to authenticated;

-- Managers change their stores' settings, but not how much their cashiers may pay back without them: owners only.
create or replace function private.stores_refund_limit_guard()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (select auth.uid()) is not null and private.my_role(new.business_id) is distinct from 'owner' then
    raise exception 'permission denied: only the owner changes the refund limit without a manager' using errcode = '42501';
  end if;
  return new;
end;
$$;
revoke all on function private.stores_refund_limit_guard() from public, anon, authenticated;
create trigger stores_refund_limit_guard before update of offline_refund_limit on public.stores
  for each row when (old.offline_refund_limit is distinct from new.offline_refund_limit)
  execute function private.stores_refund_limit_guard();

alter table public.shifts add column z_figures jsonb;
alter table public.shifts add column close_recorded_at timestamptz;
comment on column public.shifts.z_figures is
  'The shift''s figures frozen at its close: the Z report. Entries that arrive later are reported apart. '
  'Written only by close_shift.';
comment on column public.shifts.close_recorded_at is
  'When the server recorded the close (closed_at is the register''s clock): later arrivals are "after close".';

-- Shifts closed before this migration: their figures as they stand now become their Z report.
update public.shifts s
   set z_figures = private.shift_figures(s.id), close_recorded_at = coalesce(s.closed_at, now())
 where s.closed_at is not null;

create index sales_shift_recorded_idx on public.sales (shift_id, recorded_at);
create index refunds_business_flagged_idx on public.refunds (business_id) where flagged_for_review;
create index cash_movements_shift_at_idx on public.cash_movements (shift_id, at);

-- ---------------------------------------------------------------------------------------------------
-- Refund reviews, as sale_reviews.
create table public.refund_reviews (
  refund_id uuid primary key,
  business_id uuid not null,
  store_id uuid not null,
  note text not null check (char_length(btrim(note)) between 1 and 500),
  reviewed_by uuid references auth.users (id) on delete set null,
  reviewed_at timestamptz not null default now(),
  foreign key (refund_id, business_id) references public.refunds (id, business_id) on delete cascade
);
alter table public.refund_reviews enable row level security;
comment on table public.refund_reviews is
  'One review per flagged refund. Owners and managers of the store read; written only by public.review_refund.';
create index refund_reviews_business_reviewed_idx on public.refund_reviews (business_id, reviewed_at desc);
create index refund_reviews_refund_business_idx on public.refund_reviews (refund_id, business_id);
create index refund_reviews_reviewed_by_idx on public.refund_reviews (reviewed_by);
revoke all on table public.refund_reviews from public, anon, authenticated;
grant select on table public.refund_reviews to authenticated, service_role;
create policy "refund_reviews: owners and managers read in their stores" on public.refund_reviews
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

-- ---------------------------------------------------------------------------------------------------
-- Who reads what was rung: owners and managers in their stores; a cashier their own shifts and what was rung in
-- them (their own sales without a shift too).
create or replace function private.my_shift_ids()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select s.id from public.shifts s
   where s.cashier_id = (select auth.uid()) and s.business_id in (select private.my_business_ids());
$$;
revoke all on function private.my_shift_ids() from public, anon;
grant execute on function private.my_shift_ids() to authenticated;
comment on function private.my_shift_ids() is 'The caller''s own shifts in the businesses they belong to (RLS helper).';

create or replace function private.my_rung_sale_ids()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select x.id from public.sales x
   where x.shift_id in (select private.my_shift_ids())
  union
  select x.id from public.sales x
   where x.cashier_id = (select auth.uid()) and x.business_id in (select private.my_business_ids());
$$;
revoke all on function private.my_rung_sale_ids() from public, anon;
grant execute on function private.my_rung_sale_ids() to authenticated;
comment on function private.my_rung_sale_ids() is
  'Sales rung in the caller''s own shifts, or by the caller (RLS helper for a cashier''s reads).';

-- One permissive policy per table and action (each runs for every row): owners and managers in their stores, or a
-- cashier's own.
do $$
declare
  t text;
  v_own jsonb := jsonb_build_object(
    'shifts', 'id in (select private.my_shift_ids())',
    'cash_movements', 'shift_id in (select private.my_shift_ids())',
    'refunds', 'shift_id in (select private.my_shift_ids())',
    'sales', 'id in (select private.my_rung_sale_ids())',
    'sale_lines', 'sale_id in (select private.my_rung_sale_ids())',
    'sale_tenders', 'sale_id in (select private.my_rung_sale_ids())');
begin
  foreach t in array array['shifts', 'cash_movements', 'sales', 'sale_lines', 'sale_tenders', 'refunds'] loop
    execute format('drop policy "%1$s: members read in their stores" on public.%1$I', t);
    execute format($p$create policy "%1$s: owners and managers in their stores, cashiers their own shifts" on public.%1$I
      for select to authenticated
      using (((business_id in (select private.my_full_access_business_ids())
               or store_id in (select private.my_listed_store_ids()))
              and business_id in (select private.my_business_ids(array['owner', 'manager'])))
             or %2$s)$p$, t, v_own ->> t);
  end loop;
end;
$$;

comment on table public.shifts is
  'A register''s shift from opening float to counted close. Owners and managers read the shifts of their stores, '
  'a cashier their own; written only by open_shift and close_shift. One open shift per register (partial unique '
  'index). z_figures is the Z report frozen at the close.';
comment on table public.sales is
  'Sales. Owners and managers read those of their stores; a cashier those rung in their own shifts (a refund '
  'finds its receipt through find_sale_for_refund); written only by post_sale. Money in minor units.';
comment on table public.cash_movements is
  'Cash put into or taken out of a drawer with a reason. Owners and managers read those of their stores, a cashier '
  'those of their own shifts; written only by cash_in_out.';
comment on table public.refunds is
  'Refunds against a sale. Owners and managers read those of their stores, a cashier those of their own shifts; '
  'written only by post_refund.';

-- ---------------------------------------------------------------------------------------------------
-- The terms of an entry from the register (a sale or a refund): the shift it goes into, its time and why a manager
-- should look at it. Online (_offline false): an open shift of the register (the caller's own for a cashier), dated
-- by the server. Offline: the same shift, open or closed since (then 'after_close'), dated by the register's clock
-- kept between the shift's opening and its close or the arrival ('time_before_shift', 'clock_ahead',
-- 'time_after_close' when moved); without such a shift: no shift, dated at the arrival, 'no_open_shift'.
-- _register_id null: any register of the shift's store (a refund rung at another till than the sale).
create or replace function private.pos_entry_terms(_shift public.shifts, _register_id uuid, _role text, _offline boolean,
                                                   _register_time jsonb,
                                                   out o_shift_id uuid, out o_occurred timestamptz, out o_reasons text[])
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_at timestamptz;
  v_own boolean := _shift.id is not null and (_role in ('owner', 'manager') or _shift.cashier_id = (select auth.uid()));
  v_here boolean := _shift.id is not null and (_register_id is null or _shift.register_id = _register_id);
  v_until timestamptz;
begin
  o_reasons := '{}';
  -- The register's time is checked either way (bad input is refused), and used only offline.
  if jsonb_typeof(_register_time) = 'string' then
    begin
      v_at := (_register_time #>> '{}')::timestamptz;
    exception when others then
      raise exception 'occurred_at is not a date and time' using errcode = '22023';
    end;
    if not isfinite(v_at) then
      raise exception 'occurred_at is not a date and time' using errcode = '22023';
    end if;
  end if;
  if not coalesce(_offline, false) then
    if not v_here then
      raise exception 'open a shift on this register first' using errcode = '22023';
    elsif not v_own then
      raise exception 'permission denied: this is another cashier''s shift: open your own' using errcode = '42501';
    elsif _shift.closed_at is not null then
      raise exception 'this shift is closed: open a new shift' using errcode = '22023';
    end if;
    o_shift_id := _shift.id;
    o_occurred := now();
    return;
  end if;
  if not (v_here and v_own) then
    o_occurred := now();
    o_reasons := array['no_open_shift'];
    return;
  end if;
  o_shift_id := _shift.id;
  v_until := least(coalesce(_shift.closed_at, now()), now());
  if _shift.closed_at is not null then
    o_reasons := array_append(o_reasons, 'after_close'::text);
  end if;
  if v_at is null then
    o_occurred := v_until;
  elsif v_at < _shift.opened_at then
    o_occurred := _shift.opened_at;
    o_reasons := array_append(o_reasons, 'time_before_shift'::text);
  elsif _shift.closed_at is not null and v_at > v_until then
    o_occurred := v_until;
    o_reasons := array_append(o_reasons, 'time_after_close'::text);
  elsif v_at > now() + interval '5 minutes' then
    o_occurred := now();
    o_reasons := array_append(o_reasons, 'clock_ahead'::text);
  else
    -- A register's clock a few minutes ahead is ordinary: kept at the arrival, not flagged.
    o_occurred := least(v_at, v_until);
  end if;
end;
$$;
revoke all on function private.pos_entry_terms(public.shifts, uuid, text, boolean, jsonb) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The receipt number (20261124100000_pos_speed): a register's sequence more than 10,000 ahead of the highest seen
-- is not taken (a forged 999,999,999,999 would end the register's numbers): the server gives the next, flagged.
create or replace function private.sale_receipt_number(_register public.registers, _business_id uuid, _receipt_seq jsonb,
                                                       out o_receipt text, out o_reassigned boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_seq bigint;
  v_last bigint;
begin
  o_reassigned := false;
  if jsonb_typeof(_receipt_seq) = 'number' and (_receipt_seq #>> '{}') ~ '^[1-9][0-9]{0,11}$' then
    v_seq := (_receipt_seq #>> '{}')::bigint;
    select c.last_seq into v_last from private.register_counters c where c.register_id = _register.id;
    if v_seq > coalesce(v_last, 0) + 10000 then
      v_seq := null;
      o_reassigned := true;
    else
      insert into private.register_counters as c (register_id, last_seq) values (_register.id, v_seq)
      on conflict (register_id) do update set last_seq = greatest(c.last_seq, excluded.last_seq);
      if exists (select 1 from public.sales s where s.business_id = _business_id
                  and s.receipt_number = private.receipt_number(_register.receipt_prefix, v_seq)) then
        v_seq := null;
        o_reassigned := true;
      end if;
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

-- ---------------------------------------------------------------------------------------------------
-- The lines of a sale priced from the catalog (20261124100000_pos_speed). Two changes: a line whose gross rounds to
-- zero while its price is not zero (0.001 kg at 4.99 a kg) is refused online and flagged offline
-- ('zero_price_line:<n>'); the lines are gathered in an array and turned into JSON once (appending to a jsonb value
-- copied it whole for every line: quadratic in the number of lines).
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
revoke all on function private.sale_lines_priced(jsonb, uuid, public.stores, uuid, boolean, text, uuid)
  from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Posting a sale (20261124100000_pos_speed): the shift and the time by private.pos_entry_terms.
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
  values (o_id, v_business, v_store.id, v_register.id, v_terms.o_shift_id, (select auth.uid()), v_customer, o_receipt,
          v_store.currency, v_store.tax_inclusive, v_priced.o_subtotal, v_priced.o_discounts, v_priced.o_taxes,
          v_priced.o_total, v_paid.o_tendered, v_paid.o_change, v_reasons, v_offline, v_priced.o_approval_id,
          v_terms.o_occurred)
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
  if cardinality(v_negative) > 0 then
    v_reasons := v_reasons || v_negative;
    update public.sales s set review_reasons = v_reasons where s.id = o_id;
  end if;

  perform private.log_activity(v_business, v_store.id, 'sale.posted', 'sale', o_id, null,
    jsonb_build_object('receipt_number', o_receipt, 'total', v_priced.o_total, 'offline', v_offline,
                       'review_reasons', to_jsonb(v_reasons), 'approval_id', v_priced.o_approval_id)
    || case when _payload ? 'occurred_at' then jsonb_build_object('register_occurred_at', _payload -> 'occurred_at')
            else '{}'::jsonb end);
end;
$$;
revoke all on function private.post_sale_core(jsonb) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
-- What was refunded of each line of a sale (quantity and money): post_refund prices the next part from it and
-- find_sale_for_refund shows what is left.
create or replace function private.sale_line_refunds(_sale_id uuid)
returns table (sale_line_id uuid, qty numeric, amount bigint)
language sql
stable
security definer
set search_path = ''
as $$
  select rl.sale_line_id, sum(rl.qty), sum(rl.amount)::bigint
    from public.refund_lines rl join public.sale_lines x on x.id = rl.sale_line_id
   where x.sale_id = _sale_id
   group by rl.sale_line_id;
$$;
revoke all on function private.sale_line_refunds(uuid) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
-- A refund (20261123180000_retail_hardening), rewritten:
-- * the shift and the time by private.pos_entry_terms: an open shift in the sale's store (the cashier's own), or
--   offline the same shift, closed since ('after_close'); a refund is never taken without a shift, since the money
--   leaves a drawer or a card terminal at a till;
-- * a cashier without a manager's approval: offline terms only, to the sale's original tender, at most the store's
--   offline_refund_limit; flagged 'no_approval' and listed by flagged_refunds;
-- * the lines are merged per sale line and disposition; each part is priced from cumulative quantities (what the
--   line's refunded quantity is worth after this part, less what was already paid back), so the parts of a line
--   never add up to more than the line and the last part pays exactly what is left;
-- * at most 30 lines; the sale's lines and what was refunded of them are read once (one statement per line before).
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
  update public.refunds f set total = v_total, review_reasons = v_reasons where f.id = v_id;
  perform private.log_activity(v_business, v_sale.store_id, 'refund.posted', 'refund', v_id, null,
    jsonb_build_object('sale_id', v_sale.id, 'receipt_number', v_sale.receipt_number, 'total', v_total,
                       'tender_kind', v_tender, 'approval_id', v_approval.id, 'offline', v_offline,
                       'shift_id', v_terms.o_shift_id, 'review_reasons', to_jsonb(v_reasons))
    || case when _payload ? 'occurred_at' then jsonb_build_object('register_occurred_at', _payload -> 'occurred_at')
            else '{}'::jsonb end);
  return (select to_jsonb(f) || jsonb_build_object('replayed', false,
            'lines', (select jsonb_agg(to_jsonb(l)) from public.refund_lines l where l.refund_id = f.id))
            from public.refunds f where f.id = v_id);
end;
$$;
revoke all on function public.post_refund(jsonb) from public, anon;
grant execute on function public.post_refund(jsonb) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Opening a shift (20261125130000_pos_offline_shift_open): online the server's time; from the offline outbox the
-- register's clock kept after the register's last close and its creation, and before the arrival (a shift dated
-- 2001 reopened every closed period). The rest is unchanged.
create or replace function public.open_shift(_id uuid, _register_id uuid, _opening_float bigint, _opened_at timestamptz,
                                             _offline boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_register public.registers;
  v_business uuid;
  v_shift public.shifts;
  v_other public.shifts;
  v_at timestamptz;
  v_floor timestamptz;
begin
  if _id is null then
    raise exception 'a shift needs its register-generated id' using errcode = '22023';
  end if;
  select r.* into v_register from public.registers r where r.id = _register_id;
  if v_register.id is null or (v_register.archived_at is not null and not coalesce(_offline, false)) then
    raise exception 'no such register' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_register.store_id, array['owner', 'manager', 'cashier']);
  select s.* into v_shift from public.shifts s where s.id = _id;
  if v_shift.id is not null then
    if v_shift.register_id is distinct from v_register.id then
      raise exception 'permission denied for this shift id' using errcode = '42501';
    end if;
    return private.shift_for_register(v_shift, v_register);
  end if;
  if _opening_float is null or _opening_float < 0 or _opening_float > 100000000000 then
    raise exception 'enter a starting float of zero or more' using errcode = '22023';
  end if;
  if _opened_at is not null and not isfinite(_opened_at) then
    raise exception 'the opening time is not a date and time' using errcode = '22023';
  end if;
  if coalesce(_offline, false) then
    select max(s.closed_at) into v_floor from public.shifts s where s.register_id = v_register.id;
    v_at := least(greatest(coalesce(_opened_at, now()), coalesce(v_floor, v_register.created_at), v_register.created_at), now());
  else
    v_at := now();
  end if;
  begin
    insert into public.shifts (id, business_id, store_id, register_id, cashier_id, opening_float, opened_at)
    values (_id, v_business, v_register.store_id, v_register.id, (select auth.uid()), _opening_float, v_at)
    on conflict (id) do nothing
    returning * into v_shift;
  exception when unique_violation then
    if exists (select 1 from public.shifts s where s.id = _id) then
      select s.* into v_shift from public.shifts s where s.id = _id and s.register_id = v_register.id;
      if v_shift.id is null then
        raise exception 'permission denied for this shift id' using errcode = '42501';
      end if;
      return private.shift_for_register(v_shift, v_register);
    end if;
    select s.* into v_other from public.shifts s
     where s.register_id = v_register.id and s.closed_at is null and not s.opened_in_conflict;
    if not coalesce(_offline, false) then
      raise exception 'this register already has an open shift: close it first' using errcode = '23505';
    end if;
    insert into public.shifts (id, business_id, store_id, register_id, cashier_id, opening_float, opened_at,
                               opened_in_conflict, review_reasons)
    values (_id, v_business, v_register.store_id, v_register.id, (select auth.uid()), _opening_float, v_at, true,
            array['open_conflict:' || coalesce(v_other.id::text, 'unknown')])
    on conflict (id) do nothing
    returning * into v_shift;
    if v_shift.id is not null then
      perform private.log_activity(v_business, v_register.store_id, 'shift.open_conflict', 'shift', v_shift.id, null,
        jsonb_build_object('register_id', v_register.id, 'opening_float', _opening_float, 'opened_at', v_at,
                           'open_shift_id', v_other.id));
    end if;
  end;
  if v_shift.id is null then
    select s.* into v_shift from public.shifts s where s.id = _id;
    if v_shift.register_id is distinct from v_register.id then
      raise exception 'permission denied for this shift id' using errcode = '42501';
    end if;
    return private.shift_for_register(v_shift, v_register);
  end if;
  insert into private.register_counters (register_id) values (v_register.id) on conflict do nothing;
  if not v_shift.opened_in_conflict then
    perform private.log_activity(v_business, v_register.store_id, 'shift.opened', 'shift', v_shift.id, null,
      jsonb_build_object('register_id', v_register.id, 'opening_float', _opening_float, 'opened_at', v_at)
      || case when _opened_at is distinct from v_at then jsonb_build_object('register_opened_at', _opened_at)
              else '{}'::jsonb end);
  end if;
  return private.shift_for_register(v_shift, v_register);
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- Closing (20261124140000_pos_offline_events): the figures at the close are frozen as the Z report, with the server's
-- time of the close. The two-argument form (the back office) is the same close with a new id at the server's time.
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
  for r in select key, value from jsonb_each(_counted) loop
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
                       'closed_at', v_at)
    || case when _closed_at is distinct from v_at then jsonb_build_object('register_closed_at', _closed_at) else '{}'::jsonb end);
  return public.z_report(_shift_id);
end;
$$;

create or replace function public.close_shift(_shift_id uuid, _counted jsonb)
returns jsonb
language sql
security definer
set search_path = ''
as $$
  select public.close_shift(_shift_id, _counted, gen_random_uuid(), null::timestamptz);
$$;

-- The Z report: the figures frozen at the close, and apart what arrived after it (late offline entries), so a
-- report once closed stays closed. A cashier reads their own shifts' (as the table); owners and managers any.
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
                     coalesce(sum((select coalesce(sum(t.amount), 0) from public.sale_tenders t
                                    where t.sale_id = x.id and t.kind = 'cash')), 0) as cash
                from public.sales x where x.shift_id = _shift_id and x.recorded_at > v_shift.close_recorded_at),
       re as (select count(*) as n, coalesce(sum(f.total), 0) as total,
                     coalesce(sum(f.total) filter (where f.tender_kind = 'cash'), 0) as cash
                from public.refunds f where f.shift_id = _shift_id and f.recorded_at > v_shift.close_recorded_at)
  select jsonb_build_object('sales_count', sa.n, 'sales_total', sa.total, 'refunds_count', re.n,
                            'refunds_total', re.total, 'cash_change', sa.cash - re.cash)
    into v_after from sa, re;
  return coalesce(v_shift.z_figures, private.shift_figures(_shift_id))
         || jsonb_build_object('after_close', case when (v_after ->> 'sales_count')::int + (v_after ->> 'refunds_count')::int > 0
                                                   then v_after end);
end;
$$;

-- The X report of a shift: a cashier their own shift's only.
create or replace function public.x_report(_shift_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_shift public.shifts;
  v_role text;
begin
  select s.* into v_shift from public.shifts s where s.id = _shift_id;
  if v_shift.id is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  select a.o_role into v_role from private.pos_store_access(v_shift.store_id, array['owner', 'manager', 'cashier']) a;
  if v_role = 'cashier' and v_shift.cashier_id is distinct from (select auth.uid()) then
    raise exception 'permission denied: this is another cashier''s shift' using errcode = '42501';
  end if;
  return private.shift_figures(_shift_id);
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- Cash in and out (20261124140000_pos_offline_events): a cashier only in their own shift (close_shift's rule).
create or replace function public.cash_in_out(_id uuid, _shift_id uuid, _kind text, _amount bigint, _reason text,
                                              _at timestamptz)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_shift public.shifts;
  v_done public.cash_movements;
  v_role text;
  v_at timestamptz;
  v_id uuid;
begin
  if _id is null then
    raise exception 'a cash movement needs an id' using errcode = '22023';
  end if;
  select s.* into v_shift from public.shifts s where s.id = _shift_id;
  if v_shift.id is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  select a.o_role into v_role from private.pos_store_access(v_shift.store_id, array['owner', 'manager', 'cashier']) a;
  if v_role = 'cashier' and v_shift.cashier_id is distinct from (select auth.uid()) then
    raise exception 'permission denied: only the cashier who opened it or a manager moves cash in this shift'
      using errcode = '42501';
  end if;
  select m.* into v_done from public.cash_movements m where m.id = _id;
  if v_done.id is not null then
    if v_done.shift_id is distinct from _shift_id then
      raise exception 'permission denied for this cash movement id' using errcode = '42501';
    end if;
    return v_done.id;
  end if;
  if v_shift.closed_at is not null then
    raise exception 'this shift is closed' using errcode = '22023';
  elsif _kind is null or _kind not in ('in', 'out') then
    raise exception 'cash goes in or out' using errcode = '22023';
  elsif _amount is null or _amount <= 0 or _amount > 100000000000 then
    raise exception 'enter an amount above zero' using errcode = '22023';
  elsif char_length(btrim(coalesce(_reason, ''))) not between 1 and 200 then
    raise exception 'give a reason (1 to 200 characters)' using errcode = '22023';
  elsif _at is not null and not isfinite(_at) then
    raise exception 'the time is not a date and time' using errcode = '22023';
  end if;
  v_at := private.pos_event_time(coalesce(_at, now()), v_shift.opened_at);
  insert into public.cash_movements (id, business_id, store_id, shift_id, kind, amount, reason, actor_id, at)
  values (_id, v_shift.business_id, v_shift.store_id, v_shift.id, _kind, _amount, btrim(_reason), (select auth.uid()), v_at)
  on conflict (id) do nothing
  returning id into v_id;
  if v_id is null then
    select m.* into v_done from public.cash_movements m where m.id = _id;
    if v_done.shift_id is distinct from _shift_id then
      raise exception 'permission denied for this cash movement id' using errcode = '42501';
    end if;
    return v_done.id;
  end if;
  perform private.log_activity(v_shift.business_id, v_shift.store_id, 'cash.' || _kind, 'shift', v_shift.id, null,
    jsonb_build_object('amount', _amount, 'reason', btrim(_reason), 'movement_id', _id, 'at', v_at)
    || case when _at is distinct from v_at then jsonb_build_object('register_at', _at) else '{}'::jsonb end);
  return v_id;
end;
$$;

create or replace function public.cash_in_out(_shift_id uuid, _kind text, _amount bigint, _reason text)
returns uuid
language sql
security definer
set search_path = ''
as $$
  select public.cash_in_out(gen_random_uuid(), _shift_id, _kind, _amount, _reason, null::timestamptz);
$$;

-- ---------------------------------------------------------------------------------------------------
-- A manager settles a refused outbox entry (20261125130000_pos_offline_shift_open): the entry's author, when named,
-- is a member of the business or a former member with entries in its trail (any uuid was recorded before).
create or replace function public.pos_outbox_review(_store_id uuid, _entry_id uuid, _kind text, _action text,
                                                    _reason text, _error text, _author_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid;
begin
  v_business := private.assert_store_role(_store_id, array['owner', 'manager']);
  if _entry_id is null then
    raise exception 'name the entry' using errcode = '22023';
  elsif _kind is null or _kind not in ('sale', 'refund', 'customer', 'cash', 'close', 'open') then
    raise exception 'an entry is a sale, refund, customer, cash, close or open' using errcode = '22023';
  elsif _action is null or _action not in ('retry', 'discard') then
    raise exception 'retry or discard' using errcode = '22023';
  elsif char_length(btrim(coalesce(_reason, ''))) not between 3 and 500 then
    raise exception 'give a reason (3 to 500 characters)' using errcode = '22023';
  elsif _author_id is not null
        and not exists (select 1 from public.business_members m where m.business_id = v_business and m.user_id = _author_id)
        and not exists (select 1 from public.activity a where a.business_id = v_business and a.actor_id = _author_id) then
    -- A member, or a former one who worked here (their entry is refused because they were removed: the usual case).
    raise exception 'the entry''s author is not a member of this business' using errcode = '22023';
  end if;
  perform private.log_activity(v_business, _store_id, 'pos.outbox_' || _action, 'outbox_entry', _entry_id, null,
    jsonb_build_object('kind', _kind, 'reason', btrim(_reason), 'refusal', left(coalesce(_error, ''), 500),
                       'author_id', _author_id));
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- Reviews by a second person: a manager does not clear a flag about their own sale, refund or shift (the owner,
-- who has nobody above, may).
create or replace function private.assert_second_reviewer(_business_id uuid, _subject uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if _subject = (select auth.uid()) and private.my_role(_business_id) <> 'owner' then
    raise exception 'permission denied: another manager or the owner reviews what you rang yourself' using errcode = '42501';
  end if;
end;
$$;
revoke all on function private.assert_second_reviewer(uuid, uuid) from public, anon, authenticated;

create or replace function public.review_sale(_sale_id uuid, _note text)
returns public.sale_reviews
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sale public.sales;
  v_business uuid;
  v_row public.sale_reviews;
begin
  select s.* into v_sale from public.sales s where s.id = _sale_id;
  if v_sale.id is null then
    raise exception 'no such sale' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_sale.store_id, array['owner', 'manager']);
  perform private.assert_second_reviewer(v_business, v_sale.cashier_id);
  if not v_sale.flagged_for_review then
    raise exception 'this sale is not flagged for review' using errcode = '22023';
  elsif _note is null or char_length(btrim(_note)) not between 1 and 500 then
    raise exception 'write what you found (1 to 500 characters)' using errcode = '22023';
  end if;
  insert into public.sale_reviews (sale_id, business_id, store_id, note, reviewed_by)
  values (v_sale.id, v_business, v_sale.store_id, btrim(_note), (select auth.uid()))
  on conflict (sale_id) do nothing
  returning * into v_row;
  if v_row.sale_id is null then
    raise exception 'this sale was already reviewed' using errcode = '23505';
  end if;
  perform private.log_activity(v_business, v_sale.store_id, 'sale.reviewed', 'sale', v_sale.id, null,
    jsonb_build_object('receipt_number', v_sale.receipt_number, 'review_reasons', to_jsonb(v_sale.review_reasons)));
  return v_row;
end;
$$;

create or replace function public.review_shift(_shift_id uuid, _reason text)
returns public.shift_reviews
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_shift public.shifts;
  v_business uuid;
  v_row public.shift_reviews;
begin
  select s.* into v_shift from public.shifts s where s.id = _shift_id;
  if v_shift.id is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_shift.store_id, array['owner', 'manager']);
  perform private.assert_second_reviewer(v_business, v_shift.cashier_id);
  if not v_shift.opened_in_conflict then
    raise exception 'this shift is not flagged for review' using errcode = '22023';
  elsif _reason is null or char_length(btrim(_reason)) not between 3 and 500 then
    raise exception 'give a reason (3 to 500 characters)' using errcode = '22023';
  end if;
  insert into public.shift_reviews (shift_id, business_id, store_id, reason, reviewed_by)
  values (v_shift.id, v_business, v_shift.store_id, btrim(_reason), (select auth.uid()))
  on conflict (shift_id) do nothing
  returning * into v_row;
  if v_row.shift_id is null then
    raise exception 'this shift was already reviewed' using errcode = '23505';
  end if;
  perform private.log_activity(v_business, v_shift.store_id, 'shift.reviewed', 'shift', v_shift.id, null,
    jsonb_build_object('register_id', v_shift.register_id, 'review_reasons', to_jsonb(v_shift.review_reasons),
                       'open_shift_id', private.shift_conflict_other(v_shift.review_reasons),
                       'reason', btrim(_reason)));
  return v_row;
end;
$$;

-- The flagged refunds of a business (optionally one store), newest first, with the sale each refunds: beside
-- flagged_sales in the manager's review list. Security invoker: RLS limits a manager to their stores.
create or replace function public.flagged_refunds(_business_id uuid, _store_id uuid default null,
                                                  _include_reviewed boolean default false,
                                                  _limit integer default 50, _offset integer default 0)
returns table (refund_id uuid, store_id uuid, store_name text, sale_id uuid, sale_receipt_number text,
               sale_total bigint, sale_review_reasons text[], actor_name text, occurred_at timestamptz,
               recorded_at timestamptz, total bigint, tender_kind text, currency text, offline boolean,
               review_reasons text[], reason text, reviewed_at timestamptz, reviewer_name text, note text,
               total_count bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if _limit is null or _limit < 1 or _limit > 200 or _offset is null or _offset < 0 then
    raise exception 'ask for 1 to 200 refunds from offset 0 or more' using errcode = '22023';
  end if;
  return query
    select f.id, f.store_id, st.name::text, s.id, s.receipt_number, s.total, s.review_reasons, n.name, f.occurred_at,
           f.recorded_at, f.total, f.tender_kind, s.currency::text, f.offline, f.review_reasons, f.reason::text,
           r.reviewed_at, rn.name, r.note, count(*) over ()
      from public.refunds f
      join public.sales s on s.id = f.sale_id
      join public.stores st on st.id = f.store_id
      left join public.refund_reviews r on r.refund_id = f.id
      left join private.member_names(_business_id) n on n.user_id = f.actor_id
      left join private.member_names(_business_id) rn on rn.user_id = r.reviewed_by
     where f.business_id = _business_id
       and f.flagged_for_review
       and (_store_id is null or f.store_id = _store_id)
       and (_include_reviewed or r.refund_id is null)
     order by f.occurred_at desc, f.id
     limit _limit offset _offset;
end;
$$;

create or replace function public.review_refund(_refund_id uuid, _note text)
returns public.refund_reviews
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_refund public.refunds;
  v_business uuid;
  v_row public.refund_reviews;
begin
  select f.* into v_refund from public.refunds f where f.id = _refund_id;
  if v_refund.id is null then
    raise exception 'no such refund' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_refund.store_id, array['owner', 'manager']);
  perform private.assert_second_reviewer(v_business, v_refund.actor_id);
  if not v_refund.flagged_for_review then
    raise exception 'this refund is not flagged for review' using errcode = '22023';
  elsif _note is null or char_length(btrim(_note)) not between 1 and 500 then
    raise exception 'write what you found (1 to 500 characters)' using errcode = '22023';
  end if;
  insert into public.refund_reviews (refund_id, business_id, store_id, note, reviewed_by)
  values (v_refund.id, v_business, v_refund.store_id, btrim(_note), (select auth.uid()))
  on conflict (refund_id) do nothing
  returning * into v_row;
  if v_row.refund_id is null then
    raise exception 'this refund was already reviewed' using errcode = '23505';
  end if;
  perform private.log_activity(v_business, v_refund.store_id, 'refund.reviewed', 'refund', v_refund.id, null,
    jsonb_build_object('sale_id', v_refund.sale_id, 'total', v_refund.total,
                       'review_reasons', to_jsonb(v_refund.review_reasons)));
  return v_row;
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- A receipt for a refund at the counter: any member of the store finds a sale of the store by its receipt number
-- (the customer hands it over), with its tenders and what is left of each line. Nothing else of the store's sales
-- is readable to a cashier.
create or replace function public.find_sale_for_refund(_store_id uuid, _receipt_number text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid;
  v_sale public.sales;
begin
  v_business := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
  if _receipt_number is null or char_length(btrim(_receipt_number)) not between 1 and 40 then
    raise exception 'type or scan the receipt number' using errcode = '22023';
  end if;
  select s.* into v_sale from public.sales s
   where s.business_id = v_business and s.store_id = _store_id and s.receipt_number = upper(btrim(_receipt_number));
  if v_sale.id is null then
    return null;
  end if;
  return jsonb_build_object(
    'id', v_sale.id, 'receipt_number', v_sale.receipt_number, 'occurred_at', v_sale.occurred_at, 'total', v_sale.total,
    'store_id', v_sale.store_id, 'currency', v_sale.currency,
    'tenders', coalesce((select jsonb_agg(jsonb_build_object('kind', t.kind, 'amount', t.amount) order by t.amount desc, t.kind)
                           from public.sale_tenders t where t.sale_id = v_sale.id), '[]'),
    'lines', coalesce((select jsonb_agg(jsonb_build_object(
                         'id', l.id, 'line_no', l.line_no, 'description', l.description, 'qty', l.qty,
                         'line_total', l.line_total, 'refunded', coalesce(r.qty, 0), 'refundedAmount', coalesce(r.amount, 0))
                         order by l.line_no)
                         from public.sale_lines l
                         left join private.sale_line_refunds(v_sale.id) r on r.sale_line_id = l.id
                        where l.sale_id = v_sale.id), '[]'));
end;
$$;

do $$
declare
  f text;
begin
  foreach f in array array[
    'public.open_shift(uuid, uuid, bigint, timestamptz, boolean)',
    'public.close_shift(uuid, jsonb, uuid, timestamptz)',
    'public.close_shift(uuid, jsonb)',
    'public.z_report(uuid)',
    'public.x_report(uuid)',
    'public.cash_in_out(uuid, uuid, text, bigint, text, timestamptz)',
    'public.cash_in_out(uuid, text, bigint, text)',
    'public.pos_outbox_review(uuid, uuid, text, text, text, text, uuid)',
    'public.review_sale(uuid, text)',
    'public.review_shift(uuid, text)',
    'public.flagged_refunds(uuid, uuid, boolean, integer, integer)',
    'public.review_refund(uuid, text)',
    'public.find_sale_for_refund(uuid, text)'
  ] loop
    execute format('revoke all on function %s from public, anon', f);
    execute format('grant execute on function %s to authenticated', f);
  end loop;
end;
$$;
comment on function public.flagged_refunds(uuid, uuid, boolean, integer, integer) is
  'Refunds flagged for review (no approval, offline terms, after close), with the sale each refunds (ADR 0171).';
comment on function public.find_sale_for_refund(uuid, text) is
  'A sale of the store by its receipt number, with tenders and what is left of each line: how a cashier finds a '
  'receipt to refund without reading the store''s sales (ADR 0171).';

-- ---------------------------------------------------------------------------------------------------
-- The one writer of the ledger (20261122120100_inventory_functions), with the date rule of the register applied to
-- the back office: receiving, adjusting, counting and transfers are dated by the caller at most 7 days back and not
-- in the future (a stock entry dated 2001 rewrote closed stock reports). A refund's restock is dated by its shift
-- (private.pos_entry_terms); the database's own writes (no caller: seeds, jobs) are not bounded.
create or replace function private.apply_movement(
  _business_id uuid, _store_id uuid, _variant_id uuid, _lot_id uuid, _kind text, _qty numeric,
  _reason text default null, _unit_cost bigint default null, _occurred_at timestamptz default null,
  _reference_type text default null, _reference_id uuid default null, _note text default null
)
returns numeric
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_has_lots boolean;
  v_id bigint;
  v_balance numeric;
begin
  if _occurred_at is not null and (select auth.uid()) is not null and _kind not in ('refund', 'sale') and
     (not isfinite(_occurred_at) or _occurred_at < now() - interval '7 days' or _occurred_at > now() + interval '5 minutes') then
    raise exception 'date a stock entry within the last 7 days and not in the future' using errcode = '22023';
  end if;
  select p.has_lots into v_has_lots
    from public.variants v join public.products p on p.id = v.product_id
   where v.id = _variant_id and v.business_id = _business_id;
  if v_has_lots is null then
    raise exception 'no such item in this business' using errcode = '22023';
  end if;
  if not exists (select 1 from public.stores s where s.id = _store_id and s.business_id = _business_id) then
    raise exception 'no such store in this business' using errcode = '22023';
  end if;
  perform private.assert_quantity(_variant_id, _qty);
  if _qty = 0 then
    raise exception 'enter a quantity other than zero' using errcode = '22023';
  end if;
  if v_has_lots and _lot_id is null then
    raise exception 'choose a lot: this item is tracked by lot' using errcode = '22023';
  elsif not v_has_lots and _lot_id is not null then
    raise exception 'this item is not tracked by lot' using errcode = '22023';
  elsif _lot_id is not null and not exists (select 1 from public.lots l where l.id = _lot_id and l.variant_id = _variant_id) then
    raise exception 'this lot belongs to another item' using errcode = '22023';
  end if;
  insert into public.stock_movements (business_id, store_id, variant_id, lot_id, kind, qty, reason, unit_cost,
                                      occurred_at, actor_id, reference_type, reference_id, note)
  values (_business_id, _store_id, _variant_id, _lot_id, _kind, _qty, _reason, _unit_cost,
          coalesce(_occurred_at, now()), (select auth.uid()), _reference_type, _reference_id, _note)
  returning id into v_id;
  insert into public.stock_balances as b (business_id, store_id, variant_id, lot_id, qty)
  values (_business_id, _store_id, _variant_id, _lot_id, _qty)
  on conflict (store_id, variant_id, lot_id) do update set qty = b.qty + excluded.qty, updated_at = now()
  returning b.qty into v_balance;
  -- Taking out more than is there (by hand) is refused; the whole transaction rolls back.
  if v_balance < 0 and _kind in ('adjust', 'damage', 'transfer_out') and _qty < 0 then
    raise exception 'not enough stock: only % on hand', v_balance - _qty using errcode = '22023';
  end if;
  perform private.log_activity(_business_id, _store_id, 'stock.' || _kind, 'variant', _variant_id, null,
    jsonb_build_object('movement_id', v_id, 'qty', _qty, 'balance', v_balance, 'lot_id', _lot_id, 'reason', _reason,
                       'reference_type', _reference_type, 'reference_id', _reference_id));
  return v_balance;
end;
$$;
revoke all on function private.apply_movement(uuid, uuid, uuid, uuid, text, numeric, text, bigint, timestamptz, text, uuid, text)
  from public, anon, authenticated;
