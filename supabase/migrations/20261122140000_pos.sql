-- Point of sale (issue 13): shifts with cash movements, customers, sales with lines, tenders and the cost at the
-- time of sale, refunds, manager approvals, and the functions that write them (ADR 0130, 0131).
--
-- * Every write goes through a security definer function below that checks the caller's role and store access
--   first (42501), validates input (22023 with a plain message) and is one transaction. The API roles have no
--   insert, update or delete grant on any of these tables except customers (found or created at the counter).
-- * Costs follow ADR 0110: a sale line's cost lives in sale_line_costs, readable by owners and managers only.
-- * Sales and refunds are idempotent by their client-generated id (insert ... on conflict do nothing, then
--   re-select): a retry, or ten concurrent copies, write once and all return the first result.
-- * A sale from the offline outbox (payload.offline = true) is never refused for a price, discount, tender or
--   stock question: it is accepted and flagged for review with its reasons.
-- Hosted Supabase no longer grants new tables and functions to the API roles, so every grant is explicit.

-- ---------------------------------------------------------------------------------------------------
create table public.shifts (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null,
  store_id uuid not null,
  register_id uuid not null references public.registers (id) on delete cascade,
  cashier_id uuid references auth.users (id) on delete set null,
  opened_at timestamptz not null default now(),
  opening_float bigint not null default 0 check (opening_float >= 0),
  closed_at timestamptz,
  closed_by uuid references auth.users (id) on delete set null,
  -- {"denomination in minor units": count}, e.g. {"2000": 3, "25": 4}.
  counted jsonb,
  counted_total bigint,
  expected_cash bigint,
  difference bigint,
  unique (id, business_id),
  foreign key (store_id, business_id) references public.stores (id, business_id) on delete cascade,
  constraint shifts_closed_has_count check ((closed_at is null) = (counted_total is null))
);
alter table public.shifts enable row level security;
comment on table public.shifts is
  'A register''s shift from opening float to counted close. Members read the shifts of stores they may use; '
  'written only by open_shift and close_shift. One open shift per register (partial unique index).';
create unique index shifts_one_open_per_register_idx on public.shifts (register_id) where closed_at is null;
create index shifts_register_idx on public.shifts (register_id, opened_at desc);
create index shifts_store_idx on public.shifts (store_id, business_id, opened_at desc);
create index shifts_cashier_idx on public.shifts (cashier_id);
create index shifts_closed_by_idx on public.shifts (closed_by);

create table public.cash_movements (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null,
  store_id uuid not null,
  shift_id uuid not null,
  kind text not null check (kind in ('in', 'out')),
  amount bigint not null check (amount > 0),
  reason text not null check (char_length(btrim(reason)) between 1 and 200),
  actor_id uuid references auth.users (id) on delete set null,
  at timestamptz not null default now(),
  foreign key (shift_id, business_id) references public.shifts (id, business_id) on delete cascade,
  foreign key (store_id, business_id) references public.stores (id, business_id) on delete cascade
);
alter table public.cash_movements enable row level security;
comment on table public.cash_movements is
  'Cash put into or taken out of a drawer with a reason. Members read those of stores they may use; written '
  'only by cash_in_out.';
create index cash_movements_shift_idx on public.cash_movements (shift_id, business_id);
create index cash_movements_store_idx on public.cash_movements (store_id, business_id);
create index cash_movements_actor_idx on public.cash_movements (actor_id);

create table public.customers (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null references public.businesses (id) on delete cascade,
  name public.entity_name not null,
  phone public.phone_number,
  email public.email_address,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, business_id)
);
alter table public.customers enable row level security;
comment on table public.customers is
  'The business''s customers. Members read and create them (at the counter); owners and managers edit and delete.';
create index customers_business_name_idx on public.customers (business_id, name);
create index customers_name_trgm_idx on public.customers using gin (name extensions.gin_trgm_ops);
create index customers_business_phone_idx on public.customers (business_id, phone);
create index customers_business_email_idx on public.customers (business_id, email);
create trigger customers_set_updated_at before update on public.customers
  for each row execute function public.set_updated_at();

-- A manager's on-the-spot approval of one discount or refund: the manager signs in at the register and calls
-- approve_discount; the sale or refund that uses it marks it used. Valid for 10 minutes, once.
create table public.pos_approvals (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null,
  store_id uuid not null,
  purpose text not null check (purpose in ('discount', 'refund')),
  max_discount_percent numeric(6, 3) check (max_discount_percent between 0 and 100),
  approved_by uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '10 minutes',
  used_at timestamptz,
  used_for uuid,
  foreign key (store_id, business_id) references public.stores (id, business_id) on delete cascade
);
alter table public.pos_approvals enable row level security;
comment on table public.pos_approvals is
  'Manager approvals for a discount above the cashier''s limit or a refund. Owners and managers read them; '
  'written only by approve_discount and consumed by post_sale and post_refund.';
create index pos_approvals_store_idx on public.pos_approvals (store_id, business_id);
create index pos_approvals_approved_by_idx on public.pos_approvals (approved_by);

