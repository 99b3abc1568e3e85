-- Maintained daily sales summaries (issue 14, ADR 0143): the reports read these instead of aggregating every
-- sale line, so they stay fast at a year of sales (1,000,000 lines).
--
-- * Who reads: owners and managers, the rows of stores they may use (the rows carry cost, like sale_line_costs).
--   Who writes: nobody through the API; statement-level triggers on sales, sale_lines, sale_line_costs and refunds
--   (security definer) keep them equal to the raw rows in the posting transaction, and
--   private.refresh_sales_summaries rebuilds a business (seed:large bulk-loads with triggers off).
-- * day: the store's local date at occurred_at (the register's clock), as the reports define it; a refund counts on
--   its own day. Money in minor units; cost is numeric (the unrounded sum of qty x unit_cost) so a report rounds once
--   per period, as the raw query did.
-- * Inserts add deltas (insert ... on conflict do update set x = x + excluded.x: atomic under concurrency); an
--   update that moves a sale or refund to another day or store, a deletion, or a store's new time zone rebuilds
--   the (store, day) rows concerned from the raw rows.

create table public.sales_daily (
  business_id uuid not null references public.businesses (id) on delete cascade,
  store_id uuid not null,
  day date not null,
  receipts bigint not null default 0,
  gross bigint not null default 0,
  discounts bigint not null default 0,
  tax bigint not null default 0,
  lines bigint not null default 0,
  units numeric not null default 0,
  revenue bigint not null default 0,
  cost numeric not null default 0,
  lines_without_cost bigint not null default 0,
  refunds bigint not null default 0,
  refund_count bigint not null default 0,
  primary key (store_id, day),
  foreign key (store_id, business_id) references public.stores (id, business_id) on delete cascade
);
alter table public.sales_daily enable row level security;
comment on table public.sales_daily is
  'Per store and local day: receipts, gross (sales.total), discounts and tax of the sales; lines, units, revenue net '
  'of tax, cost and lines without cost of their lines; refunds on their own day. Maintained by triggers (ADR 0143). '
  'Owners and managers read the stores they may use; nobody writes through the API.';
create index sales_daily_business_day_idx on public.sales_daily (business_id, day);
create index sales_daily_store_business_idx on public.sales_daily (store_id, business_id);

create table public.sales_daily_tax (
  business_id uuid not null references public.businesses (id) on delete cascade,
  store_id uuid not null,
  day date not null,
  tax_rate numeric not null,
  lines bigint not null default 0,
  taxable bigint not null default 0,
  tax bigint not null default 0,
  primary key (store_id, day, tax_rate),
  foreign key (store_id, business_id) references public.stores (id, business_id) on delete cascade
);
alter table public.sales_daily_tax enable row level security;
comment on table public.sales_daily_tax is
  'Per store, local day and tax rate: sale lines, taxable amount (net of tax) and tax. Maintained by triggers '
  '(ADR 0143). Owners and managers read the stores they may use; nobody writes through the API.';
create index sales_daily_tax_business_day_idx on public.sales_daily_tax (business_id, day);
create index sales_daily_tax_store_business_idx on public.sales_daily_tax (store_id, business_id);

-- No foreign key to variants: a sold variant cannot be deleted (sale_lines reference it) and the check would cost
-- every posting a lookup.
create table public.sales_daily_variant (
  business_id uuid not null references public.businesses (id) on delete cascade,
  store_id uuid not null,
  day date not null,
  variant_id uuid not null,
  description text not null,
  lines bigint not null default 0,
  units numeric not null default 0,
  revenue bigint not null default 0,
  cost numeric not null default 0,
  lines_without_cost bigint not null default 0,
  primary key (store_id, day, variant_id),
  foreign key (store_id, business_id) references public.stores (id, business_id) on delete cascade
);
alter table public.sales_daily_variant enable row level security;
comment on table public.sales_daily_variant is
  'Per store, local day and variant: lines, units, revenue net of tax and cost (description: the greatest sold). '
  'Maintained by triggers (ADR 0143). Owners and managers read the stores they may use; nobody writes through the API.';
create index sales_daily_variant_business_day_idx on public.sales_daily_variant (business_id, day);
create index sales_daily_variant_store_business_idx on public.sales_daily_variant (store_id, business_id);
create index sales_daily_variant_variant_idx on public.sales_daily_variant (variant_id);

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
revoke all on function private.sales_summary_scope(uuid, uuid[], date[]) from public, anon, authenticated;

