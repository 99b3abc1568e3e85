-- Reports (shared/features/reports): the summaries the reports read instead of the raw sales (daily and monthly
-- rollups, breakdowns, inventory value, shift totals, stock pairs), the report functions, and the flagged sales and
-- shifts to review.
-- Invariants: every summary equals what recomputing it from sales, refunds and the ledger gives (kept by triggers,
-- rebuilt by the refresh functions); reports only read what the caller's role may see.
--
-- Written by scripts/schema-extract.ts from the migrations and kept equal to them by
-- tests/hosted/schema-files.test.ts: change an object here, then generate its migration (README, Contributing).

-- Function bodies are checked when they run, not when created: the files need no order among functions.
set check_function_bodies = off;

-- ==== Tables: columns, constraints, row level security, grants and comments ===============================

create table public.sales_daily (
  business_id uuid not null,
  store_id uuid not null,
  day date not null,
  receipts bigint default 0 not null,
  gross bigint default 0 not null,
  discounts bigint default 0 not null,
  tax bigint default 0 not null,
  lines bigint default 0 not null,
  units numeric default 0 not null,
  revenue bigint default 0 not null,
  cost numeric default 0 not null,
  lines_without_cost bigint default 0 not null,
  refunds bigint default 0 not null,
  refund_count bigint default 0 not null,
  constraint sales_daily_pkey primary key (store_id, day),
  constraint sales_daily_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint sales_daily_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade
);
alter table public.sales_daily enable row level security;
comment on table public.sales_daily is 'Per store and local day: receipts, gross (sales.total), discounts and tax of the sales; lines, units, revenue net of tax, cost and lines without cost of their lines; refunds on their own day. Maintained by triggers (ADR 0143). Owners and managers read the stores they may use; nobody writes through the API.';
grant select on table public.sales_daily to authenticated;
grant select on table public.sales_daily to service_role;

create table public.sales_daily_tax (
  business_id uuid not null,
  store_id uuid not null,
  day date not null,
  tax_rate numeric not null,
  lines bigint default 0 not null,
  taxable bigint default 0 not null,
  tax bigint default 0 not null,
  constraint sales_daily_tax_pkey primary key (store_id, day, tax_rate),
  constraint sales_daily_tax_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint sales_daily_tax_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade
);
alter table public.sales_daily_tax enable row level security;
comment on table public.sales_daily_tax is 'Per store, local day and tax rate: sale lines, taxable amount (net of tax) and tax. Maintained by triggers (ADR 0143). Owners and managers read the stores they may use; nobody writes through the API.';
grant select on table public.sales_daily_tax to authenticated;
grant select on table public.sales_daily_tax to service_role;

create table public.sales_daily_variant (
  business_id uuid not null,
  store_id uuid not null,
  day date not null,
  variant_id uuid not null,
  description text not null,
  lines bigint default 0 not null,
  units numeric default 0 not null,
  revenue bigint default 0 not null,
  cost numeric default 0 not null,
  lines_without_cost bigint default 0 not null,
  constraint sales_daily_variant_pkey primary key (store_id, day, variant_id),
  constraint sales_daily_variant_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint sales_daily_variant_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade
);
alter table public.sales_daily_variant enable row level security;
comment on table public.sales_daily_variant is 'Per store, local day and variant: lines, units, revenue net of tax and cost (description: the greatest sold). Maintained by triggers (ADR 0143). Owners and managers read the stores they may use; nobody writes through the API.';
grant select on table public.sales_daily_variant to authenticated;
grant select on table public.sales_daily_variant to service_role;

create table public.sales_monthly_variant (
  business_id uuid not null,
  store_id uuid not null,
  month date not null,
  variant_id uuid not null,
  days bigint default 0 not null,
  units numeric default 0 not null,
  revenue bigint default 0 not null,
  revenue_bound bigint default 0 not null,
  cost numeric default 0 not null,
  constraint sales_monthly_variant_pkey primary key (store_id, month, variant_id),
  constraint sales_monthly_variant_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade
);
alter table public.sales_monthly_variant enable row level security;
comment on table public.sales_monthly_variant is 'Per store, month and variant: the sums of sales_daily_variant (units, revenue net of tax, cost) and revenue_bound (sum of max(daily revenue, 0)) for ranking best sellers. Maintained by triggers on sales_daily_variant (ADR 0151). Owners and managers read the stores they may use; nobody writes through the API.';
grant select on table public.sales_monthly_variant to authenticated;
grant select on table public.sales_monthly_variant to service_role;

create table public.sales_monthly_variant_business (
  business_id uuid not null,
  month date not null,
  variant_id uuid not null,
  days bigint default 0 not null,
  units numeric default 0 not null,
  revenue bigint default 0 not null,
  revenue_bound bigint default 0 not null,
  cost numeric default 0 not null,
  constraint sales_monthly_variant_business_pkey primary key (business_id, month, variant_id),
  constraint sales_monthly_variant_business_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table public.sales_monthly_variant_business enable row level security;
comment on table public.sales_monthly_variant_business is 'Per business, month and variant over all stores: the sums of sales_daily_variant and revenue_bound, for ranking best sellers. Maintained by triggers on sales_daily_variant (ADR 0151). Owners and managers of every store read; nobody writes through the API.';
grant select on table public.sales_monthly_variant_business to authenticated;
grant select on table public.sales_monthly_variant_business to service_role;

create table public.stock_movements_daily (
  business_id uuid not null,
  store_id uuid not null,
  day date not null,
  kind text not null,
  movements bigint default 0 not null,
  units_in numeric default 0 not null,
  units_out numeric default 0 not null,
  cost_value numeric default 0 not null,
  constraint stock_movements_daily_pkey primary key (store_id, day, kind),
  constraint stock_movements_daily_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint stock_movements_daily_store_id_fkey foreign key (store_id) references public.stores(id) on delete cascade
);
alter table public.stock_movements_daily enable row level security;
comment on table public.stock_movements_daily is 'Ledger movements per store, local day (store time zone at occurred_at) and kind: count, units in, units out and the unrounded value at the recorded unit cost. Maintained by a trigger on stock_movements in the writing transaction; owners and managers read the stores they may use; nobody writes through the API.';
grant select on table public.stock_movements_daily to authenticated;
grant select on table public.stock_movements_daily to service_role;

create table public.inventory_value (
  business_id uuid not null,
  store_id uuid not null,
  category_id uuid not null,
  variants bigint default 0 not null,
  units numeric default 0 not null,
  cost_value numeric default 0 not null,
  retail_value numeric default 0 not null,
  variants_without_cost bigint default 0 not null,
  constraint inventory_value_pkey primary key (store_id, category_id),
  constraint inventory_value_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint inventory_value_store_id_fkey foreign key (store_id) references public.stores(id) on delete cascade
);
alter table public.inventory_value enable row level security;
comment on table public.inventory_value is 'Stock on hand now per store and product category over the (store, variant) pairs with non-zero stock: pairs, units, value at the moving-average cost and at retail (store price, else variant price), unrounded, and pairs without a cost. Maintained by triggers on stock_balances, variant_costs, store_prices, variants and products in the writing transaction; owners and managers read the stores they may use; nobody writes through the API.';
grant select on table public.inventory_value to authenticated;
grant select on table public.inventory_value to service_role;

create table public.shift_totals (
  shift_id uuid not null,
  business_id uuid not null,
  store_id uuid not null,
  sales_count bigint default 0 not null,
  gross bigint default 0 not null,
  cash bigint default 0 not null,
  card bigint default 0 not null,
  other bigint default 0 not null,
  refunds bigint default 0 not null,
  cash_refunds bigint default 0 not null,
  cash_in bigint default 0 not null,
  cash_out bigint default 0 not null,
  constraint shift_totals_pkey primary key (shift_id),
  constraint shift_totals_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint shift_totals_shift_id_fkey foreign key (shift_id) references public.shifts(id) on delete cascade,
  constraint shift_totals_store_id_fkey foreign key (store_id) references public.stores(id) on delete cascade
);
alter table public.shift_totals enable row level security;
comment on table public.shift_totals is 'Per shift: sales and their total, tenders by kind, refunds (and those paid back in cash), cash in and out, as the Z report shows them. Maintained by triggers on sales, sale_tenders, refunds and cash_movements in the writing transaction; owners and managers read the stores they may use; nobody writes through the API.';
grant select on table public.shift_totals to authenticated;
grant select on table public.shift_totals to service_role;

create table public.sales_daily_breakdown (
  business_id uuid not null,
  store_id uuid not null,
  day date not null,
  dimension text not null,
  key text not null,
  receipts bigint default 0 not null,
  units numeric default 0 not null,
  gross bigint default 0 not null,
  refunds bigint default 0 not null,
  tax bigint default 0 not null,
  cost bigint default 0 not null,
  constraint sales_daily_breakdown_pkey primary key (store_id, day, dimension, key),
  constraint sales_daily_breakdown_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade
);
alter table public.sales_daily_breakdown enable row level security;
comment on table public.sales_daily_breakdown is 'Per store, local day and dimension (store, staff, category, tender) key: receipts, units, gross, refunds, tax and cost as the line facts of report_sales_by, refunds on their own day. Maintained by triggers (ADR 0163). Owners and managers read the stores they may use; nobody writes through the API.';
grant select on table public.sales_daily_breakdown to authenticated;
grant select on table public.sales_daily_breakdown to service_role;

create table public.sales_monthly_breakdown (
  business_id uuid not null,
  store_id uuid not null,
  month date not null,
  dimension text not null,
  key text not null,
  days bigint default 0 not null,
  receipts bigint default 0 not null,
  units numeric default 0 not null,
  gross bigint default 0 not null,
  refunds bigint default 0 not null,
  tax bigint default 0 not null,
  cost bigint default 0 not null,
  constraint sales_monthly_breakdown_pkey primary key (store_id, month, dimension, key),
  constraint sales_monthly_breakdown_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade
);
alter table public.sales_monthly_breakdown enable row level security;
comment on table public.sales_monthly_breakdown is 'Per store, month and dimension key: the sums of sales_daily_breakdown (days: its rows behind this one). Maintained by triggers on sales_daily_breakdown (ADR 0163). Owners and managers read the stores they may use; nobody writes through the API.';
grant select on table public.sales_monthly_breakdown to authenticated;
grant select on table public.sales_monthly_breakdown to service_role;

create table public.stock_pairs (
  business_id uuid not null,
  store_id uuid not null,
  variant_id uuid not null,
  on_hand numeric default 0 not null,
  last_sale_at timestamp with time zone,
  last_sale_day date,
  value numeric default 0 not null,
  constraint stock_pairs_pkey primary key (store_id, variant_id),
  constraint stock_pairs_store_id_fkey foreign key (store_id) references public.stores(id) on delete cascade,
  constraint stock_pairs_variant_id_fkey foreign key (variant_id) references public.variants(id) on delete cascade
);
alter table public.stock_pairs enable row level security;
comment on table public.stock_pairs is 'Per store and variant: on hand (sum of the ledger), last sale (instant, local day) and value at cost. Maintained by triggers in the writing transaction (ADR 0166); owners and managers read the stores they may use; nobody writes through the API.';
grant select on table public.stock_pairs to authenticated;
grant select on table public.stock_pairs to service_role;

create table public.sale_reviews (
  sale_id uuid not null,
  business_id uuid not null,
  store_id uuid not null,
  note text not null,
  reviewed_by uuid,
  reviewed_at timestamp with time zone default now() not null,
  constraint sale_reviews_pkey primary key (sale_id),
  constraint sale_reviews_note_check check (((char_length(btrim(note)) >= 1) and (char_length(btrim(note)) <= 500))),
  constraint sale_reviews_reviewed_by_fkey foreign key (reviewed_by) references auth.users(id) on delete set null,
  constraint sale_reviews_sale_id_business_id_fkey foreign key (sale_id, business_id) references public.sales(id, business_id) on delete cascade
);
alter table public.sale_reviews enable row level security;
comment on table public.sale_reviews is 'One review per flagged sale. Owners and managers of the store read; written only by public.review_sale.';
grant select on table public.sale_reviews to authenticated;
grant select on table public.sale_reviews to service_role;

create table public.shift_reviews (
  shift_id uuid not null,
  business_id uuid not null,
  store_id uuid not null,
  reason text not null,
  reviewed_by uuid,
  reviewed_at timestamp with time zone default now() not null,
  constraint shift_reviews_pkey primary key (shift_id),
  constraint shift_reviews_reason_check check (((char_length(btrim(reason)) >= 3) and (char_length(btrim(reason)) <= 500))),
  constraint shift_reviews_reviewed_by_fkey foreign key (reviewed_by) references auth.users(id) on delete set null,
  constraint shift_reviews_shift_id_business_id_fkey foreign key (shift_id, business_id) references public.shifts(id, business_id) on delete cascade
);
alter table public.shift_reviews enable row level security;
comment on table public.shift_reviews is 'One review per shift opened in conflict (open_shift from the offline outbox while another shift was open). Owners and managers of the store read; written only by public.review_shift.';
grant select on table public.shift_reviews to authenticated;
grant select on table public.shift_reviews to service_role;

-- ==== Indexes =============================================================================================

create index sales_daily_business_day_idx on public.sales_daily (business_id, day);

create index sales_daily_store_business_idx on public.sales_daily (store_id, business_id);

create index sales_daily_tax_business_day_idx on public.sales_daily_tax (business_id, day);

create index sales_daily_tax_store_business_idx on public.sales_daily_tax (store_id, business_id);

create index sales_daily_variant_business_day_idx on public.sales_daily_variant (business_id, day);

create index sales_daily_variant_store_business_idx on public.sales_daily_variant (store_id, business_id);

create index sales_daily_variant_variant_idx on public.sales_daily_variant (variant_id);

create index sale_reviews_business_reviewed_idx on public.sale_reviews (business_id, reviewed_at desc);

-- The foreign keys' indexes (deleting a sale or a user finds its reviews without a scan).
create index sale_reviews_sale_business_idx on public.sale_reviews (sale_id, business_id);

create index sale_reviews_reviewed_by_idx on public.sale_reviews (reviewed_by);

create index sales_monthly_variant_rank_idx on public.sales_monthly_variant (store_id, month, revenue_bound desc);

create index sales_monthly_variant_store_business_idx on public.sales_monthly_variant (store_id, business_id);

create index sales_monthly_variant_variant_idx on public.sales_monthly_variant (variant_id, month);

create index sales_monthly_variant_business_idx on public.sales_monthly_variant (business_id, month);

create index sales_monthly_variant_business_rank_idx
  on public.sales_monthly_variant_business (business_id, month, revenue_bound desc);

create index sales_monthly_variant_business_variant_idx on public.sales_monthly_variant_business (variant_id, month);

-- The page's figures read a variant's days in a range (the daily summary had variant_id alone).
create index if not exists sales_daily_variant_variant_day_idx on public.sales_daily_variant (variant_id, day);

create index stock_movements_daily_business_day_idx on public.stock_movements_daily (business_id, day);

create index inventory_value_business_idx on public.inventory_value (business_id);

create index shift_totals_business_idx on public.shift_totals (business_id);

create index shift_totals_store_idx on public.shift_totals (store_id);

create index sales_daily_breakdown_business_idx on public.sales_daily_breakdown (business_id, dimension, day);

create index sales_daily_breakdown_store_business_idx on public.sales_daily_breakdown (store_id, business_id);

create index sales_monthly_breakdown_business_idx on public.sales_monthly_breakdown (business_id, dimension, month);

create index sales_monthly_breakdown_store_business_idx on public.sales_monthly_breakdown (store_id, business_id);

create index stock_pairs_variant_idx on public.stock_pairs (variant_id);

-- Slow movers' order (never sold first, then the oldest last sale, then the highest value), pairs on hand only.
create index stock_pairs_slow_idx on public.stock_pairs (store_id, last_sale_day nulls first, value desc)
  where on_hand > 0;

create index shift_reviews_business_reviewed_idx on public.shift_reviews (business_id, reviewed_at desc);

-- The foreign keys' indexes (deleting a shift or a user finds its review without a scan).
create index shift_reviews_shift_business_idx on public.shift_reviews (shift_id, business_id);

create index shift_reviews_reviewed_by_idx on public.shift_reviews (reviewed_by);

-- A month's variants by units, per store (the lists of A).
create index sales_monthly_variant_units_idx on public.sales_monthly_variant (store_id, month, units desc);

create index stock_pairs_on_hand_idx on public.stock_pairs (store_id, on_hand);

-- One store's days of one variant in a single index range (issue 32, ADR 0438).
--
-- Sell-through reads the exact units of each candidate (store, variant) pair over the range, and the per-store best
-- and worst sellers read each candidate variant's days in one store. sales_daily_variant had (store_id, day,
-- variant_id) and (variant_id, day): the planner took the second and read the variant's rows in every store. At
-- 10,000,000 sale lines over 100 stores that is about 600 rows read and dropped per pair for 30 days; sell-through
-- best 50 over 30 days read 1,700,000 index entries for 2,856 pairs (4-5 s). With (store_id, variant_id, day) each
-- pair is about 7 rows. The index carries what those sums and the policy read (ADR 0441), so they never visit the
-- table: 980 against 725 MB at that size.
create index sales_daily_variant_pair_day_idx on public.sales_daily_variant (store_id, variant_id, day)
  include (business_id, lines, units, revenue);

-- ---------------------------------------------------------------------------------------------------
-- Best and worst sellers (ADR 0151), unchanged in what they return:
-- * A manager's candidates are checked against their stores' monthly bounds one variant at a time; the index on
--   (variant, month) read every store's rows of the variant and dropped the other stores' (10 stores: 5 rows read
--   for 1 kept with two stores). With the store second, each check reads its stores' months only, from the index.
-- * It also carries units and revenue, so sell-through's whole months of a pair are read from the index alone
--   (ADR 0441).
create index sales_monthly_variant_variant_store_idx
  on public.sales_monthly_variant (variant_id, store_id, month) include (business_id, revenue_bound, units, revenue);

-- Sell-through's lists of one month over every store (private.monthly_pairs_top), read from the index alone.
create index sales_monthly_variant_business_units_idx
  on public.sales_monthly_variant (business_id, month, units desc) include (store_id, variant_id);

-- ==== Functions ===========================================================================================

create or replace function private.report_args(_business_id uuid, _from date, _to date, _grain text)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if _from is null or _to is null or _from > _to then
    raise exception 'the date range needs a start on or before its end' using errcode = '22023';
  end if;
  if _to - _from > 731 then
    raise exception 'the date range is limited to two years' using errcode = '22023';
  end if;
  if _grain is not null and _grain not in ('day', 'week', 'month') then
    raise exception 'grain must be day, week or month' using errcode = '22023';
  end if;
end;
$$;
revoke all on function private.report_args(uuid,date,date,text) from public;
grant execute on function private.report_args(uuid,date,date,text) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The sales a rebuild covers: a whole business (_stores null) or the given (store, local day) pairs. A function
-- rather than a temporary table, so plpgsql_check (supabase db lint) can check the statements that read it.
create or replace function private.sales_summary_scope(_business_id uuid, _stores uuid[], _days date[])
returns table (sale_id uuid, business_id uuid, store_id uuid, day date)
language sql
stable
security definer
set search_path = ''
as $$
  select s.id, s.business_id, s.store_id, (s.occurred_at at time zone st.time_zone)::date
    from public.sales s join public.stores st on st.id = s.store_id
   where _stores is null and s.business_id = _business_id
  union all
  select s.id, s.business_id, s.store_id, k.day
    from (select distinct u.store_id, u.day from unnest(_stores, _days) as u (store_id, day)
           where u.store_id is not null and u.day is not null) k
    join public.stores st on st.id = k.store_id
    join public.sales s on s.store_id = k.store_id and s.business_id = st.business_id
                       and s.occurred_at >= (k.day::timestamp at time zone st.time_zone)
                       and s.occurred_at < ((k.day + 1)::timestamp at time zone st.time_zone)
   where _stores is not null;
$$;
revoke all on function private.sales_summary_scope(uuid,uuid[],date[]) from public;

create or replace function private.sales_summaries_sales_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.sales_daily as d (business_id, store_id, day, receipts, gross, discounts, tax)
  select n.business_id, n.store_id, (n.occurred_at at time zone st.time_zone)::date, count(*), sum(n.total),
         sum(n.discount_total), sum(n.tax_total)
    from new_rows n join public.stores st on st.id = n.store_id
   group by 1, 2, 3
  on conflict (store_id, day) do update
    set receipts = d.receipts + excluded.receipts, gross = d.gross + excluded.gross,
        discounts = d.discounts + excluded.discounts, tax = d.tax + excluded.tax;
  return null;
end;
$$;
revoke all on function private.sales_summaries_sales_inserted() from public;

create or replace function private.sales_summaries_lines_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- One statement (data-modifying CTEs): no temporary table per posting.
  with n as materialized (
    select s.business_id, s.store_id, (s.occurred_at at time zone st.time_zone)::date as day, l.variant_id,
           l.description, l.qty, l.line_total - l.tax_amount as revenue, l.tax_amount, l.tax_rate
      from new_rows l
      join public.sales s on s.id = l.sale_id
      join public.stores st on st.id = s.store_id
  ), per_day as (
    insert into public.sales_daily as d (business_id, store_id, day, lines, units, revenue, lines_without_cost)
    select business_id, store_id, day, count(*), sum(qty), sum(revenue), count(*)
      from n group by 1, 2, 3
    on conflict (store_id, day) do update
      set lines = d.lines + excluded.lines, units = d.units + excluded.units, revenue = d.revenue + excluded.revenue,
          lines_without_cost = d.lines_without_cost + excluded.lines_without_cost
    returning 1
  ), per_rate as (
    insert into public.sales_daily_tax as d (business_id, store_id, day, tax_rate, lines, taxable, tax)
    select business_id, store_id, day, tax_rate, count(*), sum(revenue), sum(tax_amount)
      from n group by 1, 2, 3, 4
    on conflict (store_id, day, tax_rate) do update
      set lines = d.lines + excluded.lines, taxable = d.taxable + excluded.taxable, tax = d.tax + excluded.tax
    returning 1
  )
  insert into public.sales_daily_variant as d (business_id, store_id, day, variant_id, description, lines, units,
                                               revenue, lines_without_cost)
  select business_id, store_id, day, variant_id, max(description), count(*), sum(qty), sum(revenue), count(*)
    from n group by 1, 2, 3, 4
  on conflict (store_id, day, variant_id) do update
    set description = greatest(d.description, excluded.description), lines = d.lines + excluded.lines,
        units = d.units + excluded.units, revenue = d.revenue + excluded.revenue,
        lines_without_cost = d.lines_without_cost + excluded.lines_without_cost;
  return null;
end;
$$;
revoke all on function private.sales_summaries_lines_inserted() from public;

-- Refunds: inserted and updated (post_refund writes the total after its lines) as signed deltas of old and new.
create or replace function private.sales_summaries_refunds_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.sales_daily as d (business_id, store_id, day, refunds, refund_count)
    select n.business_id, n.store_id, (n.occurred_at at time zone st.time_zone)::date, sum(n.total), count(*)
      from new_rows n join public.stores st on st.id = n.store_id
     group by 1, 2, 3
    on conflict (store_id, day) do update
      set refunds = d.refunds + excluded.refunds, refund_count = d.refund_count + excluded.refund_count;
  elsif tg_op = 'UPDATE' then
    insert into public.sales_daily as d (business_id, store_id, day, refunds, refund_count)
    select x.business_id, x.store_id, x.day, sum(x.total), sum(x.n)
      from (select n.business_id, n.store_id, (n.occurred_at at time zone st.time_zone)::date as day, n.total, 1 as n
              from new_rows n join public.stores st on st.id = n.store_id
            union all
            select o.business_id, o.store_id, (o.occurred_at at time zone st.time_zone)::date, -o.total, -1
              from old_rows o join public.stores st on st.id = o.store_id) x
     group by 1, 2, 3
    having sum(x.total) <> 0 or sum(x.n) <> 0
    on conflict (store_id, day) do update
      set refunds = d.refunds + excluded.refunds, refund_count = d.refund_count + excluded.refund_count;
  else
    perform private.compute_sales_summaries(null, array_agg(o.store_id), array_agg((o.occurred_at at time zone st.time_zone)::date))
       from old_rows o join public.stores st on st.id = o.store_id;
  end if;
  return null;
end;
$$;
revoke all on function private.sales_summaries_refunds_changed() from public;