create table public.sales (
  -- Generated by the register (the outbox key): the idempotency key.
  id uuid primary key,
  business_id uuid not null,
  store_id uuid not null,
  register_id uuid not null references public.registers (id),
  shift_id uuid,
  cashier_id uuid references auth.users (id) on delete set null,
  customer_id uuid,
  receipt_number text not null,
  currency public.currency_code not null,
  tax_inclusive boolean not null,
  subtotal bigint not null,
  discount_total bigint not null,
  tax_total bigint not null,
  total bigint not null,
  tendered_total bigint not null,
  change_total bigint not null,
  review_reasons text[] not null default '{}',
  flagged_for_review boolean generated always as (cardinality(review_reasons) > 0) stored,
  offline boolean not null default false,
  approval_id uuid references public.pos_approvals (id),
  -- occurred_at: the register's clock (a till offline for hours); recorded_at: when the server wrote it.
  occurred_at timestamptz not null,
  recorded_at timestamptz not null default now(),
  unique (business_id, receipt_number),
  unique (id, business_id),
  foreign key (store_id, business_id) references public.stores (id, business_id) on delete cascade,
  foreign key (shift_id, business_id) references public.shifts (id, business_id),
  foreign key (customer_id, business_id) references public.customers (id, business_id) on delete set null (customer_id)
);
alter table public.sales enable row level security;
comment on table public.sales is
  'Sales. Members read those of stores they may use (cashiers too: receipts and refunds); written only by '
  'post_sale. Money in minor units of the store currency.';
create index sales_store_occurred_idx on public.sales (store_id, business_id, occurred_at desc);
create index sales_business_occurred_idx on public.sales (business_id, occurred_at desc);
create index sales_shift_idx on public.sales (shift_id, business_id);
create index sales_register_idx on public.sales (register_id);
create index sales_cashier_idx on public.sales (cashier_id);
create index sales_customer_idx on public.sales (customer_id, business_id);
create index sales_approval_idx on public.sales (approval_id);
create index sales_flagged_idx on public.sales (business_id) where flagged_for_review;

create table public.sale_lines (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null,
  store_id uuid not null,
  sale_id uuid not null,
  line_no int not null check (line_no > 0),
  variant_id uuid not null references public.variants (id),
  lot_id uuid references public.lots (id),
  description text not null,
  qty numeric(12, 3) not null check (qty > 0),
  unit_price bigint not null check (unit_price >= 0),
  discount bigint not null default 0 check (discount >= 0),
  tax_rate public.tax_rate not null,
  tax_amount bigint not null,
  -- What the customer pays for the line, tax included.
  line_total bigint not null,
  unique (sale_id, line_no),
  unique (id, business_id),
  foreign key (sale_id, business_id) references public.sales (id, business_id) on delete cascade
);
alter table public.sale_lines enable row level security;
comment on table public.sale_lines is
  'Lines of a sale with the price and tax it was sold at. Readers of the sale read them; written by post_sale.';
create index sale_lines_sale_idx on public.sale_lines (sale_id, business_id);
create index sale_lines_store_idx on public.sale_lines (store_id, business_id);
create index sale_lines_variant_idx on public.sale_lines (variant_id);
create index sale_lines_lot_idx on public.sale_lines (lot_id);

-- The cost at the time of sale apart from the line (ADR 0110): owners and managers only.
create table public.sale_line_costs (
  sale_line_id uuid primary key,
  business_id uuid not null,
  store_id uuid not null,
  unit_cost bigint not null check (unit_cost >= 0),
  foreign key (sale_line_id, business_id) references public.sale_lines (id, business_id) on delete cascade
);
alter table public.sale_line_costs enable row level security;
comment on table public.sale_line_costs is
  'Unit cost of a sale line when it was sold (for profit). Owners and managers of the store read; post_sale writes.';
create index sale_line_costs_line_business_idx on public.sale_line_costs (sale_line_id, business_id);
create index sale_line_costs_store_idx on public.sale_line_costs (store_id, business_id);

create table public.sale_tenders (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null,
  store_id uuid not null,
  sale_id uuid not null,
  kind text not null check (kind in ('cash', 'card', 'other')),
  -- amount: what this tender pays of the total; tendered: what the customer handed over (cash); change: back.
  amount bigint not null check (amount >= 0),
  tendered bigint not null check (tendered >= 0),
  change bigint not null default 0 check (change >= 0),
  foreign key (sale_id, business_id) references public.sales (id, business_id) on delete cascade
);
alter table public.sale_tenders enable row level security;
comment on table public.sale_tenders is 'How a sale was paid. Readers of the sale read them; written by post_sale.';
create index sale_tenders_sale_idx on public.sale_tenders (sale_id, business_id);
create index sale_tenders_store_idx on public.sale_tenders (store_id, business_id);

create table public.refunds (
  id uuid primary key,
  business_id uuid not null,
  store_id uuid not null,
  sale_id uuid not null,
  register_id uuid references public.registers (id),
  shift_id uuid,
  actor_id uuid references auth.users (id) on delete set null,
  approval_id uuid references public.pos_approvals (id),
  tender_kind text not null check (tender_kind in ('cash', 'card', 'other')),
  total bigint not null check (total >= 0),
  reason public.short_text,
  offline boolean not null default false,
  occurred_at timestamptz not null,
  recorded_at timestamptz not null default now(),
  unique (id, business_id),
  foreign key (sale_id, business_id) references public.sales (id, business_id) on delete cascade,
  foreign key (shift_id, business_id) references public.shifts (id, business_id),
  foreign key (store_id, business_id) references public.stores (id, business_id) on delete cascade
);
alter table public.refunds enable row level security;
comment on table public.refunds is
  'Refunds against a sale, to its original tender. Readers of the sale read them; written by post_refund.';
create index refunds_sale_idx on public.refunds (sale_id, business_id);
create index refunds_store_idx on public.refunds (store_id, business_id, occurred_at desc);
create index refunds_shift_idx on public.refunds (shift_id, business_id);
create index refunds_register_idx on public.refunds (register_id);
create index refunds_actor_idx on public.refunds (actor_id);
create index refunds_approval_idx on public.refunds (approval_id);

