-- Sales by store, staff member, category and tender, sell-through and slow movers at a year of sales (issue 14,
-- ADR 0163). report_sales_by read every sale and refund line of the range (ADR 0144's line facts): 2.8 s for a
-- year by category on PGlite at 100,000 lines. It now reads a maintained per (store, local day, dimension, key)
-- summary, a few tens of thousands of rows for a year at 1,000,000 lines whatever the number of lines.
--
-- * Who reads: owners and managers, the rows of the stores they may use (the rows carry cost), as the daily
--   summaries of ADR 0143. Who writes: nobody through the API; statement triggers on sale_lines, sale_line_costs,
--   sale_tenders, refunds, refund_lines (inserts: signed deltas, in the posting transaction), on sales (a new
--   cashier) and on products / variants (a new category) keep it equal to the line facts of
--   private.report_facts; every rebuild of the daily summaries (a sale moved or deleted, a refund deleted, a store's
--   new time zone, private.refresh_sales_summaries after seed:large) rebuilds it too, through
--   private.compute_sales_summaries (renamed below into a chain: a later migration that redefines
--   compute_sales_summaries must keep calling private.compute_sales_breakdown).
-- * Figures as the line facts define them (ADR 0144): a sale line counts on its sale's local day, for its store, its
--   cashier and its product's category now; a refund line on the refund's own day, for the refund's store, the
--   member who refunded and the refunded line's category, with units and tax share negative and, when restocked,
--   its recorded cost given back; each line's cost rounded to minor units once. Tenders: the sale's tenders on the
--   sale's day, each refund's total on the refund's day against the tender it went back to.

create table public.sales_daily_breakdown (
  business_id uuid not null,
  store_id uuid not null,
  day date not null,
  -- 'store', 'staff', 'category' or 'tender' (written only by the functions below).
  dimension text not null,
  -- The store, staff member or category id as text, the tender kind; '' for a line without a member or category.
  key text not null,
  -- Sales with at least one line (a tender for 'tender') under this key that day.
  receipts bigint not null default 0,
  units numeric not null default 0,
  -- Line totals as rung up (tender: the amounts paid); refunds: refunded amounts (positive).
  gross bigint not null default 0,
  refunds bigint not null default 0,
  -- Tax of the lines minus the refunds' tax shares; cost of the lines minus restocked refund lines, per line rounded.
  tax bigint not null default 0,
  cost bigint not null default 0,
  primary key (store_id, day, dimension, key),
  foreign key (store_id, business_id) references public.stores (id, business_id) on delete cascade
);
alter table public.sales_daily_breakdown enable row level security;
comment on table public.sales_daily_breakdown is
  'Per store, local day and dimension (store, staff, category, tender) key: receipts, units, gross, refunds, tax and '
  'cost as the line facts of report_sales_by, refunds on their own day. Maintained by triggers (ADR 0163). Owners '
  'and managers read the stores they may use; nobody writes through the API.';
create index sales_daily_breakdown_business_idx on public.sales_daily_breakdown (business_id, dimension, day);
create index sales_daily_breakdown_store_business_idx on public.sales_daily_breakdown (store_id, business_id);

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
revoke all on function private.compute_sales_breakdown(uuid, uuid[], date[]) from public, anon, authenticated;

-- Every rebuild of the daily summaries rebuilds the breakdown of the same scope: the existing rebuild paths (a sale
-- moved or deleted, a refund deleted, a store's new time zone, refresh_sales_summaries) call this name.
alter function private.compute_sales_summaries(uuid, uuid[], date[]) rename to compute_sales_summaries_daily;
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
revoke all on function private.compute_sales_summaries(uuid, uuid[], date[]),
  private.compute_sales_summaries_daily(uuid, uuid[], date[]) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Deltas of inserted rows. Each adds signed amounts with an atomic upsert (concurrent postings of the same store
-- and day add up).

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

revoke all on function private.breakdown_lines_inserted(), private.breakdown_costs_inserted(),
  private.breakdown_tenders_inserted(), private.breakdown_refund_lines_inserted(),
  private.breakdown_refunds_inserted(), private.breakdown_refunds_updated(), private.breakdown_sales_cashier_changed(),
  private.breakdown_rebuild_variants(uuid[]), private.breakdown_products_changed(), private.breakdown_variants_changed()
  from public, anon, authenticated;

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


-- Grants and policies: read-only, owners and managers in the stores they may use.
revoke all on table public.sales_daily_breakdown from public, anon, authenticated;
grant select on table public.sales_daily_breakdown to authenticated, service_role;
create policy "sales_daily_breakdown: owners and managers read in their stores" on public.sales_daily_breakdown
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

-- ---------------------------------------------------------------------------------------------------
-- Monthly rollup of the breakdown (a year by category is ~44,000 daily rows at 10 stores and 12 categories; by
-- month ~1,600): the exact sums of the daily rows of each (store, month, dimension, key), with the number of daily
-- rows behind it. Maintained by statement triggers on sales_daily_breakdown (every write path of the daily rows goes
-- through it) in the same transaction; rows whose days reach 0 are removed. Read and written as the daily table.
create table public.sales_monthly_breakdown (
  business_id uuid not null,
  store_id uuid not null,
  month date not null,
  dimension text not null,
  key text not null,
  days bigint not null default 0,
  receipts bigint not null default 0,
  units numeric not null default 0,
  gross bigint not null default 0,
  refunds bigint not null default 0,
  tax bigint not null default 0,
  cost bigint not null default 0,
  primary key (store_id, month, dimension, key),
  foreign key (store_id, business_id) references public.stores (id, business_id) on delete cascade
);
alter table public.sales_monthly_breakdown enable row level security;
comment on table public.sales_monthly_breakdown is
  'Per store, month and dimension key: the sums of sales_daily_breakdown (days: its rows behind this one). '
  'Maintained by triggers on sales_daily_breakdown (ADR 0163). Owners and managers read the stores they may use; '
  'nobody writes through the API.';
create index sales_monthly_breakdown_business_idx on public.sales_monthly_breakdown (business_id, dimension, month);
create index sales_monthly_breakdown_store_business_idx on public.sales_monthly_breakdown (store_id, business_id);

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
revoke all on function private.breakdown_months_changed(), private.rebuild_breakdown_months(uuid)
  from public, anon, authenticated;

create trigger breakdown_months_inserted after insert on public.sales_daily_breakdown
  referencing new table as new_rows for each statement execute function private.breakdown_months_changed();
create trigger breakdown_months_updated after update on public.sales_daily_breakdown
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.breakdown_months_changed();
create trigger breakdown_months_deleted after delete on public.sales_daily_breakdown
  referencing old table as old_rows for each statement execute function private.breakdown_months_changed();

-- Backfill what exists (the demo history): the daily rows, then the monthly ones from them.
select private.compute_sales_breakdown(b.id, null, null) from public.businesses b
 where exists (select 1 from public.sales s where s.business_id = b.id);

revoke all on table public.sales_monthly_breakdown from public, anon, authenticated;
grant select on table public.sales_monthly_breakdown to authenticated, service_role;
create policy "sales_monthly_breakdown: owners and managers read in their stores" on public.sales_monthly_breakdown
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

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
revoke all on function private.breakdown_rows(uuid, date, date, text, uuid) from public, anon;
grant execute on function private.breakdown_rows(uuid, date, date, text, uuid) to authenticated;

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
comment on function public.report_sales_by(uuid, date, date, text, uuid) is
  'Owners and managers only (42501 otherwise; RLS limits managers to their stores): sales by store, staff, category '
  'or tender in the range, refunds netted on the day they happened; revenue is net of tax and refunds, cost net of '
  'restocked refund lines; profit and margin null for tenders. Reads sales_daily_breakdown (ADR 0163).';

-- ---------------------------------------------------------------------------------------------------
-- Sell-through (same signature, columns and order as in 20261123150000). It read every line of the range
-- (report_facts) and summed the whole ledger up to the end of the range per (store, variant). Now:
-- * sold: the daily variant summary (units, revenue net of tax, last day with a line) plus the refund lines of the
--   range (few), as the line facts define them;
-- * on hand at the end of the range: the balances (always the sum of the ledger) minus the movements after the
--   range's end, read per store from the (business, store, occurred_at) index (none for a range ending today);
-- * best first: when at least _limit pairs sold units in the range they are the only ones that can rank (every
--   other pair's sell-through is 0 or none), so only their stock is looked up.

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

-- Movements per (store, variant) after the end of local day _to (per store: an index range each).
create or replace function private.stock_moved_after(_business_id uuid, _to date, _store_id uuid)
returns table (store_id uuid, variant_id uuid, qty numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  select st.id, m.variant_id, sum(m.qty)
    from public.stores st
    join public.stock_movements m
      on m.business_id = _business_id and m.store_id = st.id
     and m.occurred_at >= private.report_utc_lower(_to + 1)
     and m.occurred_at >= ((_to + 1)::timestamp at time zone st.time_zone)
   where st.business_id = _business_id and (_store_id is null or st.id = _store_id)
   group by 1, 2;
$$;

revoke all on function private.sell_through_sold(uuid, date, date, uuid),
  private.stock_moved_after(uuid, date, uuid) from public, anon;
grant execute on function private.sell_through_sold(uuid, date, date, uuid),
  private.stock_moved_after(uuid, date, uuid) to authenticated;

create or replace function public.report_sell_through(_business_id uuid, _from date, _to date,
                                                      _store_id uuid default null, _worst boolean default false,
                                                      _limit int default 50)
returns table (store_id uuid, variant_id uuid, sku text, product_name text, units_sold numeric, on_hand_end numeric,
               sell_through numeric, revenue bigint, last_sold_on date)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_limit int := least(greatest(coalesce(_limit, 50), 1), 500);
  v_stores uuid[];
  v_variants uuid[];
  v_units numeric[];
  v_revenue bigint[];
  v_last date[];
  v_selling bigint;
begin
  perform private.report_args(_business_id, _from, _to, null);
  select array_agg(s.store_id), array_agg(s.variant_id), array_agg(s.units), array_agg(s.revenue),
         array_agg(s.last_day), count(*) filter (where s.units > 0)
    into v_stores, v_variants, v_units, v_revenue, v_last, v_selling
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
    selling as (
      select so.store_id, so.variant_id, so.units,
             greatest(coalesce((select sum(b.qty) from public.stock_balances b
                                 where b.store_id = so.store_id and b.variant_id = so.variant_id
                                   and b.business_id = _business_id), 0)
                      - coalesce(l.qty, 0), 0) as on_hand,
             so.revenue, so.last_day
        from sold so
        left join later l on l.store_id = so.store_id and l.variant_id = so.variant_id
       where so.units > 0
    ),
    -- Otherwise every pair sold or on hand at the end of the range.
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
      select coalesce(so.store_id, sk.store_id) as store_id, coalesce(so.variant_id, sk.variant_id) as variant_id,
             coalesce(so.units, 0) as units, greatest(coalesce(sk.qty, 0), 0) as on_hand,
             coalesce(so.revenue, 0) as revenue, so.last_day
        from sold so full join stock sk on sk.store_id = so.store_id and sk.variant_id = so.variant_id
    ),
    x as (
      select * from selling where _worst is false and coalesce(v_selling, 0) >= v_limit
      union all
      select * from everything where _worst is not false or coalesce(v_selling, 0) < v_limit
    ),
    -- The order's keys before the SKU: a row of the page has fewer than v_limit rows before it on them, so its
    -- rank is at most v_limit; only those rows are joined to the catalog.
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
     where x.n <= v_limit
     order by case when _worst then coalesce(x.ratio, 0) end asc,
              case when not _worst then x.ratio end desc nulls last,
              case when _worst then x.on_hand end desc, x.revenue desc, v.sku, x.store_id
     limit v_limit;
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- Slow movers (same signature, columns and order as in 20261123150000). It read, for every (store, variant) on
-- hand, all of that pair's sale and refund movements (one index range per pair: 100,000 pairs a store at the large
-- seed). Now the ledger is read per store in two set-based passes: the window's sales and refunds from the
-- (business, store, occurred_at) index, and the last sale of every variant from a partial index on sale movements
-- (store, variant, occurred_at; index-only), then joined to the balances by hash.
create index if not exists stock_movements_store_sale_last_idx
  on public.stock_movements (store_id, variant_id, occurred_at, business_id) where kind = 'sale';

create or replace function public.report_slow_movers(_business_id uuid, _store_id uuid default null, _days int default 30,
                                                     _max_sell_through numeric default 0.1, _limit int default 50)
returns table (store_id uuid, variant_id uuid, sku text, product_name text, on_hand numeric, units_sold numeric,
               sell_through numeric, last_sold_on date, days_since_sale int, cost_value bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_today date := current_date;
begin
  if _days is null or _days < 1 or _days > 365 then
    raise exception 'the number of days must be between 1 and 365' using errcode = '22023';
  end if;
  perform private.report_args(_business_id, v_today - _days + 1, v_today, null);
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

-- ---------------------------------------------------------------------------------------------------
-- Best and worst sellers (ADR 0151), unchanged in what they return:
-- * A manager's candidates are checked against their stores' monthly bounds one variant at a time; the index on
--   (variant, month) read every store's rows of the variant and dropped the other stores' (10 stores: 5 rows read
--   for 1 kept with two stores). With the store second, each check reads its stores' months only, from the index.
create index if not exists sales_monthly_variant_variant_store_idx
  on public.sales_monthly_variant (variant_id, store_id, month) include (business_id, revenue_bound);