-- Sales moved to another day, store or total, or deleted (a business or store going away, a test's cleanup):
-- rebuild the (store, day) rows of the old and new positions from the raw rows.
create or replace function private.sales_summaries_sales_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_stores uuid[];
  v_days date[];
begin
  if tg_op = 'UPDATE' then
    select array_agg(k.store_id), array_agg(k.day) into v_stores, v_days
      from (select o.store_id, (o.occurred_at at time zone st.time_zone)::date as day
              from old_rows o join new_rows n on n.id = o.id join public.stores st on st.id = o.store_id
             where (o.store_id, o.occurred_at, o.total, o.discount_total, o.tax_total)
                   is distinct from (n.store_id, n.occurred_at, n.total, n.discount_total, n.tax_total)
            union
            select n.store_id, (n.occurred_at at time zone st.time_zone)::date
              from old_rows o join new_rows n on n.id = o.id join public.stores st on st.id = n.store_id
             where (o.store_id, o.occurred_at, o.total, o.discount_total, o.tax_total)
                   is distinct from (n.store_id, n.occurred_at, n.total, n.discount_total, n.tax_total)) k;
  else
    select array_agg(o.store_id), array_agg((o.occurred_at at time zone st.time_zone)::date) into v_stores, v_days
      from old_rows o join public.stores st on st.id = o.store_id;
  end if;
  if v_stores is not null then
    perform private.compute_sales_summaries(null, v_stores, v_days);
  end if;
  return null;
end;
$$;
revoke all on function private.sales_summaries_sales_changed() from public;

-- A store's new time zone moves every sale to another local day: rebuild its business.
create or replace function private.sales_summaries_time_zone_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.time_zone is distinct from old.time_zone then
    perform private.compute_sales_summaries(new.business_id, null, null);
  end if;
  return null;
end;
$$;
revoke all on function private.sales_summaries_time_zone_changed() from public;

create or replace function public.report_sales(_business_id uuid, _from date, _to date, _grain text default 'day',
                                               _store_id uuid default null)
returns table (period date, store_id uuid, receipts bigint, units numeric, gross bigint, discounts bigint,
               tax bigint, net bigint, refunds bigint)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
set plan_cache_mode = force_custom_plan
as $$
begin
  perform private.report_args(_business_id, _from, _to, _grain);
  return query
    select date_trunc(_grain, d.day)::date, d.store_id, sum(d.receipts)::bigint, sum(d.units),
           sum(d.gross)::bigint, sum(d.discounts)::bigint, sum(d.tax)::bigint, sum(d.gross - d.tax)::bigint,
           sum(d.refunds)::bigint
      from public.sales_daily d
     where d.business_id = _business_id
       and (_store_id is null or d.store_id = _store_id)
       and d.day between _from and _to
     group by 1, 2
    having sum(d.receipts) > 0 or sum(d.refund_count) > 0
     order by 1, 2;
end;
$$;
comment on function public.report_sales(uuid,date,date,text,uuid) is 'Owners and managers (42501 otherwise; RLS limits managers to their stores): sales per local day/week/month and store in minor units, refunds apart. _from.._to inclusive local dates, at most two years.';
revoke all on function public.report_sales(uuid,date,date,text,uuid) from public;
grant execute on function public.report_sales(uuid,date,date,text,uuid) to authenticated;

create or replace function public.report_taxes(_business_id uuid, _from date, _to date, _store_id uuid default null)
returns table (store_id uuid, tax_rate numeric, lines bigint, taxable bigint, tax bigint)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
set plan_cache_mode = force_custom_plan
as $$
begin
  perform private.report_args(_business_id, _from, _to, null);
  return query
    select d.store_id, d.tax_rate, sum(d.lines)::bigint, sum(d.taxable)::bigint, sum(d.tax)::bigint
      from public.sales_daily_tax d
     where d.business_id = _business_id
       and (_store_id is null or d.store_id = _store_id)
       and d.day between _from and _to
     group by 1, 2
    having sum(d.lines) > 0
     order by 1, 2;
end;
$$;
comment on function public.report_taxes(uuid,date,date,uuid) is 'Owners and managers only (42501 otherwise): taxable amount (net of tax) and tax collected per store and rate.';
revoke all on function public.report_taxes(uuid,date,date,uuid) from public;
grant execute on function public.report_taxes(uuid,date,date,uuid) to authenticated;

-- Names of the business's members for the staff breakdown and the Z reports (business_team asserts the role).
create or replace function private.member_names(_business_id uuid)
returns table (user_id uuid, name text)
language sql
stable
security invoker
set search_path = ''
as $$
  select t.user_id, coalesce(nullif(btrim(t.full_name), ''), t.email) from public.business_team(_business_id) t;
$$;
revoke all on function private.member_names(uuid) from public;
grant execute on function private.member_names(uuid) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The flagged sales of a business (optionally one store), newest first, without or with those already reviewed.
-- Security invoker: row level security on sales and sale_reviews limits a manager to their stores.
create or replace function public.flagged_sales(_business_id uuid, _store_id uuid default null,
                                                _include_reviewed boolean default false,
                                                _limit integer default 50, _offset integer default 0)
returns table (sale_id uuid, store_id uuid, store_name text, receipt_number text, cashier_name text,
               occurred_at timestamptz, recorded_at timestamptz, total bigint, currency text, offline boolean,
               review_reasons text[], reviewed_at timestamptz, reviewer_name text, note text, total_count bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if _limit is null or _limit < 1 or _limit > 200 or _offset is null or _offset < 0 then
    raise exception 'ask for 1 to 200 sales from offset 0 or more' using errcode = '22023';
  end if;
  return query
    select s.id, s.store_id, st.name::text, s.receipt_number, n.name, s.occurred_at, s.recorded_at, s.total,
           s.currency::text, s.offline, s.review_reasons, r.reviewed_at, rn.name, r.note,
           count(*) over ()
      from public.sales s
      join public.stores st on st.id = s.store_id
      left join public.sale_reviews r on r.sale_id = s.id
      left join private.member_names(_business_id) n on n.user_id = s.cashier_id
      left join private.member_names(_business_id) rn on rn.user_id = r.reviewed_by
     where s.business_id = _business_id
       and s.flagged_for_review
       and (_store_id is null or s.store_id = _store_id)
       and (_include_reviewed or r.sale_id is null)
     order by s.occurred_at desc, s.id
     limit _limit offset _offset;
end;
$$;
revoke all on function public.flagged_sales(uuid,uuid,boolean,integer,integer) from public;
grant execute on function public.flagged_sales(uuid,uuid,boolean,integer,integer) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Maintenance: signed deltas of the daily rows a statement inserted, updated or deleted. Inserts and updates
-- upsert; deletions only update existing rows (a store or business being deleted cascades to these tables first,
-- and an insert would then point at a row that is going away), then rows without days are removed.
-- Inserted daily rows: add them.
create or replace function private.variant_rollups_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  with g as materialized (
    select n.business_id, n.store_id, date_trunc('month', n.day::timestamp)::date as month, n.variant_id,
           count(*) as days, sum(n.units) as units, sum(n.revenue) as revenue, sum(greatest(n.revenue, 0)) as bound,
           sum(n.cost) as cost
      from new_rows n group by 1, 2, 3, 4
  ),
    per_store as (
      insert into public.sales_monthly_variant as m (business_id, store_id, month, variant_id, days, units, revenue,
                                                     revenue_bound, cost)
      select business_id, store_id, month, variant_id, days, units, revenue, bound, cost from g
      on conflict (store_id, month, variant_id) do update
        set days = m.days + excluded.days, units = m.units + excluded.units, revenue = m.revenue + excluded.revenue,
            revenue_bound = m.revenue_bound + excluded.revenue_bound, cost = m.cost + excluded.cost
      returning 1
    )
    insert into public.sales_monthly_variant_business as m (business_id, month, variant_id, days, units, revenue,
                                                            revenue_bound, cost)
    select business_id, month, variant_id, sum(days), sum(units), sum(revenue), sum(bound), sum(cost)
      from g group by 1, 2, 3
    on conflict (business_id, month, variant_id) do update
      set days = m.days + excluded.days, units = m.units + excluded.units, revenue = m.revenue + excluded.revenue,
          revenue_bound = m.revenue_bound + excluded.revenue_bound, cost = m.cost + excluded.cost;
  return null;
end;
$$;
revoke all on function private.variant_rollups_inserted() from public;

-- Updated daily rows (a sale line or its cost added to an existing day): add the new values, subtract the old.
create or replace function private.variant_rollups_updated()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  with x as (
    select n.business_id, n.store_id, date_trunc('month', n.day::timestamp)::date as month, n.variant_id, 1 as days,
           n.units, n.revenue, greatest(n.revenue, 0) as bound, n.cost
      from new_rows n
    union all
    select o.business_id, o.store_id, date_trunc('month', o.day::timestamp)::date, o.variant_id, -1, -o.units,
           -o.revenue, -greatest(o.revenue, 0), -o.cost
      from old_rows o
  ), g as materialized (
    select business_id, store_id, month, variant_id, sum(days) as days, sum(units) as units, sum(revenue) as revenue,
           sum(bound) as bound, sum(cost) as cost
      from x group by 1, 2, 3, 4
    having sum(days) <> 0 or sum(units) <> 0 or sum(revenue) <> 0 or sum(bound) <> 0 or sum(cost) <> 0
  ),
    per_store as (
      insert into public.sales_monthly_variant as m (business_id, store_id, month, variant_id, days, units, revenue,
                                                     revenue_bound, cost)
      select business_id, store_id, month, variant_id, days, units, revenue, bound, cost from g
      on conflict (store_id, month, variant_id) do update
        set days = m.days + excluded.days, units = m.units + excluded.units, revenue = m.revenue + excluded.revenue,
            revenue_bound = m.revenue_bound + excluded.revenue_bound, cost = m.cost + excluded.cost
      returning 1
    )
    insert into public.sales_monthly_variant_business as m (business_id, month, variant_id, days, units, revenue,
                                                            revenue_bound, cost)
    select business_id, month, variant_id, sum(days), sum(units), sum(revenue), sum(bound), sum(cost)
      from g group by 1, 2, 3
    on conflict (business_id, month, variant_id) do update
      set days = m.days + excluded.days, units = m.units + excluded.units, revenue = m.revenue + excluded.revenue,
          revenue_bound = m.revenue_bound + excluded.revenue_bound, cost = m.cost + excluded.cost;
  -- A row moved to another store, month or variant leaves its old cell empty.
  delete from public.sales_monthly_variant m
   using (select distinct o.store_id, date_trunc('month', o.day::timestamp)::date as month, o.variant_id from old_rows o) k
   where m.store_id = k.store_id and m.month = k.month and m.variant_id = k.variant_id and m.days = 0;
  delete from public.sales_monthly_variant_business m
   using (select distinct o.business_id, date_trunc('month', o.day::timestamp)::date as month, o.variant_id from old_rows o) k
   where m.business_id = k.business_id and m.month = k.month and m.variant_id = k.variant_id and m.days = 0;
  return null;
end;
$$;
revoke all on function private.variant_rollups_updated() from public;

-- Deleted daily rows (a rebuild of a store's day, a sale deleted): subtract from existing rows only (a store or
-- business being deleted may have cascaded here first), then drop the rows left without days.
create or replace function private.variant_rollups_deleted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  with g as materialized (
    select o.business_id, o.store_id, date_trunc('month', o.day::timestamp)::date as month, o.variant_id,
           count(*) as days, sum(o.units) as units, sum(o.revenue) as revenue, sum(greatest(o.revenue, 0)) as bound,
           sum(o.cost) as cost
      from old_rows o group by 1, 2, 3, 4
  ), per_store as (
    update public.sales_monthly_variant m
       set days = m.days - g.days, units = m.units - g.units, revenue = m.revenue - g.revenue,
           revenue_bound = m.revenue_bound - g.bound, cost = m.cost - g.cost
      from g
     where m.store_id = g.store_id and m.month = g.month and m.variant_id = g.variant_id
    returning 1
  )
  update public.sales_monthly_variant_business m
     set days = m.days - b.days, units = m.units - b.units, revenue = m.revenue - b.revenue,
         revenue_bound = m.revenue_bound - b.bound, cost = m.cost - b.cost
    from (select business_id, month, variant_id, sum(days) as days, sum(units) as units, sum(revenue) as revenue,
                 sum(bound) as bound, sum(cost) as cost
            from g group by 1, 2, 3) b
   where m.business_id = b.business_id and m.month = b.month and m.variant_id = b.variant_id;
  delete from public.sales_monthly_variant m
   using (select distinct o.store_id, date_trunc('month', o.day::timestamp)::date as month, o.variant_id from old_rows o) k
   where m.store_id = k.store_id and m.month = k.month and m.variant_id = k.variant_id and m.days = 0;
  delete from public.sales_monthly_variant_business m
   using (select distinct o.business_id, date_trunc('month', o.day::timestamp)::date as month, o.variant_id from old_rows o) k
   where m.business_id = k.business_id and m.month = k.month and m.variant_id = k.variant_id and m.days = 0;
  return null;
end;
$$;
revoke all on function private.variant_rollups_deleted() from public;

-- Rebuild a business's rollups from its daily rows (refresh_sales_summaries; a repair tool).
create or replace function private.rebuild_variant_rollups(_business_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.sales_monthly_variant m where m.business_id = _business_id;
  delete from public.sales_monthly_variant_business m where m.business_id = _business_id;
  insert into public.sales_monthly_variant (business_id, store_id, month, variant_id, days, units, revenue,
                                            revenue_bound, cost)
  select d.business_id, d.store_id, date_trunc('month', d.day::timestamp)::date, d.variant_id, count(*), sum(d.units),
         sum(d.revenue), sum(greatest(d.revenue, 0)), sum(d.cost)
    from public.sales_daily_variant d where d.business_id = _business_id
   group by 1, 2, 3, 4;
  insert into public.sales_monthly_variant_business (business_id, month, variant_id, days, units, revenue,
                                                     revenue_bound, cost)
  select m.business_id, m.month, m.variant_id, sum(m.days), sum(m.units), sum(m.revenue), sum(m.revenue_bound),
         sum(m.cost)
    from public.sales_monthly_variant m where m.business_id = _business_id
   group by 1, 2, 3;
end;
$$;
revoke all on function private.rebuild_variant_rollups(uuid) from public;

-- Same signature as in 20261123140100; now also rebuilds the rollups, so a bulk load made with triggers off
-- (session_replication_role = replica) ends with them equal to the daily rows too.
create or replace function private.refresh_sales_summaries(_business_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.compute_sales_summaries(_business_id, null, null);
  perform private.rebuild_variant_rollups(_business_id);
end;
$$;
revoke all on function private.refresh_sales_summaries(uuid) from public;

-- The _limit best sellers by revenue (ties by variant id), exact, without summing every variant of the range.
-- Cells: the months covering the range, per visible store unless the all-stores table serves the caller.
-- 1. seed: the _limit rows of highest revenue_bound of each cell (an index range each);
-- 2. theta: the _limit-th highest exact revenue among the seed;
-- 3. a variant whose revenue reaches theta has bounds summing to at least theta over its cells, so at least one
--    cell with revenue_bound >= theta / cells: those index ranges are the candidates;
-- 4. candidates whose bounds summed over the range's cells (one index range per variant) stay under theta are
--    dropped; the rest are summed exactly over the range and ranked.
-- (A threshold-algorithm walk down the sorted cells was tried: on the generated year, where a single line of an
-- expensive item outweighs most monthly totals of a store, it had to read thousands of rows per cell.)
create or replace function private.top_sellers(_business_id uuid, _from date, _to date, _store_id uuid, _limit int)
returns table (variant_id uuid, revenue numeric, units numeric, cost numeric)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
as $$
#variable_conflict use_column
declare
  v_all boolean := _store_id is null and _business_id in (select private.my_full_access_business_ids());
  v_first date := date_trunc('month', _from::timestamp)::date;
  v_last date := date_trunc('month', _to::timestamp)::date;
  v_months date[] := array(select generate_series(v_first::timestamp, v_last::timestamp, interval '1 month')::date);
  -- Per-store cells: the stores whose rows the caller can read (all when full access), or the one asked for.
  v_stores uuid[] := case when v_all then null else array(
                       select st.id from public.stores st
                        where st.business_id = _business_id and (_store_id is null or st.id = _store_id)
                          and (_business_id in (select private.my_full_access_business_ids())
                               or st.id in (select private.my_listed_store_ids()))) end;
  v_cells int;
  v_seed uuid[];
  v_theta numeric;
  v_min bigint;
  v_candidates uuid[];
begin
  v_cells := cardinality(v_months) * case when v_all then 1 else greatest(cardinality(v_stores), 1) end;
  if v_all then
    v_seed := array(select distinct r.variant_id from unnest(v_months) as mo (month)
                     cross join lateral (select m.variant_id from public.sales_monthly_variant_business m
                                          where m.business_id = _business_id and m.month = mo.month
                                          order by m.revenue_bound desc limit _limit) r);
  else
    v_seed := array(select distinct r.variant_id from unnest(v_months) as mo (month) cross join unnest(v_stores) as s (id)
                     cross join lateral (select m.variant_id from public.sales_monthly_variant m
                                          where m.store_id = s.id and m.month = mo.month and m.business_id = _business_id
                                          order by m.revenue_bound desc limit _limit) r);
  end if;
  select min(t.revenue) into v_theta
    from (select t.revenue from private.seller_totals(_business_id, _from, _to, _store_id, v_all, v_seed) t
           order by t.revenue desc limit _limit) t
   having count(*) >= _limit;
  -- revenue_bound x cells >= theta, written on the indexed column (revenue_bound is whole minor units).
  v_min := ceil(coalesce(v_theta, 0) / v_cells)::bigint;
  if v_all then
    v_candidates := array(
      select c.id
        from (select distinct m.variant_id as id from unnest(v_months) as mo (month)
                join public.sales_monthly_variant_business m
                  on m.business_id = _business_id and m.month = mo.month and m.revenue_bound >= v_min) c
       where v_theta is null
          or (select sum(m.revenue_bound) from public.sales_monthly_variant_business m
               where m.variant_id = c.id and m.business_id = _business_id
                 and m.month between v_first and v_last) >= v_theta);
  else
    v_candidates := array(
      select c.id
        from (select distinct m.variant_id as id from unnest(v_months) as mo (month) cross join unnest(v_stores) as s (id)
                join public.sales_monthly_variant m
                  on m.store_id = s.id and m.month = mo.month and m.business_id = _business_id
                 and m.revenue_bound >= v_min) c
       where v_theta is null
          or (select sum(m.revenue_bound) from public.sales_monthly_variant m
               where m.variant_id = c.id and m.business_id = _business_id and m.store_id = any (v_stores)
                 and m.month between v_first and v_last) >= v_theta);
  end if;
  return query
    select t.variant_id, t.revenue, t.units, t.cost
      from private.seller_totals(_business_id, _from, _to, _store_id, v_all, v_candidates || v_seed) t
     order by t.revenue desc, t.variant_id
     limit _limit;
end;
$$;
revoke all on function private.top_sellers(uuid,date,date,uuid,integer) from public;
grant execute on function private.top_sellers(uuid,date,date,uuid,integer) to authenticated;

-- The _limit worst sellers: first the variants on sale that did not sell at all in the range (ties by variant
-- id), then the lowest revenue among those that sold. On sale: neither the variant nor its product archived,
-- created by the end of the range, and a stock balance in a store of the scope (a product without stock tracking
-- counts everywhere). Unsold variants are found by walking the catalog in id order and probing the daily summary
-- (index on variant and day), so a year with a few unsold variants reads a few thousand index entries; only
-- when fewer than _limit are unsold does the range's revenue get summed per variant.
create or replace function private.worst_sellers(_business_id uuid, _from date, _to date, _store_id uuid, _limit int)
returns table (variant_id uuid, revenue numeric, units numeric, cost numeric, unsold boolean)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
as $$
#variable_conflict use_column
declare
  v_unsold uuid[];
begin
  v_unsold := array(
    select v.id from public.variants v
      join public.products p on p.id = v.product_id
     where v.business_id = _business_id and v.archived_at is null and p.archived_at is null
       and v.created_at < ((_to + 1)::timestamp at time zone 'UTC')
       and (not p.track_stock or exists (
             select 1 from public.stock_balances b
              where b.variant_id = v.id and b.business_id = _business_id
                and (_store_id is null or b.store_id = _store_id)))
       and not exists (
             select 1 from public.sales_daily_variant d
              where d.variant_id = v.id and d.day between _from and _to and d.business_id = _business_id
                and (_store_id is null or d.store_id = _store_id))
     order by v.id
     limit _limit);
  return query select u.id, 0::numeric, 0::numeric, 0::numeric, true from unnest(v_unsold) with ordinality as u (id, n)
                order by u.n;
  if cardinality(v_unsold) >= _limit then
    return;
  end if;
  return query
    with ranked as (
      select d.variant_id from public.sales_daily_variant d
       where d.business_id = _business_id and (_store_id is null or d.store_id = _store_id)
         and d.day between _from and _to
       group by d.variant_id
       order by sum(d.revenue), d.variant_id
       limit _limit - cardinality(v_unsold)
    )
    select t.variant_id, t.revenue, t.units, t.cost, false
      from private.seller_totals(_business_id, _from, _to, _store_id, false, array(select r.variant_id from ranked r)) t
     order by t.revenue, t.variant_id;
end;
$$;
revoke all on function private.worst_sellers(uuid,date,date,uuid,integer) from public;
grant execute on function private.worst_sellers(uuid,date,date,uuid,integer) to authenticated;

-- The first instant (UTC) that can fall on local day _from anywhere, with a day to spare.
create or replace function private.report_utc_lower(_from date)
returns timestamptz
language sql
immutable
set search_path = ''
as $$ select ((_from - 2)::timestamp at time zone 'UTC') $$;
revoke all on function private.report_utc_lower(date) from public;
grant execute on function private.report_utc_lower(date) to authenticated;

-- An instant (UTC) after every instant of local day _to anywhere, with a day to spare.
create or replace function private.report_utc_upper(_to date)
returns timestamptz
language sql
immutable
set search_path = ''
as $$ select ((_to + 3)::timestamp at time zone 'UTC') $$;
revoke all on function private.report_utc_upper(date) from public;
grant execute on function private.report_utc_upper(date) to authenticated;

create or replace function private.report_facts(_business_id uuid, _from date, _to date, _store_id uuid)
returns table (kind text, sale_id uuid, store_id uuid, staff_id uuid, category_id uuid, variant_id uuid,
               description text, local_day date, units numeric, gross bigint, tax bigint, cost numeric)
language sql
stable
security invoker
set search_path = ''
set jit = off
as $$
  select 'sale', s.id, s.store_id, s.cashier_id, p.category_id, l.variant_id, l.description,
         (s.occurred_at at time zone st.time_zone)::date, l.qty, l.line_total, l.tax_amount,
         round(l.qty * coalesce(c.unit_cost, 0))
    from public.sales s
    join public.stores st on st.id = s.store_id
    join public.sale_lines l on l.sale_id = s.id and l.business_id = s.business_id
    left join public.variants v on v.id = l.variant_id
    left join public.products p on p.id = v.product_id
    left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
   where s.business_id = _business_id
     and (_store_id is null or s.store_id = _store_id)
     and s.occurred_at >= private.report_utc_lower(_from) and s.occurred_at < private.report_utc_upper(_to)
     and (s.occurred_at at time zone st.time_zone)::date between _from and _to
  union all
  select 'refund', r.sale_id, r.store_id, r.actor_id, p.category_id, l.variant_id, l.description,
         (r.occurred_at at time zone st.time_zone)::date, -rl.qty, -rl.amount,
         -case when l.line_total = 0 then 0 else round(rl.amount::numeric * l.tax_amount / l.line_total) end::bigint,
         -case when rl.disposition = 'restock' then round(rl.qty * coalesce(c.unit_cost, 0)) else 0 end
    from public.refunds r
    join public.stores st on st.id = r.store_id
    join public.refund_lines rl on rl.refund_id = r.id and rl.business_id = r.business_id
    join public.sale_lines l on l.id = rl.sale_line_id and l.business_id = rl.business_id
    left join public.variants v on v.id = l.variant_id
    left join public.products p on p.id = v.product_id
    left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
   where r.business_id = _business_id
     and (_store_id is null or r.store_id = _store_id)
     and r.occurred_at >= private.report_utc_lower(_from) and r.occurred_at < private.report_utc_upper(_to)
     and (r.occurred_at at time zone st.time_zone)::date between _from and _to;
$$;
revoke all on function private.report_facts(uuid,date,date,uuid) from public;
grant execute on function private.report_facts(uuid,date,date,uuid) to authenticated;

-- Recomputes a store's rows (or a business's) from the ledger: the rebuild, and a store's new time zone.
create or replace function private.compute_stock_movements_daily(_business_id uuid, _store_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  delete from public.stock_movements_daily d
   where (_business_id is null or d.business_id = _business_id) and (_store_id is null or d.store_id = _store_id);
  insert into public.stock_movements_daily (business_id, store_id, day, kind, movements, units_in, units_out, cost_value)
  select m.business_id, m.store_id, (m.occurred_at at time zone st.time_zone)::date, m.kind, count(*),
         coalesce(sum(m.qty) filter (where m.qty > 0), 0), coalesce(-sum(m.qty) filter (where m.qty < 0), 0),
         sum(m.qty * coalesce(m.unit_cost, 0))
    from public.stock_movements m
    join public.stores st on st.id = m.store_id
   where (_business_id is null or m.business_id = _business_id) and (_store_id is null or m.store_id = _store_id)
   group by 1, 2, 3, 4;
$$;
revoke all on function private.compute_stock_movements_daily(uuid,uuid) from public;

create or replace function private.stock_movements_daily_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.stock_movements_daily as d (business_id, store_id, day, kind, movements, units_in, units_out,
                                                 cost_value)
  select n.business_id, n.store_id, (n.occurred_at at time zone st.time_zone)::date, n.kind, count(*),
         coalesce(sum(n.qty) filter (where n.qty > 0), 0), coalesce(-sum(n.qty) filter (where n.qty < 0), 0),
         sum(n.qty * coalesce(n.unit_cost, 0))
    from new_rows n
    join public.stores st on st.id = n.store_id
   group by 1, 2, 3, 4
  on conflict (store_id, day, kind) do update
    set movements = d.movements + excluded.movements, units_in = d.units_in + excluded.units_in,
        units_out = d.units_out + excluded.units_out, cost_value = d.cost_value + excluded.cost_value;
  return null;
end;
$$;
revoke all on function private.stock_movements_daily_inserted() from public;

create or replace function private.stock_movements_daily_time_zone_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.time_zone is distinct from old.time_zone then
    perform private.compute_stock_movements_daily(new.business_id, new.id);
  end if;
  return null;
end;
$$;
revoke all on function private.stock_movements_daily_time_zone_changed() from public;

-- Adds signed changes per (store, category). Changes for a store or business already deleted (a business's
-- cascade reaches the balances before or after the stores) are skipped.
create or replace function private.inventory_value_add(_stores uuid[], _categories uuid[], _variants bigint[],
                                                       _units numeric[], _cost numeric[], _retail numeric[],
                                                       _without_cost bigint[])
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.inventory_value as iv (business_id, store_id, category_id, variants, units, cost_value,
                                            retail_value, variants_without_cost)
  select st.business_id, x.store_id, x.category_id, sum(x.variants), sum(x.units), sum(x.cost), sum(x.retail),
         sum(x.without_cost)
    from unnest(_stores, _categories, _variants, _units, _cost, _retail, _without_cost)
           as x (store_id, category_id, variants, units, cost, retail, without_cost)
    join public.stores st on st.id = x.store_id
   where exists (select 1 from public.businesses b where b.id = st.business_id)
   group by st.business_id, x.store_id, x.category_id
  having sum(x.variants) <> 0 or sum(x.units) <> 0 or sum(x.cost) <> 0 or sum(x.retail) <> 0
      or sum(x.without_cost) <> 0
  on conflict (store_id, category_id) do update
    set variants = iv.variants + excluded.variants, units = iv.units + excluded.units,
        cost_value = iv.cost_value + excluded.cost_value, retail_value = iv.retail_value + excluded.retail_value,
        variants_without_cost = iv.variants_without_cost + excluded.variants_without_cost;
$$;
revoke all on function private.inventory_value_add(uuid[],uuid[],bigint[],numeric[],numeric[],numeric[],bigint[]) from public;

-- Stock of pairs changed by _dq each (after the change): the pair count moves when the total crosses zero.
create or replace function private.inventory_value_stock_changed(_stores uuid[], _variant_ids uuid[], _dq numeric[])
returns void
language sql
security definer
set search_path = ''
as $$
  select private.inventory_value_add(array_agg(x.store_id), array_agg(x.category_id), array_agg(x.dn),
                                     array_agg(x.dq), array_agg(x.dq * coalesce(vc.cost, 0)),
                                     array_agg(x.dq * coalesce(sp.price, x.price)),
                                     array_agg(x.dn * (vc.variant_id is null)::int::bigint))
    from (select d.store_id, d.variant_id, d.dq, v.price, coalesce(p.category_id, private.no_category()) as category_id,
                 ((q.qn <> 0)::int - ((q.qn - d.dq) <> 0)::int)::bigint as dn
            from (select u.store_id, u.variant_id, sum(u.dq) as dq
                    from unnest(_stores, _variant_ids, _dq) as u (store_id, variant_id, dq)
                   group by 1, 2 having sum(u.dq) <> 0) d
            join public.variants v on v.id = d.variant_id
            join public.products p on p.id = v.product_id
            cross join lateral (select coalesce(sum(b.qty), 0) as qn from public.stock_balances b
                                 where b.store_id = d.store_id and b.variant_id = d.variant_id) q) x
    left join public.variant_costs vc on vc.variant_id = x.variant_id
    left join public.store_prices sp on sp.store_id = x.store_id and sp.variant_id = x.variant_id;
$$;
revoke all on function private.inventory_value_stock_changed(uuid[],uuid[],numeric[]) from public;

-- The pairs with non-zero stock of the given variants, with their current cost, price and category.
create or replace function private.inventory_pairs(_variant_ids uuid[])
returns table (store_id uuid, variant_id uuid, qty numeric, cost bigint, has_cost boolean, store_price bigint,
               variant_price bigint, product_id uuid, category_id uuid)
language sql
stable
security definer
set search_path = ''
as $$
  select b.store_id, b.variant_id, b.qty, vc.cost, vc.variant_id is not null, sp.price, v.price, v.product_id,
         coalesce(p.category_id, private.no_category())
    from (select b.store_id, b.variant_id, sum(b.qty) as qty from public.stock_balances b
           where b.variant_id = any (_variant_ids) group by 1, 2 having sum(b.qty) <> 0) b
    join public.variants v on v.id = b.variant_id
    join public.products p on p.id = v.product_id
    left join public.variant_costs vc on vc.variant_id = b.variant_id
    left join public.store_prices sp on sp.store_id = b.store_id and sp.variant_id = b.variant_id;
$$;
revoke all on function private.inventory_pairs(uuid[]) from public;

-- A variant's cost set, changed or removed: value at cost and the pairs without a cost move.
create or replace function private.inventory_value_costs_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ids uuid[];
  v_old uuid[] := '{}';
  v_old_cost bigint[] := '{}';
  v_new uuid[] := '{}';
  v_new_cost bigint[] := '{}';
begin
  if tg_op in ('UPDATE', 'DELETE') then
    select array_agg(o.variant_id), array_agg(o.cost) into v_old, v_old_cost from old_rows o;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    select array_agg(n.variant_id), array_agg(n.cost) into v_new, v_new_cost from new_rows n;
  end if;
  v_ids := coalesce(v_old, '{}') || coalesce(v_new, '{}');
  -- Current state is "new": remove what the old cost gave and what the new cost gives, then add the new state
  -- (pairs without a row count at cost 0 and as without cost).
  perform private.inventory_value_add(array_agg(x.store_id), array_agg(x.category_id), array_agg(0::bigint),
                                      array_agg(0::numeric), array_agg(x.qty * (coalesce(nw.cost, 0) - coalesce(od.cost, 0))),
                                      array_agg(0::numeric),
                                      array_agg(((nw.variant_id is null)::int - (od.variant_id is null)::int)::bigint))
     from private.inventory_pairs(v_ids) x
     left join (select u.variant_id, u.cost from unnest(v_old, v_old_cost) as u (variant_id, cost)) od
       on od.variant_id = x.variant_id
     left join (select u.variant_id, u.cost from unnest(v_new, v_new_cost) as u (variant_id, cost)) nw
       on nw.variant_id = x.variant_id
    where od.variant_id is not null or nw.variant_id is not null;
  return null;
end;
$$;
revoke all on function private.inventory_value_costs_changed() from public;

-- A store price set, changed or removed: the retail value of that pair moves (no row: the variant's price).
create or replace function private.inventory_value_store_prices_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_stores uuid[] := '{}';
  v_variants uuid[] := '{}';
  v_old bigint[] := '{}';
  v_new bigint[] := '{}';
begin
  -- (store, variant, old price or null, new price or null) per changed row.
  if tg_op = 'INSERT' then
    select array_agg(n.store_id), array_agg(n.variant_id), array_agg(null::bigint), array_agg(n.price)
      into v_stores, v_variants, v_old, v_new from new_rows n;
  elsif tg_op = 'DELETE' then
    select array_agg(o.store_id), array_agg(o.variant_id), array_agg(o.price), array_agg(null::bigint)
      into v_stores, v_variants, v_old, v_new from old_rows o;
  else
    select array_agg(k.store_id), array_agg(k.variant_id), array_agg(k.old_price), array_agg(k.new_price)
      into v_stores, v_variants, v_old, v_new
      from (select coalesce(n.store_id, o.store_id) as store_id, coalesce(n.variant_id, o.variant_id) as variant_id,
                   o.price as old_price, n.price as new_price
              from new_rows n full join old_rows o on o.store_id = n.store_id and o.variant_id = n.variant_id) k;
  end if;
  perform private.inventory_value_add(array_agg(x.store_id), array_agg(x.category_id), array_agg(0::bigint),
                                      array_agg(0::numeric), array_agg(0::numeric),
                                      array_agg(x.qty * (coalesce(c.new_price, x.variant_price)
                                                         - coalesce(c.old_price, x.variant_price))),
                                      array_agg(0::bigint))
     from (select u.store_id, u.variant_id, u.old_price, u.new_price
             from unnest(v_stores, v_variants, v_old, v_new) as u (store_id, variant_id, old_price, new_price)) c
     join private.inventory_pairs(v_variants) x on x.store_id = c.store_id and x.variant_id = c.variant_id;
  return null;
end;
$$;
revoke all on function private.inventory_value_store_prices_changed() from public;

-- A variant's price or product changed: its pairs leave the old (price, category) and join the new one.
create or replace function private.inventory_value_variants_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ids uuid[] := array(select n.id from new_rows n join old_rows o on o.id = n.id
                         where (n.price, n.product_id) is distinct from (o.price, o.product_id));
begin
  if cardinality(v_ids) = 0 then
    return null;
  end if;
  perform private.inventory_value_add(array_agg(x.store_id), array_agg(x.category_id), array_agg(x.n),
                                      array_agg(x.units), array_agg(x.cost), array_agg(x.retail), array_agg(x.wc))
     from (select p.store_id, coalesce(op.category_id, private.no_category()) as category_id, -1::bigint as n,
                  -p.qty as units, -p.qty * coalesce(p.cost, 0) as cost, -p.qty * coalesce(p.store_price, o.price) as retail,
                  -(not p.has_cost)::int::bigint as wc
             from private.inventory_pairs(v_ids) p
             join old_rows o on o.id = p.variant_id
             join public.products op on op.id = o.product_id
           union all
           select p.store_id, p.category_id, 1::bigint, p.qty, p.qty * coalesce(p.cost, 0),
                  p.qty * coalesce(p.store_price, p.variant_price), (not p.has_cost)::int::bigint
             from private.inventory_pairs(v_ids) p) x;
  return null;
end;
$$;
revoke all on function private.inventory_value_variants_changed() from public;

-- A product's category changed (or its category was deleted: set null): its variants' pairs move.
create or replace function private.inventory_value_products_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ids uuid[] := array(select v.id from new_rows n join old_rows o on o.id = n.id
                          join public.variants v on v.product_id = n.id
                         where n.category_id is distinct from o.category_id);
begin
  if cardinality(v_ids) = 0 then
    return null;
  end if;
  perform private.inventory_value_add(array_agg(x.store_id), array_agg(x.category_id), array_agg(x.n),
                                      array_agg(x.units), array_agg(x.cost), array_agg(x.retail), array_agg(x.wc))
     from (select p.store_id, coalesce(o.category_id, private.no_category()) as category_id, -1::bigint as n,
                  -p.qty as units, -p.qty * coalesce(p.cost, 0) as cost,
                  -p.qty * coalesce(p.store_price, p.variant_price) as retail, -(not p.has_cost)::int::bigint as wc
             from private.inventory_pairs(v_ids) p
             join old_rows o on o.id = p.product_id
           union all
           select p.store_id, p.category_id, 1::bigint, p.qty, p.qty * coalesce(p.cost, 0),
                  p.qty * coalesce(p.store_price, p.variant_price), (not p.has_cost)::int::bigint
             from private.inventory_pairs(v_ids) p) x;
  return null;
end;
$$;
revoke all on function private.inventory_value_products_changed() from public;

-- Adds signed amounts per shift (shifts already deleted are skipped).
create or replace function private.shift_totals_add(_shifts uuid[], _sales bigint[], _gross bigint[], _cash bigint[],
                                                    _card bigint[], _other bigint[], _refunds bigint[],
                                                    _cash_refunds bigint[], _cash_in bigint[], _cash_out bigint[])
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.shift_totals as t (shift_id, business_id, store_id, sales_count, gross, cash, card, other, refunds,
                                        cash_refunds, cash_in, cash_out)
  select x.shift_id, sh.business_id, sh.store_id, sum(x.sales), sum(x.gross), sum(x.cash), sum(x.card), sum(x.other),
         sum(x.refunds), sum(x.cash_refunds), sum(x.cash_in), sum(x.cash_out)
    from unnest(_shifts, _sales, _gross, _cash, _card, _other, _refunds, _cash_refunds, _cash_in, _cash_out)
           as x (shift_id, sales, gross, cash, card, other, refunds, cash_refunds, cash_in, cash_out)
    join public.shifts sh on sh.id = x.shift_id
   group by 1, 2, 3
  on conflict (shift_id) do update
    set sales_count = t.sales_count + excluded.sales_count, gross = t.gross + excluded.gross,
        cash = t.cash + excluded.cash, card = t.card + excluded.card, other = t.other + excluded.other,
        refunds = t.refunds + excluded.refunds, cash_refunds = t.cash_refunds + excluded.cash_refunds,
        cash_in = t.cash_in + excluded.cash_in, cash_out = t.cash_out + excluded.cash_out;
$$;
revoke all on function private.shift_totals_add(uuid[],bigint[],bigint[],bigint[],bigint[],bigint[],bigint[],bigint[],bigint[],bigint[]) from public;

-- Recomputes a business's rows (or every business's) from the raw tables.
create or replace function private.compute_inventory_value(_business_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  delete from public.inventory_value iv where _business_id is null or iv.business_id = _business_id;
  insert into public.inventory_value (business_id, store_id, category_id, variants, units, cost_value, retail_value,
                                      variants_without_cost)
  select oh.business_id, oh.store_id, coalesce(p.category_id, private.no_category()), count(*), sum(oh.qty),
         sum(oh.qty * coalesce(vc.cost, 0)), sum(oh.qty * coalesce(sp.price, v.price)),
         count(*) filter (where vc.variant_id is null)
    from (select b.business_id, b.store_id, b.variant_id, sum(b.qty) as qty
            from public.stock_balances b
           where _business_id is null or b.business_id = _business_id
           group by 1, 2, 3 having sum(b.qty) <> 0) oh
    join public.variants v on v.id = oh.variant_id
    join public.products p on p.id = v.product_id
    left join public.variant_costs vc on vc.variant_id = oh.variant_id
    left join public.store_prices sp on sp.store_id = oh.store_id and sp.variant_id = oh.variant_id
   group by 1, 2, 3;
$$;
revoke all on function private.compute_inventory_value(uuid) from public;

create or replace function public.report_inventory_valuation(_business_id uuid, _store_id uuid default null)
returns table (store_id uuid, category text, variants bigint, units numeric, cost_value bigint, retail_value bigint,
               variants_without_cost bigint)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
set plan_cache_mode = force_custom_plan
as $$
#variable_conflict use_column
begin
  perform private.report_args(_business_id, current_date, current_date, null);
  -- Rows whose pairs all went back to zero stock stay with zeros (variants = 0): the raw report has no such group.
  return query
    select iv.store_id, coalesce(c.name::text, 'Uncategorised'), sum(iv.variants)::bigint, sum(iv.units),
           round(sum(iv.cost_value))::bigint, round(sum(iv.retail_value))::bigint,
           sum(iv.variants_without_cost)::bigint
      from public.inventory_value iv
      left join public.categories c on c.id = iv.category_id
     where iv.business_id = _business_id and (_store_id is null or iv.store_id = _store_id) and iv.variants <> 0
     group by 1, 2
     order by 1, 2;
end;
$$;
comment on function public.report_inventory_valuation(uuid,uuid) is 'Owners and managers only: stock on hand now per store and category, at cost and at retail, in minor units (from public.inventory_value).';
revoke all on function public.report_inventory_valuation(uuid,uuid) from public;
grant execute on function public.report_inventory_valuation(uuid,uuid) to authenticated;

create or replace function public.report_stock_movements(_business_id uuid, _from date, _to date,
                                                         _grain text default 'day', _store_id uuid default null)
returns table (period date, store_id uuid, kind text, movements bigint, units_in numeric, units_out numeric,
               cost_value bigint)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
set plan_cache_mode = force_custom_plan
as $$
#variable_conflict use_column
begin
  perform private.report_args(_business_id, _from, _to, coalesce(_grain, 'day'));
  return query
    select date_trunc(coalesce(_grain, 'day'), d.day)::date, d.store_id, d.kind, sum(d.movements)::bigint,
           sum(d.units_in), sum(d.units_out), round(sum(d.cost_value))::bigint
      from public.stock_movements_daily d
     where d.business_id = _business_id
       and (_store_id is null or d.store_id = _store_id)
       and d.day between _from and _to
     group by 1, 2, 3
     order by 1, 2, 3;
end;
$$;
comment on function public.report_stock_movements(uuid,date,date,text,uuid) is 'Owners and managers only: ledger movements per local day/week/month, store and kind with units in, out and value at the recorded unit cost (from public.stock_movements_daily).';
revoke all on function public.report_stock_movements(uuid,date,date,text,uuid) from public;
grant execute on function public.report_stock_movements(uuid,date,date,text,uuid) to authenticated;

-- Z reports: the range's shifts (by the UTC range around the local days, then the exact local day) with their
-- maintained totals (public.shift_totals); member names read once. The shift id breaks ties of time and register
-- name (two stores' registers of the same name opened at the same time came in any order).
create or replace function public.report_shifts(_business_id uuid, _from date, _to date, _store_id uuid default null)
returns table (shift_id uuid, store_id uuid, register_id uuid, register_name text, cashier_id uuid, cashier_name text,
               opened_at timestamptz, closed_at timestamptz, opening_float bigint, sales_count bigint, gross bigint,
               cash bigint, card bigint, other bigint, refunds bigint, cash_refunds bigint, cash_in bigint,
               cash_out bigint, expected_cash bigint, counted_total bigint, over_short bigint)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
set plan_cache_mode = force_custom_plan
as $$
#variable_conflict use_column
begin
  perform private.report_args(_business_id, _from, _to, null);
  return query
    with names as materialized (select m.user_id, m.name from private.member_names(_business_id) m)
    select sh.id, sh.store_id, sh.register_id, rg.name::text, sh.cashier_id, coalesce(nm.name, 'Former member'),
           sh.opened_at, sh.closed_at, sh.opening_float, coalesce(t.sales_count, 0), coalesce(t.gross, 0),
           coalesce(t.cash, 0), coalesce(t.card, 0), coalesce(t.other, 0), coalesce(t.refunds, 0),
           coalesce(t.cash_refunds, 0), coalesce(t.cash_in, 0), coalesce(t.cash_out, 0),
           coalesce(sh.expected_cash, sh.opening_float + coalesce(t.cash, 0) - coalesce(t.cash_refunds, 0)
                                      + coalesce(t.cash_in, 0) - coalesce(t.cash_out, 0)),
           sh.counted_total, sh.difference
      from public.shifts sh
      join public.stores st on st.id = sh.store_id
      join public.registers rg on rg.id = sh.register_id
      left join public.shift_totals t on t.shift_id = sh.id
      left join names nm on nm.user_id = sh.cashier_id
     where sh.business_id = _business_id
       and (_store_id is null or sh.store_id = _store_id)
       and sh.opened_at >= private.report_utc_lower(_from) and sh.opened_at < private.report_utc_upper(_to)
       and (sh.opened_at at time zone st.time_zone)::date between _from and _to
     order by sh.opened_at desc, rg.name, sh.id;
end;
$$;
comment on function public.report_shifts(uuid,date,date,uuid) is 'Owners and managers only: Z reports of the shifts opened in the range, with the tenders, refunds, cash in and out, expected and counted cash and the difference (over positive, short negative) as close_shift recorded it.';
revoke all on function public.report_shifts(uuid,date,date,uuid) from public;
grant execute on function public.report_shifts(uuid,date,date,uuid) to authenticated;

-- The five best sellers of the range as rung up (revenue, then variant id), ranked by the pruned exact ranking of
-- ADR 0151 instead of summing every variant's daily rows; units from the same ranking, the description as before
-- (the greatest among the variant's daily rows of the range).
create or replace function private.overview_top_products(_business_id uuid, _store_id uuid, _from date, _to date)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce(jsonb_agg(t order by t.revenue desc, t.variant_id), '[]'::jsonb)
    from (select ts.variant_id,
                 (select max(d.description) from public.sales_daily_variant d
                   where d.variant_id = ts.variant_id and d.business_id = _business_id
                     and (_store_id is null or d.store_id = _store_id) and d.day between _from and _to) as description,
                 ts.units, ts.revenue
            from private.top_sellers(_business_id, _from, _to, _store_id, 5) ts) t;
$$;
revoke all on function private.overview_top_products(uuid,uuid,date,date) from public;
grant execute on function private.overview_top_products(uuid,uuid,date,date) to authenticated;

-- The dashboard's business overview (issue 14). Owners and managers: today against the same weekday last week
-- (sales net of refunds, transactions, average basket, gross profit), 30 days of sales, the top five products
-- of those 30 days (as rung up), low stock and lots expiring within 14 days. Cashiers: their own open (or last) shift only,
-- without cost or profit. _today (default: each store's own local date) fixes the day for tests.
create or replace function public.business_overview(_business_id uuid, _store_id uuid default null, _today date default null)
returns jsonb
language plpgsql
stable
security invoker
set search_path = ''
-- The ranking's generic plans are costed far above what they read (policy subplans on every table): PostgreSQL's
-- JIT then compiled them for about a second per call at 1,000,000 lines, for 17 candidates read in 4 ms.
set jit = off
set plan_cache_mode = force_custom_plan
as $$
declare
  v_role text := private.my_role(_business_id);
  v_today date := coalesce(_today, (select (now() at time zone coalesce(min(st.time_zone), 'UTC'))::date
                                      from public.stores st where st.business_id = _business_id
                                       and (_store_id is null or st.id = _store_id)));
  v_shift record;
  v_out jsonb;
begin
  if v_role is null or v_role not in ('owner', 'manager', 'cashier') then
    raise exception 'permission denied: your role in this business does not allow this' using errcode = '42501';
  end if;
  if v_role = 'cashier' then
    select s.id, s.store_id, s.register_id, r.name::text as register_name, s.opened_at, s.closed_at, s.opening_float
      into v_shift
      from public.shifts s join public.registers r on r.id = s.register_id
     where s.business_id = _business_id and s.cashier_id = (select auth.uid())
     order by s.closed_at is null desc, s.opened_at desc
     limit 1;
    if v_shift.id is null then
      return jsonb_build_object('role', v_role, 'shift', null);
    end if;
    return jsonb_build_object('role', v_role, 'shift', jsonb_build_object(
      'shift_id', v_shift.id, 'store_id', v_shift.store_id, 'register_name', v_shift.register_name,
      'opened_at', v_shift.opened_at, 'closed_at', v_shift.closed_at, 'opening_float', v_shift.opening_float,
      'sales_count', (select count(*) from public.sales x where x.shift_id = v_shift.id),
      'sales_total', (select coalesce(sum(x.total), 0) from public.sales x where x.shift_id = v_shift.id),
      'refunds_total', (select coalesce(sum(r.total), 0) from public.refunds r where r.shift_id = v_shift.id),
      'cash_sales', (select coalesce(sum(t.amount), 0) from public.sale_tenders t join public.sales x on x.id = t.sale_id
                      where x.shift_id = v_shift.id and t.kind = 'cash')));
  end if;

  -- Sales, refunds and receipts per day from the maintained daily summary (ADR 0143); gross profit net of
  -- refunds (tax share, restocked cost) needs the refund lines, so it comes from the line facts of the two days
  -- (only those two: ADR 0162).
  with day_figures as (
    select d.day, sum(d.gross) as gross, sum(d.refunds) as refunds, sum(d.receipts) as transactions
      from public.sales_daily d
     where d.business_id = _business_id and (_store_id is null or d.store_id = _store_id)
       and d.day between v_today - 29 and v_today
     group by 1
  ),
  gp as (select g.day, g.gross_profit from private.overview_gross_profit(_business_id, _store_id, v_today) g),
  pick as (
    select coalesce(d.day, gp.day) as day, coalesce(d.gross, 0) as gross, coalesce(d.refunds, 0) as refunds,
           coalesce(d.transactions, 0) as transactions, coalesce(gp.gross_profit, 0) as gross_profit
      from day_figures d full join gp on gp.day = d.day
  )
  select jsonb_build_object(
    'role', v_role,
    'today_date', v_today,
    'today', (select jsonb_build_object('sales', coalesce(p.gross - p.refunds, 0), 'refunds', coalesce(p.refunds, 0),
                                        'transactions', coalesce(p.transactions, 0),
                                        'average_basket', case when coalesce(p.transactions, 0) = 0 then 0
                                                               else round(p.gross::numeric / p.transactions) end,
                                        'gross_profit', coalesce(p.gross_profit, 0))
                from (select 1) one left join pick p on p.day = v_today),
    'last_week', (select jsonb_build_object('sales', coalesce(p.gross - p.refunds, 0), 'refunds', coalesce(p.refunds, 0),
                                            'transactions', coalesce(p.transactions, 0),
                                            'average_basket', case when coalesce(p.transactions, 0) = 0 then 0
                                                                   else round(p.gross::numeric / p.transactions) end,
                                            'gross_profit', coalesce(p.gross_profit, 0))
                    from (select 1) one left join pick p on p.day = v_today - 7),
    'daily', (select jsonb_agg(jsonb_build_object('day', g.day, 'sales', coalesce(p.gross - p.refunds, 0)) order by g.day)
                from (select v_today - 29 + k as day from generate_series(0, 29) as k) g
                left join pick p on p.day = g.day),
    -- As rung up (gross of refunds), like report_top_products, from the per-variant daily summary.
    'top_products', private.overview_top_products(_business_id, _store_id, v_today - 29, v_today),
    'low_stock', coalesce((select jsonb_agg(t order by t.on_hand - t.reorder_point, t.sku) from (
                    select rp.store_id, rp.variant_id, v.sku, p.name as product_name, coalesce(sum(b.qty), 0) as on_hand,
                           rp.reorder_point
                      from public.reorder_points rp
                      join public.variants v on v.id = rp.variant_id
                      join public.products p on p.id = v.product_id
                      left join public.stock_balances b on b.store_id = rp.store_id and b.variant_id = rp.variant_id
                     where rp.business_id = _business_id and (_store_id is null or rp.store_id = _store_id)
                     group by rp.store_id, rp.variant_id, v.sku, p.name, rp.reorder_point
                    having coalesce(sum(b.qty), 0) <= rp.reorder_point
                     order by coalesce(sum(b.qty), 0) - rp.reorder_point, v.sku limit 8) t), '[]'::jsonb),
    'low_stock_count', (select count(*) from (
                    select 1 from public.reorder_points rp
                      left join public.stock_balances b on b.store_id = rp.store_id and b.variant_id = rp.variant_id
                     where rp.business_id = _business_id and (_store_id is null or rp.store_id = _store_id)
                     group by rp.store_id, rp.variant_id, rp.reorder_point
                    having coalesce(sum(b.qty), 0) <= rp.reorder_point) c),
    'expiring', coalesce((select jsonb_agg(t order by t.expires_on, t.lot_number) from (
                   select b.store_id, l.id as lot_id, l.lot_number, l.expires_on, p.name as product_name, b.qty
                     from public.stock_balances b
                     join public.lots l on l.id = b.lot_id
                     join public.variants v on v.id = b.variant_id
                     join public.products p on p.id = v.product_id
                    where b.business_id = _business_id and (_store_id is null or b.store_id = _store_id)
                      and b.qty > 0 and l.expires_on <= v_today + 14
                    order by l.expires_on, l.lot_number limit 8) t), '[]'::jsonb),
    'expiring_count', (select count(*) from public.stock_balances b join public.lots l on l.id = b.lot_id
                        where b.business_id = _business_id and (_store_id is null or b.store_id = _store_id)
                          and b.qty > 0 and l.expires_on <= v_today + 14)
  ) into v_out;
  return v_out;
end;
$$;
comment on function public.business_overview(uuid,uuid,date) is 'The dashboard overview. Owners and managers (RLS limits managers to their stores): today and the same day last week, 30 days of sales net of refunds, top products, low stock and expiring lots. Cashiers: their own shift only (no cost or profit). Anyone else: 42501.';
revoke all on function public.business_overview(uuid,uuid,date) from public;
grant execute on function public.business_overview(uuid,uuid,date) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Rebuild from the raw rows: a whole business (_stores null) or the given (store, local day) pairs.
create or replace function private.compute_sales_breakdown(_business_id uuid, _stores uuid[] default null,
                                                           _days date[] default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if _stores is null then
    delete from public.sales_daily_breakdown d where d.business_id = _business_id;
  else
    delete from public.sales_daily_breakdown d using unnest(_stores, _days) as k (store_id, day)
     where d.store_id = k.store_id and d.day = k.day;
  end if;
  insert into public.sales_daily_breakdown (business_id, store_id, day, dimension, key, receipts, units, gross, refunds,
                                            tax, cost)
  with x as materialized (
    select x.sale_id, x.business_id, x.store_id, x.day from private.sales_summary_scope(_business_id, _stores, _days) x
  ), rf as materialized (
    select r.id, r.business_id, r.store_id, (r.occurred_at at time zone st.time_zone)::date as day, r.actor_id,
           r.tender_kind, r.total
      from public.refunds r join public.stores st on st.id = r.store_id
     where (_stores is null and r.business_id = _business_id)
        or (_stores is not null and exists (
              select 1 from unnest(_stores, _days) as k (store_id, day)
               where k.store_id = r.store_id
                 and r.occurred_at >= (k.day::timestamp at time zone st.time_zone)
                 and r.occurred_at < ((k.day + 1)::timestamp at time zone st.time_zone)))
  ), lines as (
    select x.business_id, x.store_id, x.day, x.sale_id, s.cashier_id as staff_id, p.category_id, l.qty,
           l.line_total, l.tax_amount, round(l.qty * coalesce(c.unit_cost, 0)) as cost
      from x
      join public.sales s on s.id = x.sale_id
      join public.sale_lines l on l.sale_id = x.sale_id and l.business_id = x.business_id
      left join public.variants v on v.id = l.variant_id
      left join public.products p on p.id = v.product_id
      left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
  ), refund_lines as (
    select rf.business_id, rf.store_id, rf.day, rf.actor_id as staff_id, p.category_id, rl.qty, rl.amount,
           case when l.line_total = 0 then 0 else round(rl.amount::numeric * l.tax_amount / l.line_total) end as tax,
           case when rl.disposition = 'restock' then round(rl.qty * coalesce(c.unit_cost, 0)) else 0 end as cost
      from rf
      join public.refund_lines rl on rl.refund_id = rf.id and rl.business_id = rf.business_id
      join public.sale_lines l on l.id = rl.sale_line_id and l.business_id = rl.business_id
      left join public.variants v on v.id = l.variant_id
      left join public.products p on p.id = v.product_id
      left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
  ), facts as (
    select f.business_id, f.store_id, f.day, k.dimension, k.key, f.sale_id, f.qty as units, f.line_total as gross,
           0::bigint as refunds, f.tax_amount::numeric as tax, f.cost
      from lines f
      cross join lateral (values ('store', f.store_id::text), ('staff', coalesce(f.staff_id::text, '')),
                                 ('category', coalesce(f.category_id::text, ''))) as k (dimension, key)
    union all
    select f.business_id, f.store_id, f.day, k.dimension, k.key, null, -f.qty, 0, f.amount, -f.tax, -f.cost
      from refund_lines f
      cross join lateral (values ('store', f.store_id::text), ('staff', coalesce(f.staff_id::text, '')),
                                 ('category', coalesce(f.category_id::text, ''))) as k (dimension, key)
    union all
    select x.business_id, x.store_id, x.day, 'tender', t.kind, x.sale_id, 0, t.amount, 0, 0, 0
      from x join public.sale_tenders t on t.sale_id = x.sale_id and t.business_id = x.business_id
    union all
    select rf.business_id, rf.store_id, rf.day, 'tender', rf.tender_kind, null, 0, 0, rf.total, 0, 0
      from rf
  )
  select f.business_id, f.store_id, f.day, f.dimension, f.key, count(distinct f.sale_id), sum(f.units), sum(f.gross),
         sum(f.refunds), sum(f.tax), sum(f.cost)
    from facts f
   group by 1, 2, 3, 4, 5;
  -- A whole business (seed:large's refresh, with triggers off) also rebuilds its monthly rows.
  if _stores is null then
    perform private.rebuild_breakdown_months(_business_id);
  end if;
end;
$$;
revoke all on function private.compute_sales_breakdown(uuid,uuid[],date[]) from public;

create or replace function private.compute_sales_summaries(_business_id uuid, _stores uuid[] default null,
                                                           _days date[] default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.compute_sales_summaries_daily(_business_id, _stores, _days);
  perform private.compute_sales_breakdown(_business_id, _stores, _days);
end;
$$;
revoke all on function private.compute_sales_summaries(uuid,uuid[],date[]) from public;

-- Sale lines: units, gross and tax per store, cashier and category; a receipt for each (sale, key) that had no
-- line before this statement (post_sale inserts a sale's lines in one statement).
create or replace function private.breakdown_lines_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.sales_daily_breakdown as d (business_id, store_id, day, dimension, key, receipts, units, gross,
                                                 tax)
  select g.business_id, g.store_id, g.day, g.dimension, g.key, sum(g.first), sum(g.units), sum(g.gross), sum(g.tax)
    from (
      select g.*,
             case when exists (
               select 1 from public.sale_lines o
                 left join public.variants v on v.id = o.variant_id
                 left join public.products p on p.id = v.product_id
                where o.sale_id = g.sale_id and o.business_id = g.business_id
                  and not exists (select 1 from new_rows n where n.id = o.id)
                  and (g.dimension <> 'category' or coalesce(p.category_id::text, '') = g.key)) then 0 else 1 end as first
        from (
          select s.business_id, s.store_id, (s.occurred_at at time zone st.time_zone)::date as day, k.dimension, k.key,
                 l.sale_id, sum(l.qty) as units, sum(l.line_total) as gross, sum(l.tax_amount) as tax
            from new_rows l
            join public.sales s on s.id = l.sale_id and s.business_id = l.business_id
            join public.stores st on st.id = s.store_id
            left join public.variants v on v.id = l.variant_id
            left join public.products p on p.id = v.product_id
            cross join lateral (values ('store', s.store_id::text), ('staff', coalesce(s.cashier_id::text, '')),
                                       ('category', coalesce(p.category_id::text, ''))) as k (dimension, key)
           group by 1, 2, 3, 4, 5, 6
        ) g
    ) g
   group by 1, 2, 3, 4, 5
  on conflict (store_id, day, dimension, key) do update
    set receipts = d.receipts + excluded.receipts, units = d.units + excluded.units, gross = d.gross + excluded.gross,
        tax = d.tax + excluded.tax;
  return null;
end;
$$;
revoke all on function private.breakdown_lines_inserted() from public;

-- Recorded costs: the line's cost on the sale's keys, and given back on the keys of refunds that already restocked
-- the line (a line counted at cost 0 until its cost row exists).
create or replace function private.breakdown_costs_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.sales_daily_breakdown as d (business_id, store_id, day, dimension, key, cost)
  select f.business_id, f.store_id, f.day, k.dimension, k.key, sum(f.cost)
    from (
      select s.business_id, s.store_id, (s.occurred_at at time zone st.time_zone)::date as day,
             s.cashier_id as staff_id, p.category_id, round(l.qty * n.unit_cost) as cost
        from new_rows n
        join public.sale_lines l on l.id = n.sale_line_id and l.business_id = n.business_id
        join public.sales s on s.id = l.sale_id and s.business_id = l.business_id
        join public.stores st on st.id = s.store_id
        left join public.variants v on v.id = l.variant_id
        left join public.products p on p.id = v.product_id
      union all
      select r.business_id, r.store_id, (r.occurred_at at time zone st.time_zone)::date, r.actor_id, p.category_id,
             -round(rl.qty * n.unit_cost)
        from new_rows n
        join public.refund_lines rl on rl.sale_line_id = n.sale_line_id and rl.business_id = n.business_id
                                   and rl.disposition = 'restock'
        join public.refunds r on r.id = rl.refund_id and r.business_id = rl.business_id
        join public.stores st on st.id = r.store_id
        join public.sale_lines l on l.id = n.sale_line_id and l.business_id = n.business_id
        left join public.variants v on v.id = l.variant_id
        left join public.products p on p.id = v.product_id
    ) f
    cross join lateral (values ('store', f.store_id::text), ('staff', coalesce(f.staff_id::text, '')),
                               ('category', coalesce(f.category_id::text, ''))) as k (dimension, key)
   group by 1, 2, 3, 4, 5
  on conflict (store_id, day, dimension, key) do update set cost = d.cost + excluded.cost;
  return null;
end;
$$;
revoke all on function private.breakdown_costs_inserted() from public;

-- Tenders: the amount per kind, a receipt for each (sale, kind) that had no tender of that kind before.
create or replace function private.breakdown_tenders_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.sales_daily_breakdown as d (business_id, store_id, day, dimension, key, receipts, gross)
  select g.business_id, g.store_id, g.day, 'tender', g.kind, sum(g.first), sum(g.amount)
    from (
      select g.*,
             case when exists (
               select 1 from public.sale_tenders o
                where o.sale_id = g.sale_id and o.business_id = g.business_id and o.kind = g.kind
                  and not exists (select 1 from new_rows n where n.id = o.id)) then 0 else 1 end as first
        from (
          select s.business_id, s.store_id, (s.occurred_at at time zone st.time_zone)::date as day, t.kind, t.sale_id,
                 sum(t.amount) as amount
            from new_rows t
            join public.sales s on s.id = t.sale_id and s.business_id = t.business_id
            join public.stores st on st.id = s.store_id
           group by 1, 2, 3, 4, 5
        ) g
    ) g
   group by 1, 2, 3, 4, 5
  on conflict (store_id, day, dimension, key) do update
    set receipts = d.receipts + excluded.receipts, gross = d.gross + excluded.gross;
  return null;
end;
$$;
revoke all on function private.breakdown_tenders_inserted() from public;

-- Refund lines: negative units and tax share, the refunded amount, restocked cost given back, on the refund's keys.
create or replace function private.breakdown_refund_lines_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.sales_daily_breakdown as d (business_id, store_id, day, dimension, key, units, refunds, tax, cost)
  select f.business_id, f.store_id, f.day, k.dimension, k.key, -sum(f.qty), sum(f.amount), -sum(f.tax), -sum(f.cost)
    from (
      select r.business_id, r.store_id, (r.occurred_at at time zone st.time_zone)::date as day, r.actor_id as staff_id,
             p.category_id, rl.qty, rl.amount,
             case when l.line_total = 0 then 0 else round(rl.amount::numeric * l.tax_amount / l.line_total) end as tax,
             case when rl.disposition = 'restock' then round(rl.qty * coalesce(c.unit_cost, 0)) else 0 end as cost
        from new_rows rl
        join public.refunds r on r.id = rl.refund_id and r.business_id = rl.business_id
        join public.stores st on st.id = r.store_id
        join public.sale_lines l on l.id = rl.sale_line_id and l.business_id = rl.business_id
        left join public.variants v on v.id = l.variant_id
        left join public.products p on p.id = v.product_id
        left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
    ) f
    cross join lateral (values ('store', f.store_id::text), ('staff', coalesce(f.staff_id::text, '')),
                               ('category', coalesce(f.category_id::text, ''))) as k (dimension, key)
   group by 1, 2, 3, 4, 5
  on conflict (store_id, day, dimension, key) do update
    set units = d.units + excluded.units, refunds = d.refunds + excluded.refunds, tax = d.tax + excluded.tax,
        cost = d.cost + excluded.cost;
  return null;
end;
$$;
revoke all on function private.breakdown_refund_lines_inserted() from public;

-- Refunds: the total against its tender (post_refund writes it after the lines: updates add new minus old). A
-- refund moved to another store, day, member or tender rebuilds the old and new (store, day) pairs. Deletions are
-- rebuilt by the daily summaries' trigger (compute_sales_summaries).
create or replace function private.breakdown_refunds_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.sales_daily_breakdown as d (business_id, store_id, day, dimension, key, refunds)
  select n.business_id, n.store_id, (n.occurred_at at time zone st.time_zone)::date, 'tender', n.tender_kind,
         sum(n.total)
    from new_rows n join public.stores st on st.id = n.store_id
   group by 1, 2, 3, 4, 5
  on conflict (store_id, day, dimension, key) do update set refunds = d.refunds + excluded.refunds;
  return null;
end;
$$;
revoke all on function private.breakdown_refunds_inserted() from public;

create or replace function private.breakdown_refunds_updated()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_stores uuid[];
  v_days date[];
begin
  select array_agg(k.store_id), array_agg(k.day) into v_stores, v_days
    from (select o.store_id, (o.occurred_at at time zone st.time_zone)::date as day
            from old_rows o join new_rows n on n.id = o.id join public.stores st on st.id = o.store_id
           where (o.store_id, o.occurred_at, o.actor_id, o.tender_kind)
                 is distinct from (n.store_id, n.occurred_at, n.actor_id, n.tender_kind)
          union
          select n.store_id, (n.occurred_at at time zone st.time_zone)::date
            from old_rows o join new_rows n on n.id = o.id join public.stores st on st.id = n.store_id
           where (o.store_id, o.occurred_at, o.actor_id, o.tender_kind)
                 is distinct from (n.store_id, n.occurred_at, n.actor_id, n.tender_kind)) k;
  if v_stores is not null then
    perform private.compute_sales_breakdown(null, v_stores, v_days);
  end if;
  -- Refunds that stayed where they were: the change of their total.
  insert into public.sales_daily_breakdown as d (business_id, store_id, day, dimension, key, refunds)
  select n.business_id, n.store_id, (n.occurred_at at time zone st.time_zone)::date, 'tender', n.tender_kind,
         sum(n.total - o.total)
    from new_rows n
    join old_rows o on o.id = n.id
    join public.stores st on st.id = n.store_id
   where (o.store_id, o.occurred_at, o.actor_id, o.tender_kind)
         is not distinct from (n.store_id, n.occurred_at, n.actor_id, n.tender_kind)
   group by 1, 2, 3, 4, 5
  having sum(n.total - o.total) <> 0
  on conflict (store_id, day, dimension, key) do update set refunds = d.refunds + excluded.refunds;
  return null;
end;
$$;
revoke all on function private.breakdown_refunds_updated() from public;

-- A sale given another cashier (a member removed: on delete set null) moves its staff figures.
create or replace function private.breakdown_sales_cashier_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_stores uuid[];
  v_days date[];
begin
  select array_agg(n.store_id), array_agg((n.occurred_at at time zone st.time_zone)::date) into v_stores, v_days
    from old_rows o join new_rows n on n.id = o.id join public.stores st on st.id = n.store_id
   where o.cashier_id is distinct from n.cashier_id;
  if v_stores is not null then
    perform private.compute_sales_breakdown(null, v_stores, v_days);
  end if;
  return null;
end;
$$;
revoke all on function private.breakdown_sales_cashier_changed() from public;

-- A product given another category (or a variant another product): rebuild the (store, day) pairs where its lines
-- were sold or refunded (index on sale_lines.variant_id).
create or replace function private.breakdown_rebuild_variants(_variant_ids uuid[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_stores uuid[];
  v_days date[];
begin
  select array_agg(k.store_id), array_agg(k.day) into v_stores, v_days
    from (select s.store_id, (s.occurred_at at time zone st.time_zone)::date as day
            from public.sale_lines l
            join public.sales s on s.id = l.sale_id and s.business_id = l.business_id
            join public.stores st on st.id = s.store_id
           where l.variant_id = any (_variant_ids)
          union
          select r.store_id, (r.occurred_at at time zone st.time_zone)::date
            from public.sale_lines l
            join public.refund_lines rl on rl.sale_line_id = l.id and rl.business_id = l.business_id
            join public.refunds r on r.id = rl.refund_id and r.business_id = rl.business_id
            join public.stores st on st.id = r.store_id
           where l.variant_id = any (_variant_ids)) k;
  if v_stores is not null then
    perform private.compute_sales_breakdown(null, v_stores, v_days);
  end if;
end;
$$;
revoke all on function private.breakdown_rebuild_variants(uuid[]) from public;

create or replace function private.breakdown_products_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.breakdown_rebuild_variants(array(
    select v.id from old_rows o join new_rows n on n.id = o.id join public.variants v on v.product_id = n.id
     where o.category_id is distinct from n.category_id));
  return null;
end;
$$;
revoke all on function private.breakdown_products_changed() from public;

create or replace function private.breakdown_variants_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.breakdown_rebuild_variants(array(
    select n.id from old_rows o join new_rows n on n.id = o.id where o.product_id is distinct from n.product_id));
  return null;
end;
$$;
revoke all on function private.breakdown_variants_changed() from public;

-- Signed deltas of the daily rows a statement changed (_sign 1: inserted or new; -1: deleted or old).
create or replace function private.breakdown_months_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.sales_monthly_breakdown as m (business_id, store_id, month, dimension, key, days, receipts,
                                                     units, gross, refunds, tax, cost)
    select n.business_id, n.store_id, date_trunc('month', n.day::timestamp)::date, n.dimension, n.key, count(*),
           sum(n.receipts), sum(n.units), sum(n.gross), sum(n.refunds), sum(n.tax), sum(n.cost)
      from new_rows n group by 1, 2, 3, 4, 5
    on conflict (store_id, month, dimension, key) do update
      set days = m.days + excluded.days, receipts = m.receipts + excluded.receipts, units = m.units + excluded.units,
          gross = m.gross + excluded.gross, refunds = m.refunds + excluded.refunds, tax = m.tax + excluded.tax,
          cost = m.cost + excluded.cost;
  else
    -- Updates and deletions: subtract the old rows from existing monthly rows (a store being deleted may have
    -- cascaded there first), add the new ones, drop rows left without days.
    update public.sales_monthly_breakdown m
       set days = m.days - g.days, receipts = m.receipts - g.receipts, units = m.units - g.units,
           gross = m.gross - g.gross, refunds = m.refunds - g.refunds, tax = m.tax - g.tax, cost = m.cost - g.cost
      from (select o.store_id, date_trunc('month', o.day::timestamp)::date as month, o.dimension, o.key,
                   count(*) as days, sum(o.receipts) as receipts, sum(o.units) as units, sum(o.gross) as gross,
                   sum(o.refunds) as refunds, sum(o.tax) as tax, sum(o.cost) as cost
              from old_rows o group by 1, 2, 3, 4) g
     where m.store_id = g.store_id and m.month = g.month and m.dimension = g.dimension and m.key = g.key;
    if tg_op = 'UPDATE' then
      insert into public.sales_monthly_breakdown as m (business_id, store_id, month, dimension, key, days, receipts,
                                                       units, gross, refunds, tax, cost)
      select n.business_id, n.store_id, date_trunc('month', n.day::timestamp)::date, n.dimension, n.key, count(*),
             sum(n.receipts), sum(n.units), sum(n.gross), sum(n.refunds), sum(n.tax), sum(n.cost)
        from new_rows n group by 1, 2, 3, 4, 5
      on conflict (store_id, month, dimension, key) do update
        set days = m.days + excluded.days, receipts = m.receipts + excluded.receipts, units = m.units + excluded.units,
            gross = m.gross + excluded.gross, refunds = m.refunds + excluded.refunds, tax = m.tax + excluded.tax,
            cost = m.cost + excluded.cost;
    end if;
    delete from public.sales_monthly_breakdown m
     using (select distinct o.store_id, date_trunc('month', o.day::timestamp)::date as month, o.dimension, o.key
              from old_rows o) k
     where m.store_id = k.store_id and m.month = k.month and m.dimension = k.dimension and m.key = k.key
       and m.days = 0;
  end if;
  return null;
end;
$$;
revoke all on function private.breakdown_months_changed() from public;

-- A business's monthly rows from its daily rows (compute_sales_breakdown for a whole business, which also runs
-- after a bulk load made with triggers off).
create or replace function private.rebuild_breakdown_months(_business_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.sales_monthly_breakdown m where m.business_id = _business_id;
  insert into public.sales_monthly_breakdown (business_id, store_id, month, dimension, key, days, receipts, units,
                                              gross, refunds, tax, cost)
  select d.business_id, d.store_id, date_trunc('month', d.day::timestamp)::date, d.dimension, d.key, count(*),
         sum(d.receipts), sum(d.units), sum(d.gross), sum(d.refunds), sum(d.tax), sum(d.cost)
    from public.sales_daily_breakdown d where d.business_id = _business_id
   group by 1, 2, 3, 4, 5;
end;
$$;
revoke all on function private.rebuild_breakdown_months(uuid) from public;

-- The rows of a range: whole months inside it from the monthly rollup, the days at its ends from the daily rows.
create or replace function private.breakdown_rows(_business_id uuid, _from date, _to date, _dimension text,
                                                  _store_id uuid)
returns table (key text, receipts bigint, units numeric, gross bigint, refunds bigint, tax bigint, cost bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  -- Whole months inside the range: [v_first, v_after); none when v_first >= v_after.
  v_first date := case when date_trunc('month', _from::timestamp)::date = _from then _from
                       else (date_trunc('month', _from::timestamp) + interval '1 month')::date end;
  v_after date := date_trunc('month', (_to + 1)::timestamp)::date;
begin
  if v_first >= v_after then
    v_first := _to + 1;
    v_after := _to + 1;
  end if;
  return query
    select m.key, m.receipts, m.units, m.gross, m.refunds, m.tax, m.cost
      from public.sales_monthly_breakdown m
     where m.business_id = _business_id and m.dimension = _dimension
       and (_store_id is null or m.store_id = _store_id)
       and m.month >= v_first and m.month < v_after
    union all
    select d.key, d.receipts, d.units, d.gross, d.refunds, d.tax, d.cost
      from public.sales_daily_breakdown d
     where d.business_id = _business_id and d.dimension = _dimension
       and (_store_id is null or d.store_id = _store_id)
       and ((d.day >= _from and d.day < v_first) or (d.day >= greatest(_from, v_after) and d.day <= _to));
end;
$$;
revoke all on function private.breakdown_rows(uuid,date,date,text,uuid) from public;
grant execute on function private.breakdown_rows(uuid,date,date,text,uuid) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Same signature, columns, labels and order as in 20261123150000; read from the breakdown summary.
create or replace function public.report_sales_by(_business_id uuid, _from date, _to date, _dimension text,
                                                  _store_id uuid default null)
returns table (key text, label text, receipts bigint, units numeric, gross bigint, refunds bigint, net_sales bigint,
               tax bigint, revenue bigint, cost bigint, profit bigint, margin numeric)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
set plan_cache_mode = force_custom_plan
as $$
#variable_conflict use_column
begin
  perform private.report_args(_business_id, _from, _to, null);
  if _dimension is null or _dimension not in ('store', 'staff', 'category', 'tender') then
    raise exception 'dimension must be store, staff, category or tender' using errcode = '22023';
  end if;
  return query
    with g as (
      select nullif(d.key, '') as key, sum(d.receipts)::bigint as receipts, sum(d.units) as units,
             sum(d.gross)::bigint as gross, sum(d.refunds)::bigint as refunds, sum(d.tax)::bigint as tax,
             (sum(d.gross) - sum(d.refunds) - sum(d.tax))::bigint as revenue, sum(d.cost)::bigint as cost
        from private.breakdown_rows(_business_id, _from, _to, _dimension, _store_id) d
       group by d.key
    )
    select g.key,
           case _dimension
             when 'tender' then initcap(g.key)
             when 'store' then (select s.name::text from public.stores s where s.id::text = g.key)
             when 'staff' then coalesce((select m.name from private.member_names(_business_id) m where m.user_id::text = g.key),
                                        case when g.key is null then 'Unknown' else 'Former member' end)
             else coalesce((select c.name::text from public.categories c where c.id::text = g.key), 'Uncategorised')
           end,
           g.receipts,
           case when _dimension = 'tender' then null else g.units end,
           g.gross, g.refunds, g.gross - g.refunds,
           case when _dimension = 'tender' then null else g.tax end,
           case when _dimension = 'tender' then null else g.revenue end,
           case when _dimension = 'tender' then null else g.cost end,
           case when _dimension = 'tender' then null else g.revenue - g.cost end,
           case when _dimension = 'tender' or g.revenue = 0 then null
                else round((g.revenue - g.cost)::numeric / g.revenue, 4) end
      from g
     order by case when _dimension = 'tender' then g.gross else g.gross - g.refunds end desc, 1;
end;
$$;
comment on function public.report_sales_by(uuid,date,date,text,uuid) is 'Owners and managers only (42501 otherwise; RLS limits managers to their stores): sales by store, staff, category or tender in the range, refunds netted on the day they happened; revenue is net of tax and refunds, cost net of restocked refund lines; profit and margin null for tenders. Reads sales_daily_breakdown (ADR 0163).';
revoke all on function public.report_sales_by(uuid,date,date,text,uuid) from public;
grant execute on function public.report_sales_by(uuid,date,date,text,uuid) to authenticated;

-- Units and revenue net of refunds per (store, variant) in the range, and the last local day with a sale line.
create or replace function private.sell_through_sold(_business_id uuid, _from date, _to date, _store_id uuid)
returns table (store_id uuid, variant_id uuid, units numeric, revenue bigint, last_day date)
language sql
stable
security invoker
set search_path = ''
as $$
  select x.store_id, x.variant_id, sum(x.units), sum(x.revenue)::bigint, max(x.last_day)
    from (
      select d.store_id, d.variant_id, d.units, d.revenue::numeric as revenue, d.day as last_day
        from public.sales_daily_variant d
       where d.business_id = _business_id and (_store_id is null or d.store_id = _store_id)
         and d.day between _from and _to and d.lines > 0
      union all
      select r.store_id, l.variant_id, -rl.qty,
             -(rl.amount - case when l.line_total = 0 then 0
                                else round(rl.amount::numeric * l.tax_amount / l.line_total) end),
             null::date
        from public.refunds r
        join public.stores st on st.id = r.store_id
        join public.refund_lines rl on rl.refund_id = r.id and rl.business_id = r.business_id
        join public.sale_lines l on l.id = rl.sale_line_id and l.business_id = rl.business_id
       where r.business_id = _business_id and (_store_id is null or r.store_id = _store_id)
         and r.occurred_at >= private.report_utc_lower(_from) and r.occurred_at < private.report_utc_upper(_to)
         and (r.occurred_at at time zone st.time_zone)::date between _from and _to
    ) x
   group by 1, 2;
$$;
revoke all on function private.sell_through_sold(uuid,date,date,uuid) from public;
grant execute on function private.sell_through_sold(uuid,date,date,uuid) to authenticated;

-- Rebuild a business's rows from the ledger (the backfill, refresh_stock_summaries after a bulk load).
create or replace function private.compute_stock_pairs(_business_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  delete from public.stock_pairs p where p.business_id = _business_id;
  insert into public.stock_pairs (business_id, store_id, variant_id, on_hand, last_sale_at, last_sale_day, value)
  select m.business_id, m.store_id, m.variant_id, m.qty, m.last_at, (m.last_at at time zone st.time_zone)::date,
         m.qty * coalesce(vc.cost, 0)
    from (select m.business_id, m.store_id, m.variant_id, sum(m.qty) as qty,
                 max(m.occurred_at) filter (where m.kind = 'sale') as last_at
            from public.stock_movements m where m.business_id = _business_id
           group by 1, 2, 3) m
    join public.stores st on st.id = m.store_id
    left join public.variant_costs vc on vc.variant_id = m.variant_id;
$$;
revoke all on function private.compute_stock_pairs(uuid) from public;

-- Ledger rows inserted: on hand and value move by the statement's delta (value = on hand x cost is linear in on
-- hand, so adding delta x cost keeps it exact), the last sale moves forward. One upsert per statement.
create or replace function private.stock_pairs_movements_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.stock_pairs as p (business_id, store_id, variant_id, on_hand, last_sale_at, last_sale_day, value)
  select n.business_id, n.store_id, n.variant_id, n.qty, n.last_at, (n.last_at at time zone st.time_zone)::date,
         n.qty * coalesce(vc.cost, 0)
    from (select n.business_id, n.store_id, n.variant_id, sum(n.qty) as qty,
                 max(n.occurred_at) filter (where n.kind = 'sale') as last_at
            from new_rows n group by 1, 2, 3) n
    join public.stores st on st.id = n.store_id
    left join public.variant_costs vc on vc.variant_id = n.variant_id
  on conflict (store_id, variant_id) do update
    set on_hand = p.on_hand + excluded.on_hand,
        value = p.value + excluded.value,
        last_sale_at = greatest(p.last_sale_at, excluded.last_sale_at),
        last_sale_day = case when excluded.last_sale_at > p.last_sale_at or p.last_sale_at is null
                             then excluded.last_sale_day else p.last_sale_day end;
  return null;
end;
$$;
revoke all on function private.stock_pairs_movements_inserted() from public;

-- A variant's cost set, changed or removed: its pairs' value from their on hand.
create or replace function private.stock_pairs_costs_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.stock_pairs p set value = p.on_hand * n.cost
      from new_rows n where p.variant_id = n.variant_id and p.value is distinct from p.on_hand * n.cost;
  elsif tg_op = 'UPDATE' then
    update public.stock_pairs p set value = p.on_hand * n.cost
      from new_rows n where p.variant_id = n.variant_id and p.value is distinct from p.on_hand * n.cost;
    -- A cost row moved to another variant (not done by the app): the old variant has no cost now.
    update public.stock_pairs p set value = 0
      from old_rows o where p.variant_id = o.variant_id and p.value <> 0
       and not exists (select 1 from public.variant_costs c where c.variant_id = o.variant_id);
  else
    update public.stock_pairs p set value = 0
      from old_rows o where p.variant_id = o.variant_id and p.value <> 0
       and not exists (select 1 from public.variant_costs c where c.variant_id = o.variant_id);
  end if;
  return null;
end;
$$;
revoke all on function private.stock_pairs_costs_changed() from public;

-- A store's new time zone: the local day of each pair's last sale.
create or replace function private.stock_pairs_time_zone_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.stock_pairs p set last_sale_day = (p.last_sale_at at time zone n.time_zone)::date
    from new_rows n join old_rows o on o.id = n.id
   where o.time_zone is distinct from n.time_zone and p.store_id = n.id and p.last_sale_at is not null;
  return null;
end;
$$;
revoke all on function private.stock_pairs_time_zone_changed() from public;

create or replace function private.refresh_stock_summaries(_business_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  select private.refresh_stock_summaries_base(_business_id);
  select private.compute_stock_pairs(_business_id);
$$;
revoke all on function private.refresh_stock_summaries(uuid) from public;

-- ---------------------------------------------------------------------------------------------------
-- The readers below walk stock_pairs in index order as security definer: under row level security PostgreSQL
-- may not use a numeric comparison (not leakproof) as an index condition ahead of the policy, so "value >= x" or
-- "on hand below x" became filters over every pair of the store. They read only the stores this function returns:
-- the policy of stock_pairs (owners and managers, the stores they may use), evaluated once.
create or replace function private.stock_pair_stores(_business_id uuid, _store_id uuid)
returns uuid[]
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce(array_agg(s.id order by s.id), '{}') from public.stores s
   where s.business_id = _business_id and (_store_id is null or s.id = _store_id)
     and (_business_id in (select private.my_full_access_business_ids())
          or s.id in (select private.my_listed_store_ids()))
     and _business_id in (select private.my_business_ids(array['owner', 'manager']));
$$;
revoke all on function private.stock_pair_stores(uuid,uuid) from public;
grant execute on function private.stock_pair_stores(uuid,uuid) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Slow movers: the pairs on hand whose last sale is before _since (or never), in the report's order (never sold
-- first, then last sale day, then value descending), the first _limit of them and every pair tied with the last
-- on (last sale day, value). Empty when fewer than _limit such pairs exist (the caller then ranks everything).
-- Per store: two index ranges (never sold; sold before _since) of at most _limit rows, then the ties.
create or replace function private.slow_movers_unsold(_business_id uuid, _store_id uuid, _since date, _limit int)
returns table (store_id uuid, variant_id uuid, on_hand numeric, last_day date, value numeric)
language plpgsql
stable
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_stores uuid[] := private.stock_pair_stores(_business_id, _store_id);
  v_count int;
  v_day date;
  v_value numeric;
begin
  -- The _limit-th pair in the order over all stores: the page's boundary.
  select count(*), (array_agg(t.last_sale_day order by t.last_sale_day nulls first, t.value desc))[_limit],
         (array_agg(t.value order by t.last_sale_day nulls first, t.value desc))[_limit]
    into v_count, v_day, v_value
    from (select t.* from unnest(v_stores) as s (id)
           cross join lateral (
             (select p.last_sale_day, p.value from public.stock_pairs p
               where p.store_id = s.id and p.business_id = _business_id and p.on_hand > 0 and p.last_sale_day is null
               order by p.value desc limit _limit)
             union all
             (select p.last_sale_day, p.value from public.stock_pairs p
               where p.store_id = s.id and p.business_id = _business_id and p.on_hand > 0 and p.last_sale_day < _since
               order by p.last_sale_day, p.value desc limit _limit)) t
           order by t.last_sale_day nulls first, t.value desc
           limit _limit) t;
  if v_count < _limit then
    return;
  end if;
  -- Every pair up to the boundary, ties included: index ranges bounded by the boundary's key.
  return query
    select t.* from unnest(v_stores) as s (id)
     cross join lateral (
       select p.store_id, p.variant_id, p.on_hand, p.last_sale_day, p.value from public.stock_pairs p
        where p.store_id = s.id and p.business_id = _business_id and p.on_hand > 0 and p.last_sale_day is null
          and (v_day is not null or p.value >= v_value)
       union all
       select p.store_id, p.variant_id, p.on_hand, p.last_sale_day, p.value from public.stock_pairs p
        where v_day is not null and p.store_id = s.id and p.business_id = _business_id and p.on_hand > 0
          and p.last_sale_day < v_day
       union all
       select p.store_id, p.variant_id, p.on_hand, p.last_sale_day, p.value from public.stock_pairs p
        where v_day is not null and p.store_id = s.id and p.business_id = _business_id and p.on_hand > 0
          and p.last_sale_day = v_day and p.value >= v_value) t;
end;
$$;
revoke all on function private.slow_movers_unsold(uuid,uuid,date,integer) from public;
grant execute on function private.slow_movers_unsold(uuid,uuid,date,integer) to authenticated;

-- The _per_store pairs with the most on hand of each store in scope (an index range each), and whether the store
-- has no more pairs on hand than these.
create or replace function private.stock_pairs_most_on_hand(_business_id uuid, _store_id uuid, _per_store int)
returns table (store_id uuid, variant_id uuid, on_hand numeric, exhausted boolean)
language sql
stable
security definer
set search_path = ''
as $$
  select t.store_id, t.variant_id, t.on_hand, count(*) over (partition by t.store_id) < _per_store
    from unnest(private.stock_pair_stores(_business_id, _store_id)) as s (id)
    cross join lateral (select p.store_id, p.variant_id, p.on_hand from public.stock_pairs p
                         where p.store_id = s.id and p.business_id = _business_id and p.on_hand > 0
                         order by p.on_hand desc limit _per_store) t;
$$;
revoke all on function private.stock_pairs_most_on_hand(uuid,uuid,integer) from public;
grant execute on function private.stock_pairs_most_on_hand(uuid,uuid,integer) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Slow movers (same signature, columns and order as in 20261125110000): ADR 0163's ranking of every pair on hand
-- moves unchanged into private.slow_movers_ranked; the public function serves a page of unsold pairs from the index.
create or replace function private.slow_movers_ranked(_business_id uuid, _store_id uuid, _days int,
                                                     _max_sell_through numeric, _limit int, _today date)
returns table (store_id uuid, variant_id uuid, sku text, product_name text, on_hand numeric, units_sold numeric,
               sell_through numeric, last_sold_on date, days_since_sale int, cost_value bigint)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
as $$
#variable_conflict use_column
declare
  v_today date := _today;
begin
  return query
    with st as (
      select s.id, s.time_zone from public.stores s
       where s.business_id = _business_id and (_store_id is null or s.id = _store_id)
    ),
    oh as (
      select b.store_id, b.variant_id, sum(b.qty) as qty
        from public.stock_balances b
       where b.business_id = _business_id and (_store_id is null or b.store_id = _store_id)
       group by 1, 2 having sum(b.qty) > 0
    ),
    -- Units sold net of restocked refunds in the window (a sale line writes one sale movement, a restocked refund
    -- line one refund movement).
    win as (
      select st.id as store_id, m.variant_id, -sum(m.qty) as sold
        from st
        join public.stock_movements m
          on m.business_id = _business_id and m.store_id = st.id and m.kind in ('sale', 'refund')
         and m.occurred_at >= private.report_utc_lower(v_today - _days + 1)
         and m.occurred_at >= ((v_today - _days + 1)::timestamp at time zone st.time_zone)
       group by 1, 2
    ),
    -- The last sale of every variant ever sold in the store.
    last as (
      select st.id as store_id, m.variant_id, max(m.occurred_at) as last_at
        from st
        join public.stock_movements m on m.store_id = st.id and m.business_id = _business_id and m.kind = 'sale'
       group by 1, 2
    ),
    mv as (
      select oh.store_id, oh.variant_id, oh.qty, coalesce(w.sold, 0) as sold,
             (l.last_at at time zone st.time_zone)::date as last_day, oh.qty * coalesce(vc.cost, 0) as value
        from oh
        join st on st.id = oh.store_id
        left join win w on w.store_id = oh.store_id and w.variant_id = oh.variant_id
        left join last l on l.store_id = oh.store_id and l.variant_id = oh.variant_id
        left join public.variant_costs vc on vc.variant_id = oh.variant_id
       where greatest(coalesce(w.sold, 0), 0) / (greatest(coalesce(w.sold, 0), 0) + oh.qty)
             <= coalesce(_max_sell_through, 0.1)
    ),
    -- The order's keys before the SKU: only rows ranked within the page are joined to the catalog.
    page as (
      select mv.*, rank() over (order by mv.sold > 0, mv.last_day nulls first, mv.value desc) as n from mv
    )
    select mv.store_id, mv.variant_id, v.sku, p.name, mv.qty, mv.sold,
           round(greatest(mv.sold, 0) / (greatest(mv.sold, 0) + mv.qty), 4),
           mv.last_day, (v_today - mv.last_day)::int, round(mv.value)::bigint
      from page mv
      join public.variants v on v.id = mv.variant_id
      join public.products p on p.id = v.product_id
     where mv.n <= least(greatest(coalesce(_limit, 50), 1), 500)
     order by mv.sold > 0, mv.last_day nulls first, mv.value desc, v.sku, mv.store_id
     limit least(greatest(coalesce(_limit, 50), 1), 500);
end;
$$;
revoke all on function private.slow_movers_ranked(uuid,uuid,integer,numeric,integer,date) from public;
grant execute on function private.slow_movers_ranked(uuid,uuid,integer,numeric,integer,date) to authenticated;

create or replace function public.report_slow_movers(_business_id uuid, _store_id uuid default null, _days int default 30,
                                                     _max_sell_through numeric default 0.1, _limit int default 50)
returns table (store_id uuid, variant_id uuid, sku text, product_name text, on_hand numeric, units_sold numeric,
               sell_through numeric, last_sold_on date, days_since_sale int, cost_value bigint)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
set plan_cache_mode = force_custom_plan
as $$
#variable_conflict use_column
declare
  v_today date := current_date;
  v_since date;
  v_limit int := least(greatest(coalesce(_limit, 50), 1), 500);
  v_stores uuid[];
  v_variants uuid[];
  v_on_hand numeric[];
  v_last date[];
  v_value numeric[];
begin
  if _days is null or _days < 1 or _days > 365 then
    raise exception 'the number of days must be between 1 and 365' using errcode = '22023';
  end if;
  v_since := v_today - _days + 1;
  perform private.report_args(_business_id, v_since, v_today, null);
  -- Pairs on hand without a sale in the window sort first (their units sold are <= 0, their sell-through 0, which
  -- passes any threshold >= 0): with at least a page of them, the page is theirs (ADR 0166).
  if coalesce(_max_sell_through, 0.1) >= 0 then
    select array_agg(u.store_id), array_agg(u.variant_id), array_agg(u.on_hand), array_agg(u.last_day),
           array_agg(u.value)
      into v_stores, v_variants, v_on_hand, v_last, v_value
      from private.slow_movers_unsold(_business_id, _store_id, v_since, v_limit) u;
  end if;
  if coalesce(cardinality(v_stores), 0) < v_limit then
    return query select * from private.slow_movers_ranked(_business_id, _store_id, _days, _max_sell_through, _limit,
                                                          v_today);
    return;
  end if;
  return query
    with mv as (
      -- Units sold in the window: its restocked refunds only (no sale since before the window).
      select c.store_id, c.variant_id, c.on_hand, c.last_day, c.value,
             coalesce(-(select sum(m.qty) from public.stock_movements m
                         where m.store_id = c.store_id and m.variant_id = c.variant_id and m.business_id = _business_id
                           and m.kind in ('sale', 'refund')
                           and m.occurred_at >= private.report_utc_lower(v_since)
                           and m.occurred_at >= (v_since::timestamp at time zone st.time_zone)), 0) as sold
        from unnest(v_stores, v_variants, v_on_hand, v_last, v_value) as c (store_id, variant_id, on_hand, last_day, value)
        join public.stores st on st.id = c.store_id
    )
    select mv.store_id, mv.variant_id, v.sku, p.name, mv.on_hand, mv.sold,
           round(greatest(mv.sold, 0) / (greatest(mv.sold, 0) + mv.on_hand), 4),
           mv.last_day, (v_today - mv.last_day)::int, round(mv.value)::bigint
      from mv
      join public.variants v on v.id = mv.variant_id
      join public.products p on p.id = v.product_id
     order by mv.sold > 0, mv.last_day nulls first, mv.value desc, v.sku, mv.store_id
     limit v_limit;
end;
$$;
comment on function public.report_slow_movers(uuid,uuid,integer,numeric,integer) is 'Owners and managers only: variants on hand now whose sell-through over the last _days days (1..365) is at most _max_sell_through (no sale at all first), with the last sale day and the stock at cost.';
revoke all on function public.report_slow_movers(uuid,uuid,integer,numeric,integer) from public;
grant execute on function public.report_slow_movers(uuid,uuid,integer,numeric,integer) to authenticated;

-- The flagged shifts of a business (optionally one store), newest first, without or with those already reviewed:
-- register, cashier, opened and closed, totals (shift_totals), and the shift each overlapped.
-- Security invoker: row level security on shifts, shift_totals and shift_reviews limits a manager to their stores.
create or replace function public.flagged_shifts(_business_id uuid, _store_id uuid default null,
                                                 _include_reviewed boolean default false,
                                                 _limit integer default 50, _offset integer default 0)
returns table (shift_id uuid, store_id uuid, store_name text, register_name text, cashier_name text,
               opened_at timestamptz, closed_at timestamptz, opening_float bigint, sales_count bigint, gross bigint,
               expected_cash bigint, counted_total bigint, difference bigint, currency text, review_reasons text[],
               other_shift_id uuid, other_cashier_name text, other_opened_at timestamptz, other_closed_at timestamptz,
               reviewed_at timestamptz, reviewer_name text, reason text, total_count bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if _limit is null or _limit < 1 or _limit > 200 or _offset is null or _offset < 0 then
    raise exception 'ask for 1 to 200 shifts from offset 0 or more' using errcode = '22023';
  end if;
  return query
    select s.id, s.store_id, st.name::text, rg.name::text, n.name, s.opened_at, s.closed_at, s.opening_float,
           coalesce(t.sales_count, 0), coalesce(t.gross, 0), s.expected_cash, s.counted_total, s.difference,
           st.currency::text, s.review_reasons, o.id, on_.name, o.opened_at, o.closed_at,
           r.reviewed_at, rn.name, r.reason, count(*) over ()
      from public.shifts s
      join public.stores st on st.id = s.store_id
      join public.registers rg on rg.id = s.register_id
      left join public.shift_totals t on t.shift_id = s.id
      left join public.shift_reviews r on r.shift_id = s.id
      left join lateral (select substr(x, 15)::uuid as id from unnest(s.review_reasons) x
                          where x ~ '^open_conflict:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                          limit 1) oc on true
      left join public.shifts o on o.id = oc.id
      left join private.member_names(_business_id) n on n.user_id = s.cashier_id
      left join private.member_names(_business_id) on_ on on_.user_id = o.cashier_id
      left join private.member_names(_business_id) rn on rn.user_id = r.reviewed_by
     where s.business_id = _business_id
       and s.opened_in_conflict
       and (_store_id is null or s.store_id = _store_id)
       and (_include_reviewed or r.shift_id is null)
     order by s.opened_at desc, s.id
     limit _limit offset _offset;
end;
$$;
revoke all on function public.flagged_shifts(uuid,uuid,boolean,integer,integer) from public;
grant execute on function public.flagged_shifts(uuid,uuid,boolean,integer,integer) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The _per_list variants with the most units in each store and month given, with the list's frontier: the
-- lowest units read when the list holds _per_list rows (a variant not read sold at most that), else 0.
create or replace function private.monthly_units_top(_business_id uuid, _stores uuid[], _months date[], _per_list int)
returns table (store_id uuid, month date, variant_id uuid, frontier numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  select t.store_id, t.month, t.variant_id,
         case when count(*) over (partition by t.store_id, t.month) < _per_list then 0
              else min(t.units) over (partition by t.store_id, t.month) end
    from unnest(_stores) as s (id)
    cross join unnest(_months) as mo (month)
    cross join lateral (select m.store_id, m.month, m.variant_id, m.units from public.sales_monthly_variant m
                         where m.store_id = s.id and m.month = mo.month and m.business_id = _business_id
                         order by m.units desc limit _per_list) t;
$$;
revoke all on function private.monthly_units_top(uuid,uuid[],date[],integer) from public;
grant execute on function private.monthly_units_top(uuid,uuid[],date[],integer) to authenticated;

-- The first _count pairs on hand of the given stores in the report's last order (SKU, then store): a variant
-- index walk that stops at _count. PL/pgSQL so that the statement is planned with the values (a SQL function's
-- generic plan sorted every variant of the business: 554 against 131 ms at 100,000 variants).
create or replace function private.stock_pairs_by_sku(_business_id uuid, _stores uuid[], _count int)
returns table (store_id uuid, variant_id uuid, on_hand numeric)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
  select p.store_id, p.variant_id, p.on_hand
    from public.variants v
    cross join lateral (select sp.store_id, sp.variant_id, sp.on_hand from public.stock_pairs sp
                         where sp.variant_id = v.id and sp.store_id = any (_stores) and sp.business_id = _business_id
                           and sp.on_hand > 0) p
   where v.business_id = _business_id
   order by v.sku, p.store_id
   limit _count;
end;
$$;
revoke all on function private.stock_pairs_by_sku(uuid,uuid[],integer) from public;
grant execute on function private.stock_pairs_by_sku(uuid,uuid[],integer) to authenticated;

-- Best first over a range with few sales (a day, a week; at most _rows daily rows), from its sold pairs aggregated
-- (units exact, no on hand yet). Nothing when the range has more rows.
-- * At least _limit selling: the K selling the most units (_top, else max(4 x _limit, 200); tests give fewer) are
--   checked with their on hand; theta is the _limit-th best sell-through among them. Any other selling pair sold at most the K-th units u, so it reaches theta only
--   with on hand at most u x (1 - theta) / theta: those pairs are read from stock_pairs (by on hand) and kept when
--   they sold. Too many of them (more than _rows): every selling pair with its on hand.
-- * Fewer than _limit selling: every pair sold or refunded, and the first pairs on hand by SKU and store (the
--   order of the pairs that did not sell: sell-through 0, revenue 0).
create or replace function private.sell_through_few(_business_id uuid, _from date, _to date, _stores uuid[],
                                                    _store_id uuid, _limit int, _rows int, _top int default null)
returns table (store_id uuid, variant_id uuid, units numeric, on_hand numeric, revenue bigint, last_day date)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_top int := greatest(coalesce(_top, greatest(_limit * 4, 200)), 1);
  v_stores uuid[];
  v_variants uuid[];
  v_units numeric[];
  v_revenue bigint[];
  v_last date[];
  v_selling int;
  v_top_stores uuid[];
  v_top_variants uuid[];
  v_top_units numeric[];
  v_top_on_hand numeric[];
  v_top_revenue bigint[];
  v_top_last date[];
  v_theta numeric;
  v_units_bound numeric;
  v_low int;
  v_low_stores uuid[];
  v_low_variants uuid[];
  v_low_on_hand numeric[];
begin
  if (select count(*) from (select 1 from public.sales_daily_variant d
                              where d.business_id = _business_id and d.store_id = any (_stores)
                                and d.day between _from and _to and d.lines > 0
                              limit _rows + 1) d) > _rows then
    return;
  end if;
  select array_agg(s.store_id), array_agg(s.variant_id), array_agg(s.units), array_agg(s.revenue),
         array_agg(s.last_day), count(*) filter (where s.units > 0)
    into v_stores, v_variants, v_units, v_revenue, v_last, v_selling
    from private.sell_through_sold(_business_id, _from, _to, _store_id) s
   where s.store_id = any (_stores);
  if v_selling >= _limit then
    -- The K selling the most units (ties at the K-th included) with their on hand: theta and the K-th units.
    select array_agg(t.store_id), array_agg(t.variant_id), array_agg(t.units), array_agg(t.on_hand),
           array_agg(t.revenue), array_agg(t.last_day), (array_agg(t.ratio order by t.ratio desc))[_limit],
           min(t.units)
      into v_top_stores, v_top_variants, v_top_units, v_top_on_hand, v_top_revenue, v_top_last, v_theta,
           v_units_bound
      from (select k.store_id, k.variant_id, k.units, p.on_hand, k.revenue, k.last_day,
                   k.units / (k.units + greatest(p.on_hand, 0)) as ratio
              from unnest(v_stores, v_variants, v_units, v_revenue, v_last)
                     as k (store_id, variant_id, units, revenue, last_day)
              cross join lateral (select p.on_hand from public.stock_pairs p
                  where p.store_id = k.store_id and p.variant_id = k.variant_id and p.business_id = _business_id
                  limit 1) p
             where k.units >= (select min(u.units) from (select u.units from unnest(v_units) as u (units)
                                                           where u.units > 0 order by u.units desc limit v_top) u)) t;
    if v_theta is not null then
      select count(*), array_agg(b.store_id), array_agg(b.variant_id), array_agg(b.on_hand)
        into v_low, v_low_stores, v_low_variants, v_low_on_hand
        from private.stock_pairs_at_most(_business_id, _store_id, _stores,
                                         array_fill(v_units_bound * (1 - v_theta) / v_theta + 0.001,
                                                    array[cardinality(_stores)]), _rows) b;
      if v_low <= _rows then
        return query
          select * from unnest(v_top_stores, v_top_variants, v_top_units, v_top_on_hand, v_top_revenue, v_top_last)
          union all
          select k.store_id, k.variant_id, k.units, b.on_hand, k.revenue, k.last_day
            from unnest(v_low_stores, v_low_variants, v_low_on_hand) as b (store_id, variant_id, on_hand)
            join unnest(v_stores, v_variants, v_units, v_revenue, v_last)
                   as k (store_id, variant_id, units, revenue, last_day)
              on k.store_id = b.store_id and k.variant_id = b.variant_id
           where k.units > 0 and k.units < v_units_bound;
        return;
      end if;
    end if;
  end if;
  return query
    with figures as materialized (
      select k.store_id, k.variant_id, k.units, p.on_hand, k.revenue, k.last_day
        from unnest(v_stores, v_variants, v_units, v_revenue, v_last)
               as k (store_id, variant_id, units, revenue, last_day)
        cross join lateral (select p.on_hand from public.stock_pairs p
            where p.store_id = k.store_id and p.variant_id = k.variant_id and p.business_id = _business_id
            limit 1) p
    )
    select * from figures
    union all
    select w.store_id, w.variant_id, 0::numeric, w.on_hand, 0::bigint, null::date
      from private.stock_pairs_by_sku(_business_id, _stores, _limit + (select count(*)::int from figures)) w
     where (select count(*) from figures f where f.units > 0) < _limit
       and not exists (select 1 from figures f where f.store_id = w.store_id and f.variant_id = w.variant_id);
end;
$$;
revoke all on function private.sell_through_few(uuid,date,date,uuid[],uuid,integer,integer,integer) from public;
grant execute on function private.sell_through_few(uuid,date,date,uuid[],uuid,integer,integer,integer) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- A page of sell-through from candidate pairs (the fast paths'), in the report's order; only the rows that can be
-- on the page (fewer than _limit before them on the keys ahead of the SKU) are joined to the catalog.
create or replace function private.sell_through_page(_worst boolean, _limit int, _stores uuid[], _variants uuid[],
                                                     _units numeric[], _on_hand numeric[], _revenue bigint[],
                                                     _last date[])
returns table (store_id uuid, variant_id uuid, sku text, product_name text, units_sold numeric, on_hand_end numeric,
               sell_through numeric, revenue bigint, last_sold_on date)
language sql
stable
security invoker
set search_path = ''
as $$
  with x as (
    select k.store_id, k.variant_id, k.units, greatest(k.on_hand, 0) as on_hand, k.revenue, k.last_day,
           case when k.units + greatest(k.on_hand, 0) <= 0 then null
                else greatest(k.units, 0) / (greatest(k.units, 0) + greatest(k.on_hand, 0)) end as ratio
      from unnest(_stores, _variants, _units, _on_hand, _revenue, _last)
             as k (store_id, variant_id, units, on_hand, revenue, last_day)
     where k.units <> 0 or k.on_hand > 0
  ),
  page as (
    select x.*, rank() over (order by case when _worst then coalesce(x.ratio, 0) end asc,
                                      case when not _worst then x.ratio end desc nulls last,
                                      case when _worst then x.on_hand end desc, x.revenue desc) as n
      from x
  )
  select x.store_id, x.variant_id, v.sku, p.name, x.units, x.on_hand, round(x.ratio, 4), x.revenue, x.last_day
    from page x
    join public.variants v on v.id = x.variant_id
    join public.products p on p.id = v.product_id
   where x.n <= _limit
   order by case when _worst then coalesce(x.ratio, 0) end asc,
            case when not _worst then x.ratio end desc nulls last,
            case when _worst then x.on_hand end desc, x.revenue desc, v.sku, x.store_id
   limit _limit;
$$;
revoke all on function private.sell_through_page(boolean,integer,uuid[],uuid[],numeric[],numeric[],bigint[],date[]) from public;
grant execute on function private.sell_through_page(boolean,integer,uuid[],uuid[],numeric[],numeric[],bigint[],date[]) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The full ranking of 20261126100000's report_sell_through, moved here so that later changes redefine only what
-- they change. Two differences: only pairs with a stock record (see above), and on hand of the pairs selling read
-- from stock_pairs (one row a pair) rather than summed over their lots.
create or replace function private.sell_through_ranked(_business_id uuid, _from date, _to date, _store_id uuid,
                                                       _worst boolean, _limit int)
returns table (store_id uuid, variant_id uuid, sku text, product_name text, units_sold numeric, on_hand_end numeric,
               sell_through numeric, revenue bigint, last_sold_on date)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
-- The range's sold pairs are aggregated in memory (at the default 4 MB the hash spilled to disk at 200,000 lines,
-- ADR 0166).
set work_mem = '32MB'
as $$
#variable_conflict use_column
declare
  v_stores uuid[];
  v_variants uuid[];
  v_units numeric[];
  v_revenue bigint[];
  v_last date[];
begin
  select array_agg(s.store_id), array_agg(s.variant_id), array_agg(s.units), array_agg(s.revenue),
         array_agg(s.last_day)
    into v_stores, v_variants, v_units, v_revenue, v_last
    from private.sell_through_sold(_business_id, _from, _to, _store_id) s;
  return query
    with sold as (
      select * from unnest(v_stores, v_variants, v_units, v_revenue, v_last)
                      as so (store_id, variant_id, units, revenue, last_day)
    ),
    later as (
      select * from private.stock_moved_after(_business_id, _to, _store_id)
    ),
    -- Best first with enough pairs selling: those pairs and their stock only (one index probe each).
    selling as materialized (
      select so.store_id, so.variant_id, so.units, greatest(p.on_hand - coalesce(l.qty, 0), 0) as on_hand,
             so.revenue, so.last_day
        from sold so
        join public.stock_pairs p
          on p.store_id = so.store_id and p.variant_id = so.variant_id and p.business_id = _business_id
        left join later l on l.store_id = so.store_id and l.variant_id = so.variant_id
       where so.units > 0 and _worst is false
    ),
    -- Otherwise every pair with a stock record, sold or on hand at the end of the range.
    stock as (
      select k.store_id, k.variant_id, sum(k.qty) as qty
        from (select b.store_id, b.variant_id, b.qty
                from public.stock_balances b
               where b.business_id = _business_id and (_store_id is null or b.store_id = _store_id)
              union all
              select l.store_id, l.variant_id, -l.qty from later l) k
       group by 1, 2
    ),
    everything as (
      select sk.store_id, sk.variant_id, coalesce(so.units, 0) as units, greatest(sk.qty, 0) as on_hand,
             coalesce(so.revenue, 0) as revenue, so.last_day
        from stock sk left join sold so on so.store_id = sk.store_id and so.variant_id = sk.variant_id
    ),
    enough as (
      select count(*) >= _limit as yes from selling
    ),
    x as (
      select * from selling where (select yes from enough)
      union all
      select * from everything where not (select yes from enough)
    ),
    -- The order's keys before the SKU: a row of the page has fewer than _limit rows before it on them, so its
    -- rank is at most _limit; only those rows are joined to the catalog.
    ranked as (
      select x.*, case when x.units + x.on_hand <= 0 then null
                       else greatest(x.units, 0) / (greatest(x.units, 0) + x.on_hand) end as ratio
        from x
       where x.units <> 0 or x.on_hand > 0
    ),
    page as (
      select r.*, rank() over (order by case when _worst then coalesce(r.ratio, 0) end asc,
                                        case when not _worst then r.ratio end desc nulls last,
                                        case when _worst then r.on_hand end desc, r.revenue desc) as n
        from ranked r
    )
    select x.store_id, x.variant_id, v.sku, p.name, x.units, x.on_hand, round(x.ratio, 4), x.revenue, x.last_day
      from page x
      join public.variants v on v.id = x.variant_id
      join public.products p on p.id = v.product_id
     where x.n <= _limit
     order by case when _worst then coalesce(x.ratio, 0) end asc,
              case when not _worst then x.ratio end desc nulls last,
              case when _worst then x.on_hand end desc, x.revenue desc, v.sku, x.store_id
     limit _limit;
end;
$$;
revoke all on function private.sell_through_ranked(uuid,date,date,uuid,boolean,integer) from public;
grant execute on function private.sell_through_ranked(uuid,date,date,uuid,boolean,integer) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Sell-through (same signature, columns and order as in 20261126100000): a fast path for each order, else the
-- full ranking.
create or replace function public.report_sell_through(_business_id uuid, _from date, _to date,
                                                      _store_id uuid default null, _worst boolean default false,
                                                      _limit int default 50)
returns table (store_id uuid, variant_id uuid, sku text, product_name text, units_sold numeric, on_hand_end numeric,
               sell_through numeric, revenue bigint, last_sold_on date)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
set plan_cache_mode = force_custom_plan
as $$
#variable_conflict use_column
declare
  v_limit int := least(greatest(coalesce(_limit, 50), 1), 500);
  v_stores uuid[];
  v_variants uuid[];
  v_units numeric[];
  v_on_hand numeric[];
  v_revenue bigint[];
  v_last date[];
begin
  perform private.report_args(_business_id, _from, _to, null);
  _worst := coalesce(_worst, false);
  -- Each fast path returns at least a page of candidates when it decides, nothing otherwise (only the one of the
  -- order asked runs: its condition is a one-time filter).
  select array_agg(u.store_id), array_agg(u.variant_id), array_agg(u.units), array_agg(u.on_hand),
         array_agg(u.revenue), array_agg(u.last_day)
    into v_stores, v_variants, v_units, v_on_hand, v_revenue, v_last
    from (select * from private.sell_through_unsold(_business_id, _from, _to, _store_id, v_limit) where _worst
          union all
          select * from private.sell_through_selling(_business_id, _from, _to, _store_id, v_limit) where not _worst) u;
  if coalesce(cardinality(v_stores), 0) >= v_limit then
    return query select * from private.sell_through_page(_worst, v_limit, v_stores, v_variants,
                                                        v_units, v_on_hand, v_revenue, v_last);
    return;
  end if;
  return query select * from private.sell_through_ranked(_business_id, _from, _to, _store_id, _worst, v_limit);
end;
$$;
comment on function public.report_sell_through(uuid,date,date,uuid,boolean,integer) is 'Owners and managers only: per variant and store with a stock record, units sold net of refunds in the range, on hand at the end of the range (ledger), sell-through = sold / (sold + on hand); best or worst (_worst) first, limit 1..500 (ADR 0144, 0166, 0170).';
revoke all on function public.report_sell_through(uuid,date,date,uuid,boolean,integer) from public;
grant execute on function public.report_sell_through(uuid,date,date,uuid,boolean,integer) to authenticated;

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
revoke all on function public.review_shift(uuid,text) from public;
grant execute on function public.review_shift(uuid,text) to authenticated;

create or replace function public.report_profit(_business_id uuid, _from date, _to date, _grain text default 'day',
                                                _store_id uuid default null)
returns table (period date, store_id uuid, revenue bigint, cost bigint, profit bigint, margin numeric,
               lines_without_cost bigint)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
set plan_cache_mode = force_custom_plan
as $$
begin
  perform private.report_args(_business_id, _from, _to, _grain);
  return query
    with b as (
      select date_trunc(_grain, d.day)::date as period, d.store_id,
             (sum(d.gross) - sum(d.refunds) - sum(d.tax))::bigint as revenue, sum(d.cost)::bigint as cost
        from public.sales_daily_breakdown d
       where d.business_id = _business_id and d.dimension = 'store'
         and (_store_id is null or d.store_id = _store_id)
         and d.day between _from and _to
       group by 1, 2
    ), m as (
      select date_trunc(_grain, d.day)::date as period, d.store_id, sum(d.lines_without_cost)::bigint as missing
        from public.sales_daily d
       where d.business_id = _business_id
         and (_store_id is null or d.store_id = _store_id)
         and d.day between _from and _to
       group by 1, 2
    )
    select b.period, b.store_id, b.revenue, b.cost, b.revenue - b.cost,
           case when b.revenue = 0 then null else round((b.revenue - b.cost)::numeric / b.revenue, 4) end,
           coalesce(m.missing, 0)
      from b left join m on m.period = b.period and m.store_id = b.store_id
     order by 1, 2;
end;
$$;
comment on function public.report_profit(uuid,date,date,text,uuid) is 'Owners and managers only (42501 otherwise): net sales (revenue less tax, discounts and refunds), cost (less restocked refunds), gross profit and margin per period and store, refunds on the day they happened: the figures of report_sales_by and the Overview (ADR 0172). lines_without_cost counts lines sold without a recorded cost (counted at 0).';
revoke all on function public.report_profit(uuid,date,date,text,uuid) from public;
grant execute on function public.report_profit(uuid,date,date,text,uuid) to authenticated;

create or replace function private.sales_summaries_costs_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.sales_daily as d (business_id, store_id, day, cost, lines_without_cost)
  select s.business_id, s.store_id, (s.occurred_at at time zone st.time_zone)::date, sum(round(l.qty * n.unit_cost)), -count(*)
    from new_rows n
    join public.sale_lines l on l.id = n.sale_line_id and l.business_id = n.business_id
    join public.sales s on s.id = l.sale_id
    join public.stores st on st.id = s.store_id
   group by 1, 2, 3
  on conflict (store_id, day) do update
    set cost = d.cost + excluded.cost, lines_without_cost = d.lines_without_cost + excluded.lines_without_cost;
  insert into public.sales_daily_variant as d (business_id, store_id, day, variant_id, description, cost,
                                               lines_without_cost)
  select s.business_id, s.store_id, (s.occurred_at at time zone st.time_zone)::date, l.variant_id, max(l.description),
         sum(round(l.qty * n.unit_cost)), -count(*)
    from new_rows n
    join public.sale_lines l on l.id = n.sale_line_id and l.business_id = n.business_id
    join public.sales s on s.id = l.sale_id
    join public.stores st on st.id = s.store_id
   group by 1, 2, 3, 4
  on conflict (store_id, day, variant_id) do update
    set cost = d.cost + excluded.cost, lines_without_cost = d.lines_without_cost + excluded.lines_without_cost;
  return null;
end;
$$;
revoke all on function private.sales_summaries_costs_inserted() from public;

create or replace function private.compute_sales_summaries_daily(_business_id uuid, _stores uuid[] default null,
                                                           _days date[] default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if _stores is null then
    delete from public.sales_daily d where d.business_id = _business_id;
    delete from public.sales_daily_tax d where d.business_id = _business_id;
    delete from public.sales_daily_variant d where d.business_id = _business_id;
  else
    delete from public.sales_daily d using unnest(_stores, _days) as k (store_id, day)
     where d.store_id = k.store_id and d.day = k.day;
    delete from public.sales_daily_tax d using unnest(_stores, _days) as k (store_id, day)
     where d.store_id = k.store_id and d.day = k.day;
    delete from public.sales_daily_variant d using unnest(_stores, _days) as k (store_id, day)
     where d.store_id = k.store_id and d.day = k.day;
  end if;

  insert into public.sales_daily (business_id, store_id, day, receipts, gross, discounts, tax)
  select x.business_id, x.store_id, x.day, count(*), sum(s.total), sum(s.discount_total), sum(s.tax_total)
    from private.sales_summary_scope(_business_id, _stores, _days) x join public.sales s on s.id = x.sale_id
   group by 1, 2, 3;
  insert into public.sales_daily as d (business_id, store_id, day, lines, units, revenue, cost, lines_without_cost)
  select x.business_id, x.store_id, x.day, count(*), sum(l.qty), sum(l.line_total - l.tax_amount),
         sum(round(l.qty * coalesce(c.unit_cost, 0))), count(*) filter (where c.sale_line_id is null)
    from private.sales_summary_scope(_business_id, _stores, _days) x
    join public.sale_lines l on l.sale_id = x.sale_id and l.business_id = x.business_id
    left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
   group by 1, 2, 3
  on conflict (store_id, day) do update
    set lines = excluded.lines, units = excluded.units, revenue = excluded.revenue, cost = excluded.cost,
        lines_without_cost = excluded.lines_without_cost;
  insert into public.sales_daily_tax (business_id, store_id, day, tax_rate, lines, taxable, tax)
  select x.business_id, x.store_id, x.day, l.tax_rate, count(*), sum(l.line_total - l.tax_amount), sum(l.tax_amount)
    from private.sales_summary_scope(_business_id, _stores, _days) x
    join public.sale_lines l on l.sale_id = x.sale_id and l.business_id = x.business_id
   group by 1, 2, 3, 4;
  insert into public.sales_daily_variant (business_id, store_id, day, variant_id, description, lines, units, revenue,
                                          cost, lines_without_cost)
  select x.business_id, x.store_id, x.day, l.variant_id, max(l.description), count(*), sum(l.qty),
         sum(l.line_total - l.tax_amount), sum(round(l.qty * coalesce(c.unit_cost, 0))),
         count(*) filter (where c.sale_line_id is null)
    from private.sales_summary_scope(_business_id, _stores, _days) x
    join public.sale_lines l on l.sale_id = x.sale_id and l.business_id = x.business_id
    left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
   group by 1, 2, 3, 4;

  -- Refunds on their own day.
  insert into public.sales_daily as d (business_id, store_id, day, refunds, refund_count)
  select r.business_id, r.store_id, (r.occurred_at at time zone st.time_zone)::date, sum(r.total), count(*)
    from public.refunds r join public.stores st on st.id = r.store_id
   where (_stores is null and r.business_id = _business_id)
      or (_stores is not null and exists (
            select 1 from unnest(_stores, _days) as k (store_id, day)
             where k.store_id = r.store_id
               and r.occurred_at >= (k.day::timestamp at time zone st.time_zone)
               and r.occurred_at < ((k.day + 1)::timestamp at time zone st.time_zone)))
   group by 1, 2, 3
  on conflict (store_id, day) do update set refunds = excluded.refunds, refund_count = excluded.refund_count;
end;
$$;
revoke all on function private.compute_sales_summaries_daily(uuid,uuid[],date[]) from public;

-- ---------------------------------------------------------------------------------------------------
-- Sell-through per collection: the same figures as report_sell_through (units sold net of refunds in the range,
-- on hand at the end of the range from the ledger, sold / (sold + on hand)), summed over each collection's
-- variants. Security invoker: RLS limits a manager to the stores they may use; cashiers are refused (42501) by
-- report_args, so nobody without the reports sees these figures (no cost figure is returned at all).
create or replace function public.report_collection_sell_through(_business_id uuid, _from date, _to date,
                                                                 _store_id uuid default null)
returns table (collection_id uuid, name text, season_code text, starts_on date, ends_on date, products bigint,
               units_sold numeric, on_hand_end numeric, sell_through numeric, revenue bigint)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
set plan_cache_mode = force_custom_plan
as $$
#variable_conflict use_column
begin
  perform private.report_args(_business_id, _from, _to, null);
  return query
    with items as (
      select c.id as collection_id, v.id as variant_id, p.id as product_id
        from public.collections c
        join public.products p on p.collection_id = c.id and p.business_id = c.business_id
        join public.variants v on v.product_id = p.id and v.business_id = p.business_id
       where c.business_id = _business_id
    ),
    sold as (
      select s.variant_id, sum(s.units) as units, sum(s.revenue) as revenue
        from private.sell_through_sold(_business_id, _from, _to, _store_id) s
       where s.variant_id in (select i.variant_id from items i)
       group by 1
    ),
    stock as (
      select k.store_id, k.variant_id, sum(k.qty) as qty
        from (select b.store_id, b.variant_id, b.qty
                from public.stock_balances b
               where b.business_id = _business_id and (_store_id is null or b.store_id = _store_id)
                 and b.variant_id in (select i.variant_id from items i)
              union all
              select l.store_id, l.variant_id, -l.qty
                from private.stock_moved_after(_business_id, _to, _store_id) l
               where l.variant_id in (select i.variant_id from items i)) k
       group by 1, 2
    ),
    on_hand as (
      select s.variant_id, sum(greatest(s.qty, 0)) as qty from stock s group by 1
    ),
    per as (
      select i.collection_id, count(distinct i.product_id) as products,
             coalesce(sum(greatest(so.units, 0)), 0) as units, coalesce(sum(oh.qty), 0) as on_hand,
             coalesce(sum(so.revenue), 0)::bigint as revenue
        from items i
        left join sold so on so.variant_id = i.variant_id
        left join on_hand oh on oh.variant_id = i.variant_id
       group by 1
    )
    select c.id, c.name, c.season_code, c.starts_on, c.ends_on, coalesce(x.products, 0)::bigint,
           coalesce(x.units, 0), coalesce(x.on_hand, 0),
           case when coalesce(x.units, 0) + coalesce(x.on_hand, 0) <= 0 then null
                else round(x.units / (x.units + x.on_hand), 4) end,
           coalesce(x.revenue, 0)::bigint
      from public.collections c
      left join per x on x.collection_id = c.id
     where c.business_id = _business_id
     order by c.starts_on desc nulls last, c.name;
end;
$$;
comment on function public.report_collection_sell_through(uuid,date,date,uuid) is 'Owners and managers only (42501 otherwise; RLS limits managers to their stores): per collection, units sold net of refunds in the range, on hand at the end of the range, sell-through = sold / (sold + on hand), revenue net of tax (ADR 0340).';
revoke all on function public.report_collection_sell_through(uuid,date,date,uuid) from public;
grant execute on function public.report_collection_sell_through(uuid,date,date,uuid) to authenticated;

-- A manager could clear the flag of a sale rung at their own till under a PIN switch: the sale names the person
-- switched in (sales.cashier_id), so the second-reviewer rule looked only at them (review of 20261202120000). The
-- person signed in at the till (the switch's signed_in_user_id) is now a subject too: neither reviews the sale
-- unless they are the owner. review_sale as in the schema otherwise.
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
  if v_sale.till_switch_id is not null then
    perform private.assert_second_reviewer(v_business,
      (select t.signed_in_user_id from public.till_switches t where t.id = v_sale.till_switch_id));
  end if;
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
revoke all on function public.review_sale(uuid,text) from public;
grant execute on function public.review_sale(uuid,text) to authenticated;

create or replace function public.report_top_products(_business_id uuid, _from date, _to date,
                                                      _store_id uuid default null, _worst boolean default false,
                                                      _limit int default 10)
returns table (variant_id uuid, description text, units numeric, revenue bigint, profit bigint)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
set plan_cache_mode = force_custom_plan
as $$
#variable_conflict use_column
declare
  v_limit int := least(greatest(coalesce(_limit, 10), 1), 100);
  v_listed int;
begin
  perform private.report_args(_business_id, _from, _to, null);
  return query
    with ranked as materialized (
      select t.variant_id, t.revenue, t.units, t.cost, false as unsold, t.n
        from private.top_sellers(_business_id, _from, _to, _store_id, v_limit)
             with ordinality as t (variant_id, revenue, units, cost, n)
       where not coalesce(_worst, false)
      union all
      select w.variant_id, w.revenue, w.units, w.cost, w.unsold, w.n
        from private.worst_sellers(_business_id, _from, _to, _store_id, v_limit)
             with ordinality as w (variant_id, revenue, units, cost, unsold, n)
       where coalesce(_worst, false)
    ), back as (
      select b.* from private.variant_refunds(_business_id, _from, _to, _store_id,
                                              coalesce((select array_agg(r.variant_id) from ranked r), '{}')) b
    )
    select r.variant_id,
           case when r.unsold then private.variant_description(r.variant_id)
                else (select d.description from public.sales_daily_variant d
                       where d.variant_id = r.variant_id and d.business_id = _business_id
                         and (_store_id is null or d.store_id = _store_id) and d.day between _from and _to
                       order by d.day desc, d.description desc limit 1) end,
           r.units - coalesce(b.units, 0),
           (r.revenue - coalesce(b.revenue, 0))::bigint,
           ((r.revenue - coalesce(b.revenue, 0)) - (round(r.cost) - coalesce(b.cost, 0)))::bigint
      from ranked r
      left join back b on b.variant_id = r.variant_id
     order by r.n;
  get diagnostics v_listed = row_count;
  if coalesce(_worst, false) or v_listed >= v_limit then
    return;
  end if;
  -- The list holds every item sold in the range; the items only refunded in it follow.
  return query
    select b.variant_id, private.variant_description(b.variant_id), -b.units, (-b.revenue)::bigint,
           (-b.revenue + b.cost)::bigint
      from private.variant_refunds(_business_id, _from, _to, _store_id, null) b
     where not exists (select from public.sales_daily_variant d
                        where d.variant_id = b.variant_id and d.business_id = _business_id
                          and (_store_id is null or d.store_id = _store_id) and d.day between _from and _to)
     order by -b.revenue desc, b.variant_id
     limit v_limit - v_listed;
end;
$$;
comment on function public.report_top_products(uuid,date,date,uuid,boolean,integer) is 'Owners and managers only (42501 otherwise): the variants sold in the range, best (or worst, _worst) first by sales revenue net of tax, with units, net sales and gross profit net of the refunds of the range (ADR 0172); limit 1..100. When the best-first list has room, the items only refunded in the range follow it with negative figures. Worst first lists items on sale that did not sell first.';
revoke all on function public.report_top_products(uuid,date,date,uuid,boolean,integer) from public;
grant execute on function public.report_top_products(uuid,date,date,uuid,boolean,integer) to authenticated;

create or replace function public.flagged_cash_movements(_business_id uuid, _store_id uuid default null,
                                                         _limit integer default 50, _offset integer default 0)
returns table (movement_id uuid, store_id uuid, store_name text, register_name text, shift_id uuid, kind text,
               amount bigint, currency text, reason text, actor_name text, claimed_name text, at timestamptz,
               review_reasons text[], total_count bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if _limit is null or _limit < 1 or _limit > 200 or _offset is null or _offset < 0 then
    raise exception 'ask for 1 to 200 cash movements from offset 0 or more' using errcode = '22023';
  end if;
  return query
    select m.id, m.store_id, st.name::text, r.name::text, m.shift_id, m.kind, m.amount, st.currency::text,
           m.reason::text, n.name, cn.name, m.at, m.review_reasons, count(*) over ()
      from public.cash_movements m
      join public.stores st on st.id = m.store_id
      join public.shifts sh on sh.id = m.shift_id
      left join public.registers r on r.id = sh.register_id
      left join public.till_switches ts on ts.id = m.till_switch_id
      left join private.member_names(_business_id) n on n.user_id = m.actor_id
      left join private.member_names(_business_id) cn on cn.user_id = ts.user_id
     where m.business_id = _business_id
       and cardinality(m.review_reasons) > 0
       and (_store_id is null or m.store_id = _store_id)
     order by m.at desc, m.id
     limit _limit offset _offset;
end;
$$;
comment on function public.flagged_cash_movements(uuid,uuid,integer,integer) is 'Owners and managers: cash in and out flagged for review (till_switch_unverified), newest first, with who, where, how much and why (ADR 0402).';
revoke all on function public.flagged_cash_movements(uuid,uuid,integer,integer) from public;
grant execute on function public.flagged_cash_movements(uuid,uuid,integer,integer) to authenticated;

-- Issue 32, ADR 0426: recomputing a few shifts' Z-report totals reads those shifts, not every sale of the database.
-- shift_totals_changed (20261125100000_report_stock_shift_speed) calls compute_shift_totals(null, shifts) after any
-- update or delete of sales, tenders, refunds or cash movements (post_sale flags a sale for review with an update).
-- Its one statement grouped every sale, tender, refund and cash movement of every business and then kept the asked
-- shifts: 2.6 s for one shift at 55,000 sales under load, and a statement timeout in post_sale while 10 registers
-- posted at 100 stores. Now, for given shifts, each total is an aggregate over that shift's rows through the shift
-- indexes (sales, refunds and cash movements by shift_id, tenders by sale_id); for a whole business or the whole
-- database (_shifts null: the backfill and refresh_stock_summaries_base) the grouped statement stays as it was. Same
-- signature, same rows. PL/pgSQL so that each branch is planned for its own case (one SQL statement with
-- "_shifts is null or ..." gets a generic plan that reads shift_totals in full to delete one row).
create or replace function private.compute_shift_totals(_business_id uuid, _shifts uuid[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if _shifts is null then
    delete from public.shift_totals t where _business_id is null or t.business_id = _business_id;
    insert into public.shift_totals (shift_id, business_id, store_id, sales_count, gross, cash, card, other, refunds,
                                     cash_refunds, cash_in, cash_out)
    select sh.id, sh.business_id, sh.store_id, coalesce(sa.n, 0), coalesce(sa.gross, 0), coalesce(te.cash, 0),
           coalesce(te.card, 0), coalesce(te.other, 0), coalesce(re.total, 0), coalesce(re.cash, 0),
           coalesce(cm.cash_in, 0), coalesce(cm.cash_out, 0)
      from public.shifts sh
      left join (select x.shift_id, count(*) as n, sum(x.total) as gross from public.sales x group by 1) sa on sa.shift_id = sh.id
      left join (select x.shift_id, sum(t.amount) filter (where t.kind = 'cash') as cash,
                        sum(t.amount) filter (where t.kind = 'card') as card,
                        sum(t.amount) filter (where t.kind = 'other') as other
                   from public.sales x join public.sale_tenders t on t.sale_id = x.id group by 1) te on te.shift_id = sh.id
      left join (select r.shift_id, sum(r.total) as total, sum(r.total) filter (where r.tender_kind = 'cash') as cash
                   from public.refunds r group by 1) re on re.shift_id = sh.id
      left join (select m.shift_id, sum(m.amount) filter (where m.kind = 'in') as cash_in,
                        sum(m.amount) filter (where m.kind = 'out') as cash_out
                   from public.cash_movements m group by 1) cm on cm.shift_id = sh.id
     where _business_id is null or sh.business_id = _business_id;
    return;
  end if;
  delete from public.shift_totals t
   where t.shift_id = any (_shifts) and (_business_id is null or t.business_id = _business_id);
  insert into public.shift_totals (shift_id, business_id, store_id, sales_count, gross, cash, card, other, refunds,
                                   cash_refunds, cash_in, cash_out)
  select sh.id, sh.business_id, sh.store_id, sa.n, coalesce(sa.gross, 0), coalesce(te.cash, 0),
         coalesce(te.card, 0), coalesce(te.other, 0), coalesce(re.total, 0), coalesce(re.cash, 0),
         coalesce(cm.cash_in, 0), coalesce(cm.cash_out, 0)
    from public.shifts sh
    -- An aggregate without group by gives one row also for a shift without rows: count 0, sums null.
    cross join lateral (select count(*) as n, sum(x.total) as gross from public.sales x
                         where x.shift_id = sh.id) sa
    cross join lateral (select sum(t.amount) filter (where t.kind = 'cash') as cash,
                               sum(t.amount) filter (where t.kind = 'card') as card,
                               sum(t.amount) filter (where t.kind = 'other') as other
                          from public.sales x join public.sale_tenders t on t.sale_id = x.id
                         where x.shift_id = sh.id) te
    cross join lateral (select sum(r.total) as total, sum(r.total) filter (where r.tender_kind = 'cash') as cash
                          from public.refunds r where r.shift_id = sh.id) re
    cross join lateral (select sum(m.amount) filter (where m.kind = 'in') as cash_in,
                               sum(m.amount) filter (where m.kind = 'out') as cash_out
                          from public.cash_movements m where m.shift_id = sh.id) cm
   where sh.id = any (_shifts) and (_business_id is null or sh.business_id = _business_id);
end;
$$;
revoke all on function private.compute_shift_totals(uuid,uuid[]) from public;

create or replace function private.shift_totals_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_shifts uuid[];
begin
  if tg_op = 'INSERT' then
    if tg_table_name = 'sales' then
      perform private.shift_totals_add(array_agg(n.shift_id), array_agg(1::bigint), array_agg(n.total), array_agg(0::bigint),
        array_agg(0::bigint), array_agg(0::bigint), array_agg(0::bigint), array_agg(0::bigint), array_agg(0::bigint),
        array_agg(0::bigint))
        from new_rows n where n.shift_id is not null;
    elsif tg_table_name = 'sale_tenders' then
      perform private.shift_totals_add(array_agg(x.shift_id), array_agg(0::bigint), array_agg(0::bigint),
        array_agg(case when n.kind = 'cash' then n.amount else 0 end), array_agg(case when n.kind = 'card' then n.amount else 0 end),
        array_agg(case when n.kind = 'other' then n.amount else 0 end), array_agg(0::bigint), array_agg(0::bigint),
        array_agg(0::bigint), array_agg(0::bigint))
        from new_rows n join public.sales x on x.id = n.sale_id where x.shift_id is not null;
    elsif tg_table_name = 'refunds' then
      perform private.shift_totals_add(array_agg(n.shift_id), array_agg(0::bigint), array_agg(0::bigint), array_agg(0::bigint),
        array_agg(0::bigint), array_agg(0::bigint), array_agg(n.total),
        array_agg(case when n.tender_kind = 'cash' then n.total else 0 end), array_agg(0::bigint), array_agg(0::bigint))
        from new_rows n where n.shift_id is not null;
    else
      perform private.shift_totals_add(array_agg(n.shift_id), array_agg(0::bigint), array_agg(0::bigint), array_agg(0::bigint),
        array_agg(0::bigint), array_agg(0::bigint), array_agg(0::bigint), array_agg(0::bigint),
        array_agg(case when n.kind = 'in' then n.amount else 0 end), array_agg(case when n.kind = 'out' then n.amount else 0 end))
        from new_rows n;
    end if;
    return null;
  end if;
  -- Updates and deletes: the shifts of the old and new rows, recomputed.
  if tg_table_name = 'sale_tenders' then
    if tg_op = 'UPDATE' then
      v_shifts := array(select x.shift_id from old_rows o join public.sales x on x.id = o.sale_id
                        union select x.shift_id from new_rows n join public.sales x on x.id = n.sale_id);
    else
      v_shifts := array(select x.shift_id from old_rows o join public.sales x on x.id = o.sale_id);
    end if;
  elsif tg_op = 'UPDATE' and tg_table_name = 'sales' then
    -- A sale counts in its shift by its shift and total only (its tenders by their own trigger): an update of
    -- anything else (review reasons, the review itself, the cashier) leaves every shift's totals as they were.
    v_shifts := array(select o.shift_id from old_rows o left join new_rows n on n.id = o.id
                       where n.id is null or n.shift_id is distinct from o.shift_id or n.total is distinct from o.total
                      union
                      select n.shift_id from new_rows n left join old_rows o on o.id = n.id
                       where o.id is null or n.shift_id is distinct from o.shift_id or n.total is distinct from o.total);
  elsif tg_op = 'UPDATE' then
    v_shifts := array(select o.shift_id from old_rows o union select n.shift_id from new_rows n);
  else
    v_shifts := array(select o.shift_id from old_rows o);
  end if;
  v_shifts := array_remove(v_shifts, null);
  if cardinality(v_shifts) > 0 then
    perform private.compute_shift_totals(null, v_shifts);
  end if;
  return null;
end;
$$;
revoke all on function private.shift_totals_changed() from public;

create or replace function private.inventory_value_balances_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    -- An upsert whose rows all existed fires this with no rows: nothing to add.
    if not exists (select 1 from new_rows) then
      return null;
    end if;
    perform private.inventory_value_stock_changed(array_agg(n.store_id), array_agg(n.variant_id), array_agg(n.qty))
       from new_rows n;
  elsif tg_op = 'UPDATE' then
    if not exists (select 1 from new_rows) then
      return null;
    end if;
    perform private.inventory_value_stock_changed(array_agg(x.store_id), array_agg(x.variant_id), array_agg(x.qty))
       from (select n.store_id, n.variant_id, n.qty from new_rows n
             union all select o.store_id, o.variant_id, -o.qty from old_rows o) x;
  else
    if not exists (select 1 from old_rows) then
      return null;
    end if;
    perform private.inventory_value_stock_changed(array_agg(o.store_id), array_agg(o.variant_id), array_agg(-o.qty))
       from old_rows o;
  end if;
  return null;
end;
$$;
revoke all on function private.inventory_value_balances_changed() from public;

-- Gross profit net of refunds of today and the same day last week: the per-store daily facts of report_profit (gross,
-- refunds, tax net of the refunds' share, cost rounded per line net of restocked refunds), one row per store and day.
create or replace function private.overview_gross_profit(_business_id uuid, _store_id uuid, _today date)
returns table (day date, gross_profit numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  select d.day, sum(d.gross - d.refunds - d.tax) - sum(d.cost)
    from public.sales_daily_breakdown d
   where d.business_id = _business_id and d.dimension = 'store'
     and (_store_id is null or d.store_id = _store_id)
     and d.day in (_today, _today - 7)
   group by 1;
$$;
revoke all on function private.overview_gross_profit(uuid,uuid,date) from public;
grant execute on function private.overview_gross_profit(uuid,uuid,date) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Exact revenue, units and cost of the given variants over a range: the monthly rows of the whole months inside
-- the range and the daily rows of the days at its ends. _all: the all-stores table (the caller reads every
-- store and gave none); otherwise the per-store rows of the stores the caller reads (of _store_id if given), named
-- in the query so each check is an index range (ADR 0438). Only variants with a daily row in the range come back.
create or replace function private.seller_totals(_business_id uuid, _from date, _to date, _store_id uuid,
                                                 _all boolean, _variants uuid[])
returns table (variant_id uuid, revenue numeric, units numeric, cost numeric)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  -- Whole months inside the range: [v_first, v_after); none when v_first >= v_after.
  v_first date := case when date_trunc('month', _from::timestamp)::date = _from then _from
                       else (date_trunc('month', _from::timestamp) + interval '1 month')::date end;
  v_after date := date_trunc('month', (_to + 1)::timestamp)::date;
  -- The stores to read: null for a caller who reads every store and gave none, else those the caller reads.
  v_stores uuid[] := case when _store_id is null and _business_id in (select private.my_full_access_business_ids())
                          then null else private.stock_pair_stores(_business_id, _store_id) end;
begin
  if v_first >= v_after then
    v_first := _to + 1;
    v_after := _to + 1;
  end if;
  -- Per variant (a lateral join): each part is an index range on (variant, month), (variant, store, month),
  -- (variant, day) or (store, variant, day), whatever the number of variants (a plan over the whole table would
  -- evaluate the policy on every row).
  return query
    select v.id, sum(x.revenue), sum(x.units), sum(x.cost)
      from (select distinct u.id from unnest(_variants) as u (id)) v
      cross join lateral (
        select m.revenue::numeric as revenue, m.units, m.cost
          from public.sales_monthly_variant_business m
         where _all and m.variant_id = v.id and m.business_id = _business_id
           and m.month >= v_first and m.month < v_after
        union all
        select m.revenue, m.units, m.cost
          from public.sales_monthly_variant m
         where not _all and m.variant_id = v.id and m.business_id = _business_id
           and (v_stores is null or m.store_id = any (v_stores))
           and m.month >= v_first and m.month < v_after
        union all
        select d.revenue, d.units, d.cost
          from public.sales_daily_variant d
         where d.variant_id = v.id and d.business_id = _business_id
           and (v_stores is null or d.store_id = any (v_stores))
           and d.day >= _from and d.day < v_first
        union all
        select d.revenue, d.units, d.cost
          from public.sales_daily_variant d
         where d.variant_id = v.id and d.business_id = _business_id
           and (v_stores is null or d.store_id = any (v_stores))
           and d.day >= greatest(_from, v_after) and d.day <= _to
      ) x
     group by v.id;
end;
$$;
revoke all on function private.seller_totals(uuid,date,date,uuid,boolean,uuid[]) from public;
grant execute on function private.seller_totals(uuid,date,date,uuid,boolean,uuid[]) to authenticated;

-- Movements per (store, variant) after the end of local day _to (per store: an index range from its midnight).
create or replace function private.stock_moved_after(_business_id uuid, _to date, _store_id uuid)
returns table (store_id uuid, variant_id uuid, qty numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  select st.id, m.variant_id, sum(m.qty)
    from (select st.id, (_to + 1)::timestamp at time zone st.time_zone as after_to
            from public.stores st
           where st.business_id = _business_id and (_store_id is null or st.id = _store_id)
          offset 0) st
    join public.stock_movements m
      on m.business_id = _business_id and m.store_id = st.id and m.occurred_at >= st.after_to
   group by 1, 2;
$$;
revoke all on function private.stock_moved_after(uuid,date,uuid) from public;
grant execute on function private.stock_moved_after(uuid,date,uuid) to authenticated;

-- The refunds in the range of the given (store, variant) pairs, net of tax as private.sell_through_sold nets them:
-- the refund lines of the pairs' variants, kept when their refund is in the pair's store and on a local day of the
-- range. Pairs without refunds are left out.
create or replace function private.sell_through_refunds_of(_business_id uuid, _from date, _to date, _stores uuid[],
                                                           _variants uuid[])
returns table (store_id uuid, variant_id uuid, units numeric, revenue numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  with lines as materialized (
    select r.store_id, rl.variant_id, rl.qty, rl.amount, rl.sale_line_id, r.occurred_at
      from (select distinct u.id from unnest(_variants) as u (id)) v
      -- One index range per variant (offset 0 keeps it a nested loop: a function's generic plan hashed every
      -- refund line of the business, 16 ms at 28,000 lines, for the refunds of one variant).
      cross join lateral (select rl.* from public.refund_lines rl
                           where rl.variant_id = v.id and rl.business_id = _business_id offset 0) rl
      join public.refunds r on r.id = rl.refund_id and r.business_id = rl.business_id
     where r.occurred_at >= private.report_utc_lower(_from) and r.occurred_at < private.report_utc_upper(_to)
  )
  select k.store_id, k.variant_id, -sum(x.qty),
         -sum(x.amount - case when l.line_total = 0 then 0
                              else round(x.amount::numeric * l.tax_amount / l.line_total) end)
    from (select distinct p.store_id, p.variant_id from unnest(_stores, _variants) as p (store_id, variant_id)) k
    join lines x on x.store_id = k.store_id and x.variant_id = k.variant_id
    join public.stores st on st.id = x.store_id
    join public.sale_lines l on l.id = x.sale_line_id and l.business_id = _business_id
   where (x.occurred_at at time zone st.time_zone)::date between _from and _to
   group by 1, 2;
$$;
revoke all on function private.sell_through_refunds_of(uuid,date,date,uuid[],uuid[]) from public;
grant execute on function private.sell_through_refunds_of(uuid,date,date,uuid[],uuid[]) to authenticated;

-- The sales of given pairs over a range, without refunds: units and revenue of the daily variant summary's rows
-- with lines, and the last local day with a sale line. The range's whole months come from the monthly rollup (its
-- sums of the same rows: a day's row without lines holds no units or revenue), the days before and after them from
-- the daily rows: a pair selling every day of a year reads 12 monthly and about 30 daily index entries, not 365.
-- Each part is one index-only range per pair.
create or replace function private.sell_through_sales_of(_business_id uuid, _from date, _to date, _stores uuid[],
                                                         _variants uuid[])
returns table (store_id uuid, variant_id uuid, units numeric, revenue bigint, last_day date)
language sql
stable
security invoker
set search_path = ''
as $$
  with b as (
    -- The whole months [m1, m2) of the range; none when m1 >= m2 (then the head is the whole range).
    select m.m1, m.m2, case when m.m1 < m.m2 then m.m1 else _to + 1 end as head_end,
           case when m.m1 < m.m2 then m.m2 else _to + 1 end as tail_start
      from (select case when date_trunc('month', _from::timestamp)::date = _from then _from
                        else (date_trunc('month', _from::timestamp) + interval '1 month')::date end as m1,
                   date_trunc('month', (_to + 1)::timestamp)::date as m2) m
  )
  select k.store_id, k.variant_id, coalesce(h.units, 0) + coalesce(mo.units, 0) + coalesce(t.units, 0),
         (coalesce(h.revenue, 0) + coalesce(mo.revenue, 0) + coalesce(t.revenue, 0))::bigint,
         -- The last day: in the tail, else in the whole months (one step back in the daily rows), else in the head.
         coalesce(t.last_day,
                  case when mo.units is not null then (
                    select max(d.day) from public.sales_daily_variant d
                     where d.store_id = k.store_id and d.variant_id = k.variant_id and d.business_id = _business_id
                       and d.day >= b.m1 and d.day < b.m2 and d.lines > 0) end,
                  h.last_day)
    from b
    cross join unnest(_stores, _variants) as k (store_id, variant_id)
    left join lateral (
      select sum(d.units) as units, sum(d.revenue) as revenue, max(d.day) as last_day
        from public.sales_daily_variant d
       where d.store_id = k.store_id and d.variant_id = k.variant_id and d.business_id = _business_id
         and d.day >= _from and d.day < b.head_end and d.lines > 0) h on true
    -- Whole months and the tail only when the range has whole months (a one-time filter otherwise).
    left join lateral (
      select sum(m.units) as units, sum(m.revenue) as revenue from public.sales_monthly_variant m
       where b.m1 < b.m2 and m.variant_id = k.variant_id and m.store_id = k.store_id
         and m.business_id = _business_id and m.month >= b.m1 and m.month < b.m2) mo on true
    left join lateral (
      select sum(d.units) as units, sum(d.revenue) as revenue, max(d.day) as last_day
        from public.sales_daily_variant d
       where b.m1 < b.m2 and d.store_id = k.store_id and d.variant_id = k.variant_id
         and d.business_id = _business_id and d.day >= b.tail_start and d.day <= _to and d.lines > 0) t on true;
$$;
revoke all on function private.sell_through_sales_of(uuid,date,date,uuid[],uuid[]) from public;
grant execute on function private.sell_through_sales_of(uuid,date,date,uuid[],uuid[]) to authenticated;

-- Sell-through parts for given pairs over a range, exactly as private.sell_through_sold defines them: their sales
-- (private.sell_through_sales_of) and their refunds (private.sell_through_refunds_of). Pairs without either: 0, 0,
-- null.
create or replace function private.sell_through_of(_business_id uuid, _from date, _to date, _stores uuid[],
                                                   _variants uuid[])
returns table (store_id uuid, variant_id uuid, units numeric, revenue bigint, last_day date)
language sql
stable
security invoker
set search_path = ''
as $$
  select k.store_id, k.variant_id, k.units + coalesce(f.units, 0), (k.revenue + coalesce(f.revenue, 0))::bigint,
         k.last_day
    from private.sell_through_sales_of(_business_id, _from, _to, _stores, _variants) k
    left join private.sell_through_refunds_of(_business_id, _from, _to, _stores, _variants) f
      on f.store_id = k.store_id and f.variant_id = k.variant_id;
$$;
revoke all on function private.sell_through_of(uuid,date,date,uuid[],uuid[]) from public;
grant execute on function private.sell_through_of(uuid,date,date,uuid[],uuid[]) to authenticated;

-- One list per month over every store of the business: its _per_list (store, variant) pairs with the most units,
-- and the list's frontier (its lowest units; 0 when the month has fewer pairs, read to its end). A pair outside a
-- month's list sold at most that month's frontier in it. The business-wide counterpart of
-- private.monthly_units_top's lists per store.
create or replace function private.monthly_pairs_top(_business_id uuid, _months date[], _per_list int)
returns table (store_id uuid, month date, variant_id uuid, frontier numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  select t.store_id, t.month, t.variant_id,
         case when count(*) over (partition by t.month) < _per_list then 0
              else min(t.units) over (partition by t.month) end
    from unnest(_months) as mo (month)
    cross join lateral (select m.store_id, m.month, m.variant_id, m.units from public.sales_monthly_variant m
                         where m.business_id = _business_id and m.month = mo.month
                         order by m.units desc limit _per_list) t;
$$;
revoke all on function private.monthly_pairs_top(uuid,date[],integer) from public;
grant execute on function private.monthly_pairs_top(uuid,date[],integer) to authenticated;

-- The given pairs that sold in the range by their sales alone (private.sell_through_sales_of, refunds not netted),
-- with their on hand now; pairs without a stock record left out.
create or replace function private.sell_through_gross_of(_business_id uuid, _from date, _to date, _stores uuid[],
                                                         _variants uuid[])
returns table (store_id uuid, variant_id uuid, units numeric, on_hand numeric, revenue bigint, last_day date)
language sql
stable
security invoker
set search_path = ''
as $$
  select t.store_id, t.variant_id, t.units, p.on_hand, t.revenue, t.last_day
    from private.sell_through_sales_of(_business_id, _from, _to, _stores, _variants) t
    cross join lateral (select p.on_hand from public.stock_pairs p
        where p.store_id = t.store_id and p.variant_id = t.variant_id and p.business_id = _business_id
        limit 1) p
   where t.units > 0;
$$;
revoke all on function private.sell_through_gross_of(uuid,date,date,uuid[],uuid[]) from public;
grant execute on function private.sell_through_gross_of(uuid,date,date,uuid[],uuid[]) to authenticated;

-- Sales figures (private.sell_through_gross_of's rows, as arrays) made exact: their refunds netted, the pairs still
-- selling kept. A refund only lowers units, so a pair whose sales alone stay under _theta cannot reach it and is
-- dropped before its refunds are read; with _top, only the _top best by sales alone are netted.
create or replace function private.sell_through_net(_business_id uuid, _from date, _to date, _stores uuid[],
                                                    _variants uuid[], _units numeric[], _on_hand numeric[],
                                                    _revenue bigint[], _last date[], _theta numeric, _top int)
returns table (store_id uuid, variant_id uuid, units numeric, on_hand numeric, revenue bigint, last_day date)
language sql
stable
security invoker
set search_path = ''
as $$
  with kept as materialized (
    select g.* from unnest(_stores, _variants, _units, _on_hand, _revenue, _last)
                      as g (store_id, variant_id, units, on_hand, revenue, last_day)
     where _theta is null or g.units / (g.units + greatest(g.on_hand, 0)) >= _theta
     order by g.units / (g.units + greatest(g.on_hand, 0)) desc
     limit _top
  )
  select k.store_id, k.variant_id, k.units + coalesce(f.units, 0), k.on_hand,
         (k.revenue + coalesce(f.revenue, 0))::bigint, k.last_day
    from kept k
    left join private.sell_through_refunds_of(_business_id, _from, _to, array(select k.store_id from kept k),
                                              array(select k.variant_id from kept k)) f
      on f.store_id = k.store_id and f.variant_id = k.variant_id
   where k.units + coalesce(f.units, 0) > 0;
$$;
revoke all on function private.sell_through_net(uuid,date,date,uuid[],uuid[],numeric[],numeric[],bigint[],date[],numeric,integer) from public;
grant execute on function private.sell_through_net(uuid,date,date,uuid[],uuid[],numeric[],numeric[],bigint[],date[],numeric,integer) to authenticated;

-- Exact figures of the given pairs that sold in the range, with their on hand now (pairs without a stock record
-- left out); with _theta, only those whose sell-through can reach it (private.sell_through_net).
create or replace function private.sell_through_selling_of(_business_id uuid, _from date, _to date, _stores uuid[],
                                                           _variants uuid[], _theta numeric default null)
returns table (store_id uuid, variant_id uuid, units numeric, on_hand numeric, revenue bigint, last_day date)
language sql
stable
security invoker
set search_path = ''
as $$
  select n.*
    from (select array_agg(g.store_id) as stores, array_agg(g.variant_id) as variants, array_agg(g.units) as units,
                 array_agg(g.on_hand) as on_hand, array_agg(g.revenue) as revenue, array_agg(g.last_day) as last
            from private.sell_through_gross_of(_business_id, _from, _to, _stores, _variants) g) g
    cross join lateral private.sell_through_net(_business_id, _from, _to, g.stores, g.variants, g.units, g.on_hand,
                                                g.revenue, g.last, _theta, null) n;
$$;
revoke all on function private.sell_through_selling_of(uuid,date,date,uuid[],uuid[],numeric) from public;
grant execute on function private.sell_through_selling_of(uuid,date,date,uuid[],uuid[],numeric) to authenticated;

-- The pairs of the given stores (among those the caller may read) whose on hand is at most the store's bound, with
-- their on hand, at most _cap + 1 in all (the caller treats more than _cap as too many). The caller's stores are
-- read once (as a filter on every store's row they were read once a store: 48 of 53 ms at 100 stores, ADR 0441).
create or replace function private.stock_pairs_at_most(_business_id uuid, _store_id uuid, _stores uuid[],
                                                       _bounds numeric[], _cap int)
returns table (store_id uuid, variant_id uuid, on_hand numeric)
language sql
stable
security definer
set search_path = ''
as $$
  select t.store_id, t.variant_id, t.on_hand
    from unnest(_stores, _bounds) as s (id, bound)
    cross join lateral (select p.store_id, p.variant_id, p.on_hand from public.stock_pairs p
                         where p.store_id = s.id and p.business_id = _business_id and p.on_hand <= s.bound
                         order by p.on_hand limit _cap + 1) t
   where s.id in (select unnest(private.stock_pair_stores(_business_id, _store_id)))
   limit _cap + 1;
$$;
revoke all on function private.stock_pairs_at_most(uuid,uuid,uuid[],numeric[],integer) from public;
grant execute on function private.stock_pairs_at_most(uuid,uuid,uuid[],numeric[],integer) to authenticated;

-- Sell-through worst first when the range ends after the scope's last movement (on hand at the end = on hand now):
-- pairs on hand that did not sell (units <= 0, sell-through 0) come first, by on hand descending, then revenue,
-- SKU and store. Reads the pairs with the most on hand of each store, checks each exactly (daily variant summary,
-- the pairs' own refunds, once a round), and returns the unsold ones above the frontier (the highest, over the
-- stores not read to the end, of the lowest on hand read): every pair with more on hand than the frontier was read
-- in every store, so with at least _limit of them the page is among them, ties included. Otherwise it reads four
-- times more, and returns nothing when it cannot decide (later movements, too few unsold pairs on hand).
create or replace function private.sell_through_unsold(_business_id uuid, _from date, _to date, _store_id uuid,
                                                       _limit int)
returns table (store_id uuid, variant_id uuid, units numeric, on_hand numeric, revenue bigint, last_day date)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_stores uuid[] := private.stock_pair_stores(_business_id, _store_id);
  v_per_store int := greatest(_limit * 2, 64);
  v_pair_stores uuid[];
  v_pair_variants uuid[];
  v_pair_on_hand numeric[];
  v_frontier numeric;
  v_open boolean;
  v_found_stores uuid[];
  v_found_variants uuid[];
  v_found_units numeric[];
  v_found_on_hand numeric[];
  v_found_revenue bigint[];
  v_found_last date[];
begin
  if exists (select 1 from public.stores st
               join public.stock_movements m
                 on m.business_id = _business_id and m.store_id = st.id
                and m.occurred_at >= private.report_utc_lower(_to + 1)
                and m.occurred_at >= ((_to + 1)::timestamp at time zone st.time_zone)
              where st.id = any (v_stores)) then
    return;
  end if;
  loop
    select array_agg(t.store_id), array_agg(t.variant_id), array_agg(t.on_hand),
           max(t.lowest) filter (where not t.exhausted), bool_or(not t.exhausted)
      into v_pair_stores, v_pair_variants, v_pair_on_hand, v_frontier, v_open
      from (select t.*, min(t.on_hand) over (partition by t.store_id) as lowest
              from private.stock_pairs_most_on_hand(_business_id, _store_id, v_per_store) t) t;
    -- The unsold pairs above the frontier, figured once.
    select array_agg(k.store_id), array_agg(k.variant_id), array_agg(t.units), array_agg(k.on_hand),
           array_agg(t.revenue), array_agg(t.last_day)
      into v_found_stores, v_found_variants, v_found_units, v_found_on_hand, v_found_revenue, v_found_last
      from unnest(v_pair_stores, v_pair_variants, v_pair_on_hand) as k (store_id, variant_id, on_hand)
      join private.sell_through_of(_business_id, _from, _to, v_pair_stores, v_pair_variants) t
        on t.store_id = k.store_id and t.variant_id = k.variant_id
     where t.units <= 0 and (v_frontier is null or k.on_hand > v_frontier);
    if coalesce(cardinality(v_found_stores), 0) >= _limit then
      return query select * from unnest(v_found_stores, v_found_variants, v_found_units, v_found_on_hand,
                                         v_found_revenue, v_found_last);
      return;
    end if;
    -- Every pair on hand read and still too few, or too many to read: the full ranking decides.
    if not coalesce(v_open, false) or v_per_store >= 16384 then
      return;
    end if;
    v_per_store := v_per_store * 4;
  end loop;
end;
$$;
revoke all on function private.sell_through_unsold(uuid,date,date,uuid,integer) from public;
grant execute on function private.sell_through_unsold(uuid,date,date,uuid,integer) to authenticated;

-- Sell-through best first for a range ending after the scope's last movement: the pairs of A and B above (units
-- > 0, exact figures, on hand now), among which the page ranks; nothing when it cannot decide. A range with at
-- most _few daily rows is decided by its sold pairs (private.sell_through_few). _per_list (the lists' first depth),
-- _cap (the most pairs B may hold) and _few are the report's defaults unless given (tests give small ones to take
-- the lists and their deeper rounds on small data). The lists are per store and month, or one per month over every
-- store when the caller sees the whole business and lists per store would outgrow their budget (ADR 0441).
create or replace function private.sell_through_selling(_business_id uuid, _from date, _to date, _store_id uuid,
                                                        _limit int, _per_list int default null,
                                                        _cap int default 20000, _few int default 10000)
returns table (store_id uuid, variant_id uuid, units numeric, on_hand numeric, revenue bigint, last_day date)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_stores uuid[] := private.stock_pair_stores(_business_id, _store_id);
  v_business boolean;
  v_cap int := greatest(coalesce(_cap, 20000), 0);
  v_per_list int;
  v_months date[];
  v_list_stores uuid[];
  v_list_variants uuid[];
  v_bound_stores uuid[];
  v_bounds numeric[];
  v_g_stores uuid[];
  v_g_variants uuid[];
  v_g_units numeric[];
  v_g_on_hand numeric[];
  v_g_revenue bigint[];
  v_g_last date[];
  v_a_stores uuid[];
  v_a_variants uuid[];
  v_a_units numeric[];
  v_a_on_hand numeric[];
  v_a_revenue bigint[];
  v_a_last date[];
  v_theta numeric;
  v_b_count bigint;
  v_b_stores uuid[];
  v_b_variants uuid[];
begin
  if coalesce(cardinality(v_stores), 0) = 0
     or exists (select 1 from private.stock_moved_after(_business_id, _to, _store_id)) then
    return;
  end if;
  -- Few sales in the range: the sold pairs themselves decide.
  return query select * from private.sell_through_few(_business_id, _from, _to, v_stores, _store_id, _limit,
                                                      greatest(coalesce(_few, 10000), 0));
  if found then
    return;
  end if;
  select array_agg(m.month::date order by m.month) into v_months
    from generate_series(date_trunc('month', _from::timestamp), date_trunc('month', _to::timestamp),
                         interval '1 month') as m (month);
  -- Lists per store while they stay within about 40 x _limit rows at 16 deep; past that (many stores, many months)
  -- one list per month over every store when the caller sees the whole business (private.monthly_pairs_top).
  v_business := _store_id is null and _business_id in (select private.my_full_access_business_ids())
                and 40.0 * _limit / (cardinality(v_months) * cardinality(v_stores)) < 16;
  -- Lists per store: about 40 x _limit list rows in all, 16 to max(2 x _limit, 64) a list: at 1,000,000 lines a
  -- year over 10 stores (130 lists) read 100 deep checked 6,770 pairs (1.5 s on PostgreSQL), 16 deep 2,136
  -- (0.76 s); 30 days over 10 stores (20 lists) is best at 50-100, a year of one store at 100.
  -- Lists per month over the business: 8 x _limit deep. At 10,000,000 lines over 100 stores, a year's 13 lists
  -- 400 deep hold 1,052 pairs with a bound of 240 units; 200 and 800 deep were slower, as was 800 for 30 days
  -- within the noise (ADR 0441).
  v_per_list := greatest(coalesce(_per_list,
                                  case when v_business
                                       then 8 * _limit
                                       else least(greatest(ceil(40.0 * _limit / (cardinality(v_months) * cardinality(v_stores)))::int,
                                                           16),
                                                  greatest(_limit * 2, 64)) end), 1);
  loop
    -- A's pairs, and each store's bound T (stores whose lists were all read to the end have none; over the
    -- business every store has the sum of the months' frontiers).
    with top as materialized (
      select * from private.monthly_units_top(_business_id, v_stores, v_months, v_per_list) where not v_business
      union all
      select * from private.monthly_pairs_top(_business_id, v_months, v_per_list) where v_business
    ),
    frontiers as (
      select distinct t.store_id, t.month, t.frontier from top t where not v_business
      union all
      select s.id, t.month, t.frontier
        from (select distinct t.month, t.frontier from top t where v_business) t
        cross join unnest(v_stores) as s (id)
    )
    select a.stores, a.variants, b.stores, b.bounds
      into v_list_stores, v_list_variants, v_bound_stores, v_bounds
      from (select array_agg(p.store_id) as stores, array_agg(p.variant_id) as variants
              from (select distinct t.store_id, t.variant_id from top t) p) a,
           (select array_agg(l.store_id) as stores, array_agg(l.bound) as bounds
              from (select f.store_id, sum(f.frontier) as bound from frontiers f group by 1) l
             where l.bound > 0) b;
    -- A's sales (pairs with a stock record that sold, refunds not netted).
    select array_agg(t.store_id), array_agg(t.variant_id), array_agg(t.units), array_agg(t.on_hand),
           array_agg(t.revenue), array_agg(t.last_day)
      into v_g_stores, v_g_variants, v_g_units, v_g_on_hand, v_g_revenue, v_g_last
      from private.sell_through_gross_of(_business_id, _from, _to, v_list_stores, v_list_variants) t;
    -- theta, the _limit-th best sell-through: first among the 2 x _limit best by sales alone, netted (any _limit
    -- exact figures bound the page's from below), else among all of A. Then A's exact figures that can reach it.
    select (array_agg(t.units / (t.units + greatest(t.on_hand, 0))
                      order by t.units / (t.units + greatest(t.on_hand, 0)) desc))[_limit]
      into v_theta
      from private.sell_through_net(_business_id, _from, _to, v_g_stores, v_g_variants, v_g_units, v_g_on_hand,
                                    v_g_revenue, v_g_last, null, 2 * _limit) t;
    select array_agg(t.store_id), array_agg(t.variant_id), array_agg(t.units), array_agg(t.on_hand),
           array_agg(t.revenue), array_agg(t.last_day),
           coalesce(v_theta, (array_agg(t.units / (t.units + greatest(t.on_hand, 0))
                                        order by t.units / (t.units + greatest(t.on_hand, 0)) desc))[_limit])
      into v_a_stores, v_a_variants, v_a_units, v_a_on_hand, v_a_revenue, v_a_last, v_theta
      from private.sell_through_net(_business_id, _from, _to, v_g_stores, v_g_variants, v_g_units, v_g_on_hand,
                                    v_g_revenue, v_g_last, v_theta, null) t;
    if v_theta is null and v_bound_stores is null then
      -- Every list read to its end and fewer than _limit pairs selling: the full ranking pads the page.
      return;
    end if;
    if v_theta is not null then
      -- B: the pairs not in A's lists with on hand at most T x (1 - theta) / theta (a thousandth above: numeric division
      -- rounds, a larger bound only adds pairs to check). More than v_cap under the bound (counted with A's,
      -- as the reader stops at v_cap + 1): too many.
      select count(*),
             array_agg(b.store_id) filter (where a.store_id is null),
             array_agg(b.variant_id) filter (where a.store_id is null)
        into v_b_count, v_b_stores, v_b_variants
        from private.stock_pairs_at_most(
               _business_id, _store_id, v_bound_stores,
               (select array_agg(u.bound * (1 - v_theta) / v_theta + 0.001 order by u.n)
                  from unnest(v_bounds) with ordinality as u (bound, n)),
               v_cap) b
        left join unnest(v_list_stores, v_list_variants) as a (store_id, variant_id)
          on a.store_id = b.store_id and a.variant_id = b.variant_id;
      if v_b_count <= v_cap then
        return query
          select * from unnest(v_a_stores, v_a_variants, v_a_units, v_a_on_hand, v_a_revenue, v_a_last)
          union all
          select * from private.sell_through_selling_of(_business_id, _from, _to, v_b_stores, v_b_variants, v_theta);
        return;
      end if;
    end if;
    -- Too few selling in the lists read, or too many pairs under the bound: deeper lists lower T.
    if v_per_list >= 4096 then
      return;
    end if;
    v_per_list := v_per_list * 4;
  end loop;
end;
$$;
revoke all on function private.sell_through_selling(uuid,date,date,uuid,integer,integer,integer,integer) from public;
grant execute on function private.sell_through_selling(uuid,date,date,uuid,integer,integer,integer,integer) to authenticated;

-- Both summaries of a business from the raw rows (seed:large loads with triggers off and ends with this).
create or replace function private.refresh_stock_summaries_base(_business_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  select private.compute_stock_movements_daily(_business_id, null);
  select private.compute_inventory_value(_business_id);
  select private.compute_shift_totals(_business_id, null);
$$;
revoke all on function private.refresh_stock_summaries_base(uuid) from public;

-- ==== Triggers ============================================================================================

create trigger sales_summaries_inserted after insert on public.sales
  referencing new table as new_rows for each statement execute function private.sales_summaries_sales_inserted();

create trigger sales_summaries_updated after update on public.sales
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.sales_summaries_sales_changed();

create trigger sales_summaries_deleted after delete on public.sales
  referencing old table as old_rows for each statement execute function private.sales_summaries_sales_changed();

create trigger sales_summaries_inserted after insert on public.sale_lines
  referencing new table as new_rows for each statement execute function private.sales_summaries_lines_inserted();

create trigger sales_summaries_inserted after insert on public.sale_line_costs
  referencing new table as new_rows for each statement execute function private.sales_summaries_costs_inserted();

create trigger sales_summaries_inserted after insert on public.refunds
  referencing new table as new_rows for each statement execute function private.sales_summaries_refunds_changed();

create trigger sales_summaries_updated after update on public.refunds
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.sales_summaries_refunds_changed();

create trigger sales_summaries_deleted after delete on public.refunds
  referencing old table as old_rows for each statement execute function private.sales_summaries_refunds_changed();

create trigger sales_summaries_time_zone after update of time_zone on public.stores
  for each row execute function private.sales_summaries_time_zone_changed();

create trigger variant_rollups_inserted after insert on public.sales_daily_variant
  referencing new table as new_rows for each statement execute function private.variant_rollups_inserted();

create trigger variant_rollups_updated after update on public.sales_daily_variant
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.variant_rollups_updated();

create trigger variant_rollups_deleted after delete on public.sales_daily_variant
  referencing old table as old_rows for each statement execute function private.variant_rollups_deleted();

create trigger stock_movements_daily_inserted after insert on public.stock_movements
  referencing new table as new_rows for each statement execute function private.stock_movements_daily_inserted();

create trigger stock_movements_daily_time_zone after update of time_zone on public.stores
  for each row execute function private.stock_movements_daily_time_zone_changed();

create trigger inventory_value_inserted after insert on public.stock_balances
  referencing new table as new_rows for each statement execute function private.inventory_value_balances_changed();

create trigger inventory_value_updated after update on public.stock_balances
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.inventory_value_balances_changed();

create trigger inventory_value_deleted after delete on public.stock_balances
  referencing old table as old_rows for each statement execute function private.inventory_value_balances_changed();

create trigger inventory_value_inserted after insert on public.variant_costs
  referencing new table as new_rows for each statement execute function private.inventory_value_costs_changed();

create trigger inventory_value_updated after update on public.variant_costs
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.inventory_value_costs_changed();

create trigger inventory_value_deleted after delete on public.variant_costs
  referencing old table as old_rows for each statement execute function private.inventory_value_costs_changed();

create trigger inventory_value_inserted after insert on public.store_prices
  referencing new table as new_rows for each statement execute function private.inventory_value_store_prices_changed();

create trigger inventory_value_updated after update on public.store_prices
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.inventory_value_store_prices_changed();

create trigger inventory_value_deleted after delete on public.store_prices
  referencing old table as old_rows for each statement execute function private.inventory_value_store_prices_changed();

create trigger inventory_value_updated after update on public.variants
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.inventory_value_variants_changed();

create trigger inventory_value_updated after update on public.products
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.inventory_value_products_changed();

create trigger sales_breakdown_inserted after insert on public.sale_lines
  referencing new table as new_rows for each statement execute function private.breakdown_lines_inserted();

create trigger sales_breakdown_inserted after insert on public.sale_line_costs
  referencing new table as new_rows for each statement execute function private.breakdown_costs_inserted();

create trigger sales_breakdown_inserted after insert on public.sale_tenders
  referencing new table as new_rows for each statement execute function private.breakdown_tenders_inserted();

create trigger sales_breakdown_inserted after insert on public.refund_lines
  referencing new table as new_rows for each statement execute function private.breakdown_refund_lines_inserted();

create trigger sales_breakdown_inserted after insert on public.refunds
  referencing new table as new_rows for each statement execute function private.breakdown_refunds_inserted();

create trigger sales_breakdown_updated after update on public.refunds
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.breakdown_refunds_updated();

create trigger sales_breakdown_cashier after update on public.sales
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.breakdown_sales_cashier_changed();

create trigger sales_breakdown_category after update on public.products
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.breakdown_products_changed();

create trigger sales_breakdown_product after update on public.variants
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.breakdown_variants_changed();

create trigger breakdown_months_inserted after insert on public.sales_daily_breakdown
  referencing new table as new_rows for each statement execute function private.breakdown_months_changed();

create trigger breakdown_months_updated after update on public.sales_daily_breakdown
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.breakdown_months_changed();

create trigger breakdown_months_deleted after delete on public.sales_daily_breakdown
  referencing old table as old_rows for each statement execute function private.breakdown_months_changed();

create trigger stock_pairs_movements after insert on public.stock_movements
  referencing new table as new_rows for each statement execute function private.stock_pairs_movements_inserted();

create trigger stock_pairs_costs_inserted after insert on public.variant_costs
  referencing new table as new_rows for each statement execute function private.stock_pairs_costs_changed();

create trigger stock_pairs_costs_updated after update on public.variant_costs
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.stock_pairs_costs_changed();

create trigger stock_pairs_costs_deleted after delete on public.variant_costs
  referencing old table as old_rows for each statement execute function private.stock_pairs_costs_changed();

create trigger stock_pairs_time_zone after update on public.stores
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.stock_pairs_time_zone_changed();

create trigger read_only_guard before insert or update or delete on public.inventory_value
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.sale_reviews
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.sales_daily
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.sales_daily_breakdown
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.sales_daily_tax
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.sales_daily_variant
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.sales_monthly_breakdown
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.sales_monthly_variant
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.sales_monthly_variant_business
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.shift_reviews
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.shift_totals
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.stock_movements_daily
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.stock_pairs
  for each statement execute function private.read_only_guard();

create trigger shift_totals_inserted after insert on public.sales referencing new table as new_rows for each statement execute function private.shift_totals_changed();

create trigger shift_totals_updated after update on public.sales referencing old table as old_rows new table as new_rows for each statement execute function private.shift_totals_changed();

create trigger shift_totals_deleted after delete on public.sales referencing old table as old_rows for each statement execute function private.shift_totals_changed();

create trigger shift_totals_inserted after insert on public.sale_tenders referencing new table as new_rows for each statement execute function private.shift_totals_changed();

create trigger shift_totals_updated after update on public.sale_tenders referencing old table as old_rows new table as new_rows for each statement execute function private.shift_totals_changed();

create trigger shift_totals_deleted after delete on public.sale_tenders referencing old table as old_rows for each statement execute function private.shift_totals_changed();

create trigger shift_totals_inserted after insert on public.refunds referencing new table as new_rows for each statement execute function private.shift_totals_changed();

create trigger shift_totals_updated after update on public.refunds referencing old table as old_rows new table as new_rows for each statement execute function private.shift_totals_changed();

create trigger shift_totals_deleted after delete on public.refunds referencing old table as old_rows for each statement execute function private.shift_totals_changed();

create trigger shift_totals_inserted after insert on public.cash_movements referencing new table as new_rows for each statement execute function private.shift_totals_changed();

create trigger shift_totals_updated after update on public.cash_movements referencing old table as old_rows new table as new_rows for each statement execute function private.shift_totals_changed();

create trigger shift_totals_deleted after delete on public.cash_movements referencing old table as old_rows for each statement execute function private.shift_totals_changed();

-- ==== Policies ============================================================================================

create policy "sales_daily: owners and managers read in their stores" on public.sales_daily for select to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "sales_daily_tax: owners and managers read in their stores" on public.sales_daily_tax for select to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "sales_daily_variant: owners and managers read in their stores" on public.sales_daily_variant for select to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "sale_reviews: owners and managers read in their stores" on public.sale_reviews
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "sales_monthly_variant: owners and managers read in their stores" on public.sales_monthly_variant
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "sales_monthly_variant_business: owners and managers of every st" on public.sales_monthly_variant_business for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "stock_movements_daily: owners and managers read in their stores" on public.stock_movements_daily
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "inventory_value: owners and managers read in their stores" on public.inventory_value
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "shift_totals: owners and managers read in their stores" on public.shift_totals
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "sales_daily_breakdown: owners and managers read in their stores" on public.sales_daily_breakdown
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "sales_monthly_breakdown: owners and managers read in their stor" on public.sales_monthly_breakdown for select to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

create policy "stock_pairs: owners and managers read in their stores" on public.stock_pairs
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "shift_reviews: owners and managers read in their stores" on public.shift_reviews
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));