create table public.refund_lines (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null,
  refund_id uuid not null,
  sale_line_id uuid not null,
  qty numeric(12, 3) not null check (qty > 0),
  amount bigint not null check (amount >= 0),
  disposition text not null check (disposition in ('restock', 'damaged')),
  foreign key (refund_id, business_id) references public.refunds (id, business_id) on delete cascade,
  foreign key (sale_line_id, business_id) references public.sale_lines (id, business_id) on delete cascade
);
alter table public.refund_lines enable row level security;
comment on table public.refund_lines is 'Lines of a refund. Readers of the refund read them; written by post_refund.';
create index refund_lines_refund_idx on public.refund_lines (refund_id, business_id);
create index refund_lines_sale_line_idx on public.refund_lines (sale_line_id, business_id);

-- The last receipt sequence per register. Registers mint their numbers (prefix + sequence) offline; the server
-- keeps the highest it has seen so an online register continues after it.
create table private.register_counters (
  register_id uuid primary key references public.registers (id) on delete cascade,
  last_seq bigint not null default 0
);
alter table private.register_counters enable row level security;
comment on table private.register_counters is 'Highest receipt sequence per register; read and written by the POS functions only.';
revoke all on table private.register_counters from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Helpers.

-- The largest discount (percent of the line) each role gives without a manager (ADR 0131).
create or replace function private.discount_limit_percent(_role text)
returns numeric
language sql
immutable
set search_path = ''
as $$
  select case _role when 'owner' then 100 when 'manager' then 50 when 'cashier' then 10 else 0 end::numeric;
$$;
revoke all on function private.discount_limit_percent(text) from public, anon, authenticated;

create or replace function private.receipt_number(_prefix text, _seq bigint)
returns text
language sql
immutable
set search_path = ''
as $$
  select _prefix || '-' || lpad(_seq::text, 6, '0');
$$;
revoke all on function private.receipt_number(text, bigint) from public, anon, authenticated;

-- A usable approval (right business, store and purpose, unexpired, unused, approver still an owner or manager),
-- locked and marked used for _used_for; null when there is none.
create or replace function private.take_approval(_approval_id uuid, _business_id uuid, _store_id uuid, _purpose text,
                                                 _used_for uuid)
returns public.pos_approvals
language plpgsql
security definer
set search_path = ''
as $$
declare
  v public.pos_approvals;
begin
  if _approval_id is null then
    return null;
  end if;
  select a.* into v from public.pos_approvals a
   where a.id = _approval_id and a.business_id = _business_id and a.store_id = _store_id and a.purpose = _purpose
     and a.expires_at > now() and a.used_at is null
     and exists (select 1 from public.business_members m where m.business_id = a.business_id
                  and m.user_id = a.approved_by and m.role in ('owner', 'manager'))
   for update;
  if v.id is null then
    return null;
  end if;
  update public.pos_approvals a set used_at = now(), used_for = _used_for where a.id = v.id;
  return v;
end;
$$;
revoke all on function private.take_approval(uuid, uuid, uuid, text, uuid) from public, anon, authenticated;

-- The sale as the register shows it (no cost).
create or replace function private.sale_json(_sale_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select to_jsonb(s) || jsonb_build_object(
           'lines', coalesce((select jsonb_agg(to_jsonb(l) order by l.line_no) from public.sale_lines l where l.sale_id = s.id), '[]'),
           'tenders', coalesce((select jsonb_agg(to_jsonb(t) order by t.kind, t.id) from public.sale_tenders t where t.sale_id = s.id), '[]'))
    from public.sales s where s.id = _sale_id;
$$;
revoke all on function private.sale_json(uuid) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Shifts.
create or replace function public.open_shift(_register_id uuid, _opening_float bigint default 0)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_register public.registers;
  v_business uuid;
  v_shift public.shifts;
begin
  select r.* into v_register from public.registers r where r.id = _register_id and r.archived_at is null;
  if v_register.id is null then
    raise exception 'no such register' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_register.store_id, array['owner', 'manager', 'cashier']);
  if _opening_float is null or _opening_float < 0 or _opening_float > 100000000000 then
    raise exception 'enter a starting float of zero or more' using errcode = '22023';
  end if;
  begin
    insert into public.shifts (business_id, store_id, register_id, cashier_id, opening_float)
    values (v_business, v_register.store_id, v_register.id, (select auth.uid()), _opening_float)
    returning * into v_shift;
  exception when unique_violation then
    raise exception 'this register already has an open shift: close it first' using errcode = '23505';
  end;
  insert into private.register_counters (register_id) values (v_register.id) on conflict do nothing;
  perform private.log_activity(v_business, v_register.store_id, 'shift.opened', 'shift', v_shift.id, null,
    jsonb_build_object('register_id', v_register.id, 'opening_float', _opening_float));
  return to_jsonb(v_shift) || jsonb_build_object(
    'next_receipt_seq', (select c.last_seq + 1 from private.register_counters c where c.register_id = v_register.id),
    'receipt_prefix', v_register.receipt_prefix::text);
end;
$$;