-- Rebuild from the raw rows: a whole business (_stores null) or the given (store, day) pairs.
create or replace function private.compute_sales_summaries(_business_id uuid, _stores uuid[] default null,
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
         sum(l.qty * coalesce(c.unit_cost, 0)), count(*) filter (where c.sale_line_id is null)
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
         sum(l.line_total - l.tax_amount), sum(l.qty * coalesce(c.unit_cost, 0)),
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
revoke all on function private.compute_sales_summaries(uuid, uuid[], date[]) from public, anon, authenticated;

-- Recomputes a business's summaries from its raw sales (seed:large; a repair tool). Superuser / owner only.
create or replace function private.refresh_sales_summaries(_business_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  select private.compute_sales_summaries(_business_id, null, null);
$$;
revoke all on function private.refresh_sales_summaries(uuid) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Triggers (statement level with transition tables: one upsert per statement, also for set-based inserts).

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

create or replace function private.sales_summaries_costs_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.sales_daily as d (business_id, store_id, day, cost, lines_without_cost)
  select s.business_id, s.store_id, (s.occurred_at at time zone st.time_zone)::date, sum(l.qty * n.unit_cost), -count(*)
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
         sum(l.qty * n.unit_cost), -count(*)
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

revoke all on function private.sales_summaries_sales_inserted(), private.sales_summaries_lines_inserted(),
  private.sales_summaries_costs_inserted(), private.sales_summaries_refunds_changed(),
  private.sales_summaries_sales_changed(), private.sales_summaries_time_zone_changed()
  from public, anon, authenticated;

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

-- Backfill what exists (the demo history).
select private.compute_sales_summaries(b.id, null, null) from public.businesses b
 where exists (select 1 from public.sales s where s.business_id = b.id);

-- ---------------------------------------------------------------------------------------------------
-- Grants and policies: read-only, owners and managers in the stores they may use.
revoke all on table public.sales_daily, public.sales_daily_tax, public.sales_daily_variant from public, anon, authenticated;
grant select on table public.sales_daily, public.sales_daily_tax, public.sales_daily_variant to authenticated, service_role;
do $$
declare
  t text;
begin
  foreach t in array array['sales_daily', 'sales_daily_tax', 'sales_daily_variant'] loop
    execute format($p$create policy "%1$s: owners and managers read in their stores" on public.%1$I
      for select to authenticated
      using ((business_id in (select private.my_full_access_business_ids())
              or store_id in (select private.my_listed_store_ids()))
             and business_id in (select private.my_business_ids(array['owner', 'manager'])))$p$, t);
  end loop;
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- The reports of 20261122161000 with the same signatures and results, read from the summaries.

create or replace function public.report_sales(_business_id uuid, _from date, _to date, _grain text default 'day',
                                               _store_id uuid default null)
returns table (period date, store_id uuid, receipts bigint, units numeric, gross bigint, discounts bigint,
               tax bigint, net bigint, refunds bigint)
language plpgsql
stable
security invoker
set search_path = ''
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

create or replace function public.report_profit(_business_id uuid, _from date, _to date, _grain text default 'day',
                                                _store_id uuid default null)
returns table (period date, store_id uuid, revenue bigint, cost bigint, profit bigint, margin numeric,
               lines_without_cost bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  perform private.report_args(_business_id, _from, _to, _grain);
  return query
    select g.period, g.store_id, g.revenue, g.cost, g.revenue - g.cost,
           case when g.revenue = 0 then null else round((g.revenue - g.cost)::numeric / g.revenue, 4) end,
           g.missing
      from (
        select date_trunc(_grain, d.day)::date as period, d.store_id, sum(d.revenue)::bigint as revenue,
               round(sum(d.cost))::bigint as cost, sum(d.lines_without_cost)::bigint as missing
          from public.sales_daily d
         where d.business_id = _business_id
           and (_store_id is null or d.store_id = _store_id)
           and d.day between _from and _to
         group by 1, 2
        having sum(d.lines) > 0
      ) g
     order by 1, 2;
end;
$$;

create or replace function public.report_top_products(_business_id uuid, _from date, _to date,
                                                      _store_id uuid default null, _worst boolean default false,
                                                      _limit int default 10)
returns table (variant_id uuid, description text, units numeric, revenue bigint, profit bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  perform private.report_args(_business_id, _from, _to, null);
  -- Rank on revenue alone (one bigint sum per variant: a year holds tens of thousands of variants), then read
  -- units, cost and description for the page only.
  return query
    with ranked as (
      select d.variant_id, sum(d.revenue) as revenue
        from public.sales_daily_variant d
       where d.business_id = _business_id
         and (_store_id is null or d.store_id = _store_id)
         and d.day between _from and _to
         and d.lines > 0
       group by d.variant_id
       order by case when _worst then sum(d.revenue) end asc,
                case when not _worst then sum(d.revenue) end desc,
                d.variant_id
       limit least(greatest(coalesce(_limit, 10), 1), 100)
    )
    select r.variant_id, x.description, x.units, r.revenue::bigint, (r.revenue - round(x.cost))::bigint
      from ranked r
      cross join lateral (
        select max(d.description) as description, sum(d.units) as units, sum(d.cost) as cost
          from public.sales_daily_variant d
         where d.variant_id = r.variant_id and d.business_id = _business_id
           and (_store_id is null or d.store_id = _store_id)
           and d.day between _from and _to) x
     order by case when _worst then r.revenue end asc,
              case when not _worst then r.revenue end desc,
              r.variant_id;
end;
$$;

create or replace function public.report_taxes(_business_id uuid, _from date, _to date, _store_id uuid default null)
returns table (store_id uuid, tax_rate numeric, lines bigint, taxable bigint, tax bigint)
language plpgsql
stable
security invoker
set search_path = ''
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