-- The register's open shift (if any) with the next receipt sequence, for a register that reloads.
create or replace function public.current_shift(_register_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_register public.registers;
begin
  select r.* into v_register from public.registers r where r.id = _register_id;
  if v_register.id is null then
    raise exception 'no such register' using errcode = '42501';
  end if;
  perform private.assert_store_role(v_register.store_id, array['owner', 'manager', 'cashier']);
  return (select to_jsonb(s) || jsonb_build_object(
            'next_receipt_seq', coalesce((select c.last_seq from private.register_counters c where c.register_id = s.register_id), 0) + 1,
            'receipt_prefix', v_register.receipt_prefix::text)
            from public.shifts s where s.register_id = _register_id and s.closed_at is null);
end;
$$;

create or replace function public.cash_in_out(_shift_id uuid, _kind text, _amount bigint, _reason text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_shift public.shifts;
  v_id uuid;
begin
  select s.* into v_shift from public.shifts s where s.id = _shift_id;
  if v_shift.id is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  perform private.assert_store_role(v_shift.store_id, array['owner', 'manager', 'cashier']);
  if v_shift.closed_at is not null then
    raise exception 'this shift is closed' using errcode = '22023';
  elsif _kind is null or _kind not in ('in', 'out') then
    raise exception 'cash goes in or out' using errcode = '22023';
  elsif _amount is null or _amount <= 0 or _amount > 100000000000 then
    raise exception 'enter an amount above zero' using errcode = '22023';
  elsif char_length(btrim(coalesce(_reason, ''))) not between 1 and 200 then
    raise exception 'give a reason (1 to 200 characters)' using errcode = '22023';
  end if;
  insert into public.cash_movements (business_id, store_id, shift_id, kind, amount, reason, actor_id)
  values (v_shift.business_id, v_shift.store_id, v_shift.id, _kind, _amount, btrim(_reason), (select auth.uid()))
  returning id into v_id;
  perform private.log_activity(v_shift.business_id, v_shift.store_id, 'cash.' || _kind, 'shift', v_shift.id, null,
    jsonb_build_object('amount', _amount, 'reason', btrim(_reason)));
  return v_id;
end;
$$;

-- The figures of a shift: sales, discounts, taxes, tenders, refunds, cash in and out, and the cash expected in
-- the drawer (float + cash taken - change given - cash refunds + cash in - cash out).
create or replace function private.shift_figures(_shift_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with s as (select * from public.shifts where id = _shift_id),
  sa as (select count(*) as n, coalesce(sum(total), 0) as total, coalesce(sum(discount_total), 0) as discounts,
                coalesce(sum(tax_total), 0) as tax, count(*) filter (where flagged_for_review) as flagged
           from public.sales where shift_id = _shift_id),
  te as (select t.kind, sum(t.amount) as amount from public.sale_tenders t join public.sales x on x.id = t.sale_id
          where x.shift_id = _shift_id group by t.kind),
  re as (select count(*) as n, coalesce(sum(total), 0) as total,
                coalesce(sum(total) filter (where tender_kind = 'cash'), 0) as cash
           from public.refunds where shift_id = _shift_id),
  cm as (select coalesce(sum(amount) filter (where kind = 'in'), 0) as cash_in,
                coalesce(sum(amount) filter (where kind = 'out'), 0) as cash_out
           from public.cash_movements where shift_id = _shift_id)
  select jsonb_build_object(
    'shift_id', s.id, 'register_id', s.register_id, 'opened_at', s.opened_at, 'closed_at', s.closed_at,
    'opening_float', s.opening_float, 'sales_count', sa.n, 'sales_total', sa.total, 'discount_total', sa.discounts,
    'tax_total', sa.tax, 'flagged_count', sa.flagged,
    'tenders', coalesce((select jsonb_object_agg(kind, amount) from te), '{}'),
    'refunds_count', re.n, 'refunds_total', re.total, 'cash_in', cm.cash_in, 'cash_out', cm.cash_out,
    'expected_cash', s.opening_float + coalesce((select amount from te where kind = 'cash'), 0) - re.cash
                     + cm.cash_in - cm.cash_out,
    'counted', s.counted, 'counted_total', s.counted_total, 'difference', s.difference)
  from s, sa, re, cm;
$$;
revoke all on function private.shift_figures(uuid) from public, anon, authenticated;

create or replace function public.x_report(_shift_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_store uuid := (select s.store_id from public.shifts s where s.id = _shift_id);
begin
  if v_store is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  perform private.assert_store_role(v_store, array['owner', 'manager', 'cashier']);
  return private.shift_figures(_shift_id);
end;
$$;

-- The Z report: the closed shift's final figures (a shift still open has only an X report).
create or replace function public.z_report(_shift_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_shift public.shifts;
begin
  select s.* into v_shift from public.shifts s where s.id = _shift_id;
  if v_shift.id is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  perform private.assert_store_role(v_shift.store_id, array['owner', 'manager', 'cashier']);
  if v_shift.closed_at is null then
    raise exception 'this shift is still open: print an X report or close it' using errcode = '22023';
  end if;
  return private.shift_figures(_shift_id);
end;
$$;

-- Close with the cash counted by denomination ({"minor units": count}); records expected and the difference.
create or replace function public.close_shift(_shift_id uuid, _counted jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_shift public.shifts;
  v_total numeric := 0;
  v_expected bigint;
  r record;
begin
  select s.* into v_shift from public.shifts s where s.id = _shift_id for update;
  if v_shift.id is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  perform private.assert_store_role(v_shift.store_id, array['owner', 'manager', 'cashier']);
  if private.my_role(v_shift.business_id) = 'cashier' and v_shift.cashier_id is distinct from (select auth.uid()) then
    raise exception 'permission denied: only the cashier who opened it or a manager closes this shift' using errcode = '42501';
  elsif v_shift.closed_at is not null then
    raise exception 'this shift is already closed' using errcode = '22023';
  elsif jsonb_typeof(_counted) is distinct from 'object' then
    raise exception 'count the cash by denomination' using errcode = '22023';
  end if;
  for r in select key, value from jsonb_each(_counted) loop
    if r.key !~ '^[1-9][0-9]{0,9}$' or jsonb_typeof(r.value) <> 'number' or (r.value #>> '{}') !~ '^[0-9]{1,9}$' then
      raise exception 'a denomination is a whole amount in minor units and its count a whole number' using errcode = '22023';
    end if;
    v_total := v_total + r.key::numeric * (r.value #>> '{}')::numeric;
  end loop;
  v_expected := (private.shift_figures(_shift_id) ->> 'expected_cash')::bigint;
  update public.shifts s
     set closed_at = now(), closed_by = (select auth.uid()), counted = _counted, counted_total = v_total::bigint,
         expected_cash = v_expected, difference = v_total::bigint - v_expected
   where s.id = _shift_id;
  perform private.log_activity(v_shift.business_id, v_shift.store_id, 'shift.closed', 'shift', v_shift.id, null,
    jsonb_build_object('expected_cash', v_expected, 'counted_total', v_total, 'difference', v_total - v_expected));
  return private.shift_figures(_shift_id);
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- Approvals: an owner or manager signed in at the register approves one discount (up to a percent) or refund.
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
  if _purpose is null or _purpose not in ('discount', 'refund') then
    raise exception 'approve a discount or a refund' using errcode = '22023';
  elsif _max_discount_percent is null or _max_discount_percent < 0 or _max_discount_percent > v_limit then
    raise exception 'you may approve discounts up to % percent', v_limit using errcode = '22023';
  end if;
  insert into public.pos_approvals (business_id, store_id, purpose, max_discount_percent, approved_by)
  values (v_business, _store_id, _purpose, _max_discount_percent, (select auth.uid()))
  returning id into v_id;
  perform private.log_activity(v_business, _store_id, 'approval.granted', 'approval', v_id, null,
    jsonb_build_object('purpose', _purpose, 'max_discount_percent', _max_discount_percent));
  return v_id;
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- post_sale(payload): one sale in one transaction. Payload:
--   { id: uuid (client), register_id, shift_id, customer_id?, occurred_at?, offline?: bool, receipt_seq?: int,
--     approval_id?, lines: [{ variant_id, qty, unit_price, discount?, lot_id? }],
--     tenders: [{ kind: cash|card|other, amount, tendered? }] }
-- Prices, taxes and totals are computed here from the catalog; the register's unit_price is only checked.
create or replace function public.post_sale(_payload jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id uuid;
  v_offline boolean;
  v_register public.registers;
  v_store public.stores;
  v_business uuid;
  v_role text;
  v_uid uuid := (select auth.uid());
  v_existing public.sales;
  v_shift public.shifts;
  v_reasons text[] := '{}';
  v_occurred timestamptz;
  v_seq bigint;
  v_receipt text;
  v_customer uuid;
  v_approval public.pos_approvals;
  v_approval_id uuid;
  v_max_pct numeric := 0;
  v_line jsonb;
  v_n int := 0;
  v_lines jsonb := '[]';
  v_variant record;
  v_qty numeric;
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
  v_subtotal bigint := 0;
  v_discounts bigint := 0;
  v_taxes bigint := 0;
  v_total bigint := 0;
  v_paid bigint := 0;
  v_tendered_total bigint := 0;
  v_change_total bigint := 0;
  v_tender jsonb;
  v_tenders jsonb := '[]';
  v_kind text;
  v_amount bigint;
  v_tendered bigint;
  v_change bigint;
  v_line_id uuid;
  v_balance numeric;
  v_mv record;
begin
  if jsonb_typeof(_payload) is distinct from 'object' then
    raise exception 'send the sale as an object' using errcode = '22023';
  end if;
  if coalesce(_payload ->> 'id', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    raise exception 'a sale needs its register-generated id (a uuid)' using errcode = '22023';
  end if;
  if coalesce(_payload ->> 'register_id', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    raise exception 'choose a register' using errcode = '22023';
  end if;
  v_id := (_payload ->> 'id')::uuid;
  v_offline := coalesce(_payload ->> 'offline', 'false') = 'true';

  select r.* into v_register from public.registers r where r.id = (_payload ->> 'register_id')::uuid;
  if v_register.id is null then
    raise exception 'no such register' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_register.store_id, array['owner', 'manager', 'cashier']);
  v_role := private.my_role(v_business);

  -- A retry: the first result, nothing written twice.
  select s.* into v_existing from public.sales s where s.id = v_id;
  if v_existing.id is not null then
    if v_existing.business_id <> v_business then
      raise exception 'permission denied: this sale id belongs to another business' using errcode = '42501';
    end if;
    return private.sale_json(v_id) || jsonb_build_object('replayed', true);
  end if;

  select s.* into v_store from public.stores s where s.id = v_register.store_id;
  if v_register.archived_at is not null then
    if not v_offline then
      raise exception 'this register is archived' using errcode = '22023';
    end if;
    v_reasons := array_append(v_reasons, 'register_archived'::text);
  end if;

  -- The shift: open on this register (an offline sale may arrive after its shift closed: flagged).
  if coalesce(_payload ->> 'shift_id', '') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    select s.* into v_shift from public.shifts s where s.id = (_payload ->> 'shift_id')::uuid and s.register_id = v_register.id;
  end if;
  if v_shift.id is null or v_shift.closed_at is not null then
    if not v_offline then
      raise exception 'open a shift on this register first' using errcode = '22023';
    end if;
    v_reasons := array_append(v_reasons, 'no_open_shift'::text);
  end if;

  v_occurred := now();
  if _payload ? 'occurred_at' and jsonb_typeof(_payload -> 'occurred_at') = 'string' then
    begin
      v_occurred := (_payload ->> 'occurred_at')::timestamptz;
    exception when others then
      raise exception 'occurred_at is not a date and time' using errcode = '22023';
    end;
    if v_occurred > now() + interval '5 minutes' then
      v_reasons := array_append(v_reasons, 'clock_ahead'::text);
      v_occurred := now();
    end if;
  end if;

  if nullif(_payload ->> 'customer_id', '') is not null then
    select c.id into v_customer from public.customers c
     where c.id::text = (_payload ->> 'customer_id') and c.business_id = v_business;
    if v_customer is null then
      if not v_offline then
        raise exception 'no such customer in this business' using errcode = '22023';
      end if;
      v_reasons := array_append(v_reasons, 'unknown_customer'::text);
    end if;
  end if;

  v_max_pct := private.discount_limit_percent(v_role);
  if nullif(_payload ->> 'approval_id', '') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    v_approval_id := (_payload ->> 'approval_id')::uuid;
  end if;

  -- Lines: price and tax from the catalog.
  if jsonb_typeof(_payload -> 'lines') is distinct from 'array' or jsonb_array_length(_payload -> 'lines') = 0 then
    raise exception 'a sale has at least one line' using errcode = '22023';
  elsif jsonb_array_length(_payload -> 'lines') > 500 then
    raise exception 'a sale has at most 500 lines' using errcode = '22023';
  end if;
  for v_line in select value from jsonb_array_elements(_payload -> 'lines') loop
    v_n := v_n + 1;
    if jsonb_typeof(v_line) <> 'object'
       or coalesce(v_line ->> 'variant_id', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      raise exception 'line %: choose an item', v_n using errcode = '22023';
    end if;
    if jsonb_typeof(v_line -> 'qty') <> 'number' or (v_line ->> 'qty')::numeric <= 0 then
      raise exception 'line %: enter a quantity above zero', v_n using errcode = '22023';
    end if;
    v_qty := (v_line ->> 'qty')::numeric;
    select v.id, v.sku, v.price, p.name, p.tax_rate, p.track_stock, p.has_lots, v.option1, v.option2, v.option3,
           sp.price as store_price, coalesce(c.cost, 0) as cost
      into v_variant
      from public.variants v
      join public.products p on p.id = v.product_id
      left join public.store_prices sp on sp.store_id = v_store.id and sp.variant_id = v.id
      left join public.variant_costs c on c.variant_id = v.id
     where v.id = (v_line ->> 'variant_id')::uuid and v.business_id = v_business;
    if v_variant.id is null then
      raise exception 'line %: no such item in this business', v_n using errcode = '22023';
    end if;
    perform private.assert_quantity(v_variant.id, v_qty);
    v_price := coalesce(v_variant.store_price, v_variant.price);
    if v_line ? 'unit_price' then
      if jsonb_typeof(v_line -> 'unit_price') <> 'number' or (v_line ->> 'unit_price') !~ '^[0-9]{1,12}$' then
        raise exception 'line %: a price is a whole amount in minor units', v_n using errcode = '22023';
      end if;
      v_claimed := (v_line ->> 'unit_price')::bigint;
      if v_claimed <> v_price then
        if not v_offline then
          raise exception 'line %: the price % is not this item''s price (%): refresh the register', v_n, v_claimed, v_price
            using errcode = 'SW002';
        end if;
        -- Offline the register sold at the price it showed (maybe stale): keep it, flag it.
        v_reasons := array_append(v_reasons, ('price_mismatch:' || v_n)::text);
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
    if v_discount > v_gross then
      raise exception 'line %: the discount is larger than the line', v_n using errcode = '22023';
    end if;
    v_pct := case when v_gross = 0 then 0 else v_discount * 100.0 / v_gross end;
    if v_pct > v_max_pct then
      if v_approval.id is null and v_approval_id is not null then
        v_approval := private.take_approval(v_approval_id, v_business, v_store.id, 'discount', v_id);
      end if;
      if v_approval.id is null or v_pct > v_approval.max_discount_percent then
        if not v_offline then
          raise exception 'line %: a discount of % percent is above your limit of % percent: ask a manager to approve it',
            v_n, round(v_pct, 1), v_max_pct using errcode = '42501';
        end if;
        v_reasons := array_append(v_reasons, ('discount_over_limit:' || v_n)::text);
      end if;
    end if;
    v_net := v_gross - v_discount;
    v_rate := coalesce(v_variant.tax_rate, v_store.default_tax_rate);
    -- Rounded per line, half away from zero, in minor units.
    if v_store.tax_inclusive then
      v_tax := round(v_net * v_rate / (100 + v_rate))::bigint;
      v_line_total := v_net;
    else
      v_tax := round(v_net * v_rate / 100)::bigint;
      v_line_total := v_net + v_tax;
    end if;
    v_lot := null;
    if v_variant.has_lots then
      if nullif(v_line ->> 'lot_id', '') is not null then
        select l.id into v_lot from public.lots l where l.id::text = (v_line ->> 'lot_id') and l.variant_id = v_variant.id;
      end if;
      if v_lot is null then
        -- First expiring lot with stock here, else the newest lot.
        select l.id into v_lot from public.lots l
          left join public.stock_balances b on b.lot_id = l.id and b.store_id = v_store.id
         where l.variant_id = v_variant.id
         order by (coalesce(b.qty, 0) > 0) desc, l.expires_on nulls last, l.created_at desc limit 1;
      end if;
      if v_lot is null then
        raise exception 'line %: this item is tracked by lot and has none yet: receive it first', v_n using errcode = '22023';
      end if;
    end if;
    v_subtotal := v_subtotal + v_gross;
    v_discounts := v_discounts + v_discount;
    v_taxes := v_taxes + v_tax;
    v_total := v_total + v_line_total;
    v_lines := v_lines || jsonb_build_object(
      'line_no', v_n, 'variant_id', v_variant.id, 'lot_id', v_lot, 'qty', v_qty, 'unit_price', v_price,
      'discount', v_discount, 'tax_rate', v_rate, 'tax_amount', v_tax, 'line_total', v_line_total,
      'cost', v_variant.cost, 'track_stock', v_variant.track_stock,
      'description', v_variant.name || coalesce(' ' || concat_ws(' / ', v_variant.option1, v_variant.option2, v_variant.option3), ''));
  end loop;

  -- Tenders.
  if jsonb_typeof(_payload -> 'tenders') is distinct from 'array' or jsonb_array_length(_payload -> 'tenders') = 0 then
    raise exception 'add how the sale was paid' using errcode = '22023';
  elsif jsonb_array_length(_payload -> 'tenders') > 10 then
    raise exception 'a sale has at most 10 tenders' using errcode = '22023';
  end if;
  for v_tender in select value from jsonb_array_elements(_payload -> 'tenders') loop
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
    v_change := v_tendered - v_amount;
    v_paid := v_paid + v_amount;
    v_tendered_total := v_tendered_total + v_tendered;
    v_change_total := v_change_total + v_change;
    v_tenders := v_tenders || jsonb_build_object('kind', v_kind, 'amount', v_amount, 'tendered', v_tendered, 'change', v_change);
  end loop;
  if v_paid <> v_total then
    if not v_offline then
      raise exception 'the tenders pay % but the sale totals %', v_paid, v_total using errcode = '22023',
        detail = format('total:%s', v_total);
    end if;
    v_reasons := array_append(v_reasons, 'tenders_mismatch'::text);
  end if;

  -- The receipt number: the register's own sequence when it sent one, else the next on the server.
  if jsonb_typeof(_payload -> 'receipt_seq') = 'number' and (_payload ->> 'receipt_seq') ~ '^[1-9][0-9]{0,11}$' then
    v_seq := (_payload ->> 'receipt_seq')::bigint;
    insert into private.register_counters as c (register_id, last_seq) values (v_register.id, v_seq)
    on conflict (register_id) do update set last_seq = greatest(c.last_seq, excluded.last_seq);
    if exists (select 1 from public.sales s where s.business_id = v_business
                and s.receipt_number = private.receipt_number(v_register.receipt_prefix, v_seq)) then
      v_seq := null;
      v_reasons := array_append(v_reasons, 'receipt_number_reassigned'::text);
    end if;
  end if;
  if v_seq is null then
    insert into private.register_counters as c (register_id, last_seq) values (v_register.id, 1)
    on conflict (register_id) do update set last_seq = c.last_seq + 1
    returning c.last_seq into v_seq;
  end if;
  v_receipt := private.receipt_number(v_register.receipt_prefix, v_seq);

  insert into public.sales (id, business_id, store_id, register_id, shift_id, cashier_id, customer_id, receipt_number,
                            currency, tax_inclusive, subtotal, discount_total, tax_total, total, tendered_total,
                            change_total, review_reasons, offline, approval_id, occurred_at)
  values (v_id, v_business, v_store.id, v_register.id, v_shift.id, v_uid, v_customer, v_receipt, v_store.currency,
          v_store.tax_inclusive, v_subtotal, v_discounts, v_taxes, v_total, v_tendered_total, v_change_total, v_reasons,
          v_offline, v_approval.id, v_occurred)
  on conflict (id) do nothing;
  if not found then
    -- A concurrent copy committed first: its result, nothing written by this one (the transaction still rolls
    -- back the counter bump and any approval taken above when it raises; here they are harmless).
    select s.* into v_existing from public.sales s where s.id = v_id;
    if v_existing.business_id <> v_business then
      raise exception 'permission denied: this sale id belongs to another business' using errcode = '42501';
    end if;
    return private.sale_json(v_id) || jsonb_build_object('replayed', true);
  end if;

  for v_line in select value from jsonb_array_elements(v_lines) loop
    insert into public.sale_lines (business_id, store_id, sale_id, line_no, variant_id, lot_id, description, qty,
                                   unit_price, discount, tax_rate, tax_amount, line_total)
    values (v_business, v_store.id, v_id, (v_line ->> 'line_no')::int, (v_line ->> 'variant_id')::uuid,
            (v_line ->> 'lot_id')::uuid, v_line ->> 'description', (v_line ->> 'qty')::numeric,
            (v_line ->> 'unit_price')::bigint, (v_line ->> 'discount')::bigint, (v_line ->> 'tax_rate')::numeric,
            (v_line ->> 'tax_amount')::bigint, (v_line ->> 'line_total')::bigint)
    returning id into v_line_id;
    insert into public.sale_line_costs (sale_line_id, business_id, store_id, unit_cost)
    values (v_line_id, v_business, v_store.id, (v_line ->> 'cost')::bigint);
  end loop;
  insert into public.sale_tenders (business_id, store_id, sale_id, kind, amount, tendered, change)
  select v_business, v_store.id, v_id, t ->> 'kind', (t ->> 'amount')::bigint, (t ->> 'tendered')::bigint,
         (t ->> 'change')::bigint
    from jsonb_array_elements(v_tenders) t;

  -- Stock: one ledger row per line, in a fixed order (variant, lot) so concurrent sales cannot deadlock on the
  -- balance rows. Stock may go negative (never refuse a sale at the counter): flagged for the manager.
  for v_mv in select (l ->> 'variant_id')::uuid as variant_id, (l ->> 'lot_id')::uuid as lot_id,
                  sum((l ->> 'qty')::numeric) as qty, max((l ->> 'cost')::bigint) as cost
             from jsonb_array_elements(v_lines) l
            where (l ->> 'track_stock')::boolean
            group by 1, 2 order by 1, 2 loop
    v_balance := private.apply_movement(v_business, v_store.id, v_mv.variant_id, v_mv.lot_id, 'sale', -v_mv.qty, null, v_mv.cost,
                                        v_occurred, 'sale', v_id, v_receipt);
    if v_balance < 0 then
      v_reasons := array_append(v_reasons, ('negative_stock:' || v_mv.variant_id)::text);
    end if;
  end loop;
  if cardinality(v_reasons) > 0 then
    update public.sales s set review_reasons = v_reasons where s.id = v_id;
  end if;

  perform private.log_activity(v_business, v_store.id, 'sale.posted', 'sale', v_id, null,
    jsonb_build_object('receipt_number', v_receipt, 'total', v_total, 'offline', v_offline,
                       'review_reasons', to_jsonb(v_reasons), 'approval_id', v_approval.id));
  return private.sale_json(v_id) || jsonb_build_object('replayed', false);
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- post_refund(payload): a refund against a sale, to its original tender. Payload:
--   { id: uuid (client), sale_id, register_id?, shift_id?, approval_id?, reason?, occurred_at?, offline?,
--     lines: [{ sale_line_id, qty, disposition: restock|damaged }] }
-- Owners and managers refund; a cashier needs a manager's refund approval. Restocked items go back through
-- the ledger; damaged ones do not re-enter stock.
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
      raise exception 'permission denied: a refund needs a manager''s approval' using errcode = '42501';
    end if;
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
  -- The original tender: the one that paid most (card before cash on a tie is not needed: any will do).
  select t.kind into v_tender from public.sale_tenders t where t.sale_id = v_sale.id order by t.amount desc, t.kind limit 1;

  if jsonb_typeof(_payload -> 'lines') is distinct from 'array' or jsonb_array_length(_payload -> 'lines') = 0 then
    raise exception 'choose at least one line to refund' using errcode = '22023';
  end if;
  insert into public.refunds (id, business_id, store_id, sale_id, register_id, shift_id, actor_id, approval_id,
                              tender_kind, total, reason, offline, occurred_at)
  values (v_id, v_business, v_sale.store_id, v_sale.id, v_sale.register_id, v_shift, (select auth.uid()), v_approval.id,
          v_tender, 0, nullif(btrim(coalesce(_payload ->> 'reason', '')), ''), v_offline, v_occurred);
  for v_line in select value from jsonb_array_elements(_payload -> 'lines') loop
    v_n := v_n + 1;
    select l.* into v_sl from public.sale_lines l
     where l.id::text = (v_line ->> 'sale_line_id') and l.sale_id = v_sale.id;
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
      raise exception 'refund line %: only % left to refund', v_n, v_sl.qty - v_done using errcode = '22023';
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
  update public.refunds f set total = v_total where f.id = v_id;
  perform private.log_activity(v_business, v_sale.store_id, 'refund.posted', 'refund', v_id, null,
    jsonb_build_object('sale_id', v_sale.id, 'receipt_number', v_sale.receipt_number, 'total', v_total,
                       'tender_kind', v_tender, 'approval_id', v_approval.id));
  return (select to_jsonb(f) || jsonb_build_object('replayed', false,
            'lines', (select jsonb_agg(to_jsonb(l)) from public.refund_lines l where l.refund_id = f.id))
            from public.refunds f where f.id = v_id);
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- Grants and policies.
revoke all on table public.shifts, public.cash_movements, public.customers, public.pos_approvals, public.sales,
  public.sale_lines, public.sale_line_costs, public.sale_tenders, public.refunds, public.refund_lines
  from public, anon, authenticated;
-- The back office reads everything; money moves only through the functions.
grant select on table public.shifts, public.cash_movements, public.pos_approvals, public.sales, public.sale_lines,
  public.sale_line_costs, public.sale_tenders, public.refunds, public.refund_lines to service_role;
grant select, insert, update, delete on table public.customers to service_role;

grant select on table public.shifts, public.cash_movements, public.customers, public.pos_approvals, public.sales,
  public.sale_lines, public.sale_line_costs, public.sale_tenders, public.refunds, public.refund_lines to authenticated;
grant insert (business_id, name, phone, email), update (name, phone, email), delete on table public.customers to authenticated;

do $$
declare
  t text;
begin
  -- Store-scoped: every member with access to the store reads.
  foreach t in array array['shifts', 'cash_movements', 'sales', 'sale_lines', 'sale_tenders', 'refunds'] loop
    execute format($p$create policy "%1$s: members read in their stores" on public.%1$I for select to authenticated
      using (business_id in (select private.my_full_access_business_ids())
             or store_id in (select private.my_listed_store_ids()))$p$, t);
  end loop;
  -- Owners and managers of the store only (costs, approvals).
  foreach t in array array['sale_line_costs', 'pos_approvals'] loop
    execute format($p$create policy "%1$s: owners and managers read in their stores" on public.%1$I
      for select to authenticated
      using ((business_id in (select private.my_full_access_business_ids())
              or store_id in (select private.my_listed_store_ids()))
             and business_id in (select private.my_business_ids(array['owner', 'manager'])))$p$, t);
  end loop;
end;
$$;

create policy "refund_lines: readers of the refund" on public.refund_lines for select to authenticated
  using (refund_id in (select f.id from public.refunds f));

create policy "customers: members read" on public.customers for select to authenticated
  using (business_id in (select private.my_business_ids()));
create policy "customers: members create" on public.customers for insert to authenticated
  with check (business_id in (select private.my_business_ids()));
create policy "customers: owners and managers edit" on public.customers for update to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])))
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));
create policy "customers: owners and managers delete" on public.customers for delete to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create trigger audit_customer after insert or update or delete on public.customers
  for each row execute function private.audit_row('customer');

do $$
declare
  f text;
begin
  foreach f in array array[
    'public.open_shift(uuid, bigint)',
    'public.current_shift(uuid)',
    'public.cash_in_out(uuid, text, bigint, text)',
    'public.x_report(uuid)',
    'public.z_report(uuid)',
    'public.close_shift(uuid, jsonb)',
    'public.approve_discount(uuid, numeric, text)',
    'public.post_sale(jsonb)',
    'public.post_refund(jsonb)'
  ] loop
    execute format('revoke all on function %s from public, anon', f);
    execute format('grant execute on function %s to authenticated', f);
  end loop;
end;
$$;
