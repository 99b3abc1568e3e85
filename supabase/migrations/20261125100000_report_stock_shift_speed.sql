-- Issue 14's scale target for four reports (ADR 0162): stock movement history and inventory valuation read from
-- summaries maintained in the writing transaction; the Z reports and the business overview read only what they
-- show (the range's shifts by id, the two compared days, the ranked best sellers) instead of whole tables.
-- Signatures and results are unchanged.
--
-- * public.stock_movements_daily: per (store, local day, kind) the number of ledger rows, units in and out and
--   the unrounded value at the recorded unit cost. Who writes: a statement trigger on stock_movements (the ledger
--   is append-only; a business's deletion cascades), and private.refresh_stock_summaries. Who reads: owners and
--   managers in the stores they may use (the values carry cost), as stock_movements itself.
-- * public.inventory_value: per (store, category) what report_inventory_valuation sums over the (store, variant)
--   pairs with non-zero stock: pairs, units, value at cost and at retail (unrounded), pairs without a cost. Who
--   writes: statement triggers on stock_balances, variant_costs, store_prices, variants (price, product) and
--   products (category), each adding the exact change of the pairs it touches; private.refresh_stock_summaries.
--   Who reads: owners and managers in the stores they may use.
-- * seed:large loads with triggers off and calls private.refresh_stock_summaries at the end.

-- ---------------------------------------------------------------------------------------------------
-- Stock movement history per local day.
create table public.stock_movements_daily (
  business_id uuid not null references public.businesses (id) on delete cascade,
  store_id uuid not null references public.stores (id) on delete cascade,
  day date not null,
  kind text not null,
  movements bigint not null default 0,
  units_in numeric not null default 0,
  units_out numeric not null default 0,
  cost_value numeric not null default 0,
  primary key (store_id, day, kind)
);
alter table public.stock_movements_daily enable row level security;
comment on table public.stock_movements_daily is
  'Ledger movements per store, local day (store time zone at occurred_at) and kind: count, units in, units out and '
  'the unrounded value at the recorded unit cost. Maintained by a trigger on stock_movements in the writing '
  'transaction; owners and managers read the stores they may use; nobody writes through the API.';
create index stock_movements_daily_business_day_idx on public.stock_movements_daily (business_id, day);

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

create trigger stock_movements_daily_inserted after insert on public.stock_movements
  referencing new table as new_rows for each statement execute function private.stock_movements_daily_inserted();
create trigger stock_movements_daily_time_zone after update of time_zone on public.stores
  for each row execute function private.stock_movements_daily_time_zone_changed();

-- ---------------------------------------------------------------------------------------------------
-- Inventory value per store and category. category_id is the zero uuid for products without a category (a
-- plain unique key for the upserts); no category has that id, so the report shows it as 'Uncategorised'.
create table public.inventory_value (
  business_id uuid not null references public.businesses (id) on delete cascade,
  store_id uuid not null references public.stores (id) on delete cascade,
  category_id uuid not null,
  variants bigint not null default 0,
  units numeric not null default 0,
  cost_value numeric not null default 0,
  retail_value numeric not null default 0,
  variants_without_cost bigint not null default 0,
  primary key (store_id, category_id)
);
alter table public.inventory_value enable row level security;
comment on table public.inventory_value is
  'Stock on hand now per store and product category over the (store, variant) pairs with non-zero stock: pairs, '
  'units, value at the moving-average cost and at retail (store price, else variant price), unrounded, and pairs '
  'without a cost. Maintained by triggers on stock_balances, variant_costs, store_prices, variants and products in '
  'the writing transaction; owners and managers read the stores they may use; nobody writes through the API.';
create index inventory_value_business_idx on public.inventory_value (business_id);

create or replace function private.no_category()
returns uuid
language sql
immutable
set search_path = ''
as $$ select '00000000-0000-0000-0000-000000000000'::uuid $$;

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

create or replace function private.inventory_value_balances_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.inventory_value_stock_changed(array_agg(n.store_id), array_agg(n.variant_id), array_agg(n.qty))
       from new_rows n;
  elsif tg_op = 'UPDATE' then
    perform private.inventory_value_stock_changed(array_agg(x.store_id), array_agg(x.variant_id), array_agg(x.qty))
       from (select n.store_id, n.variant_id, n.qty from new_rows n
             union all select o.store_id, o.variant_id, -o.qty from old_rows o) x;
  else
    perform private.inventory_value_stock_changed(array_agg(o.store_id), array_agg(o.variant_id), array_agg(-o.qty))
       from old_rows o;
  end if;
  return null;
end;
$$;

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

-- ---------------------------------------------------------------------------------------------------
-- Per-shift totals of the Z report. Inserts add their rows' amounts; updates and deletes (a refund's total
-- written after its lines, a test's cleanup, a cascade) recompute the shifts they touch from the raw rows.
create table public.shift_totals (
  shift_id uuid primary key references public.shifts (id) on delete cascade,
  business_id uuid not null references public.businesses (id) on delete cascade,
  store_id uuid not null references public.stores (id) on delete cascade,
  sales_count bigint not null default 0,
  gross bigint not null default 0,
  cash bigint not null default 0,
  card bigint not null default 0,
  other bigint not null default 0,
  refunds bigint not null default 0,
  cash_refunds bigint not null default 0,
  cash_in bigint not null default 0,
  cash_out bigint not null default 0
);
alter table public.shift_totals enable row level security;
comment on table public.shift_totals is
  'Per shift: sales and their total, tenders by kind, refunds (and those paid back in cash), cash in and out, as the '
  'Z report shows them. Maintained by triggers on sales, sale_tenders, refunds and cash_movements in the writing '
  'transaction; owners and managers read the stores they may use; nobody writes through the API.';
create index shift_totals_business_idx on public.shift_totals (business_id);
create index shift_totals_store_idx on public.shift_totals (store_id);

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

-- Recomputes the given shifts (or a business's, or every one) from the raw rows.
create or replace function private.compute_shift_totals(_business_id uuid, _shifts uuid[])
returns void
language sql
security definer
set search_path = ''
as $$
  delete from public.shift_totals t
   where (_business_id is null or t.business_id = _business_id) and (_shifts is null or t.shift_id = any (_shifts));
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
   where (_business_id is null or sh.business_id = _business_id) and (_shifts is null or sh.id = any (_shifts));
$$;

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

do $$
declare
  t text;
begin
  foreach t in array array['sales', 'sale_tenders', 'refunds', 'cash_movements'] loop
    execute format('create trigger shift_totals_inserted after insert on public.%I referencing new table as new_rows '
                   'for each statement execute function private.shift_totals_changed()', t);
    execute format('create trigger shift_totals_updated after update on public.%I referencing old table as old_rows '
                   'new table as new_rows for each statement execute function private.shift_totals_changed()', t);
    execute format('create trigger shift_totals_deleted after delete on public.%I referencing old table as old_rows '
                   'for each statement execute function private.shift_totals_changed()', t);
  end loop;
end;
$$;

revoke all on function private.shift_totals_add(uuid[], bigint[], bigint[], bigint[], bigint[], bigint[], bigint[],
  bigint[], bigint[], bigint[]), private.compute_shift_totals(uuid, uuid[]), private.shift_totals_changed()
  from public, anon, authenticated;

revoke all on table public.shift_totals from public, anon, authenticated;
grant select on table public.shift_totals to authenticated, service_role;
create policy "shift_totals: owners and managers read in their stores" on public.shift_totals
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

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

-- Both summaries of a business from the raw rows (seed:large loads with triggers off and ends with this).
create or replace function private.refresh_stock_summaries(_business_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  select private.compute_stock_movements_daily(_business_id, null);
  select private.compute_inventory_value(_business_id);
  select private.compute_shift_totals(_business_id, null);
$$;

revoke all on function private.compute_stock_movements_daily(uuid, uuid), private.stock_movements_daily_inserted(),
  private.stock_movements_daily_time_zone_changed(), private.inventory_value_add(uuid[], uuid[], bigint[], numeric[],
  numeric[], numeric[], bigint[]), private.inventory_value_stock_changed(uuid[], uuid[], numeric[]),
  private.inventory_value_balances_changed(), private.inventory_pairs(uuid[]), private.inventory_value_costs_changed(),
  private.inventory_value_store_prices_changed(), private.inventory_value_variants_changed(),
  private.inventory_value_products_changed(), private.compute_inventory_value(uuid),
  private.refresh_stock_summaries(uuid)
  from public, anon, authenticated;
revoke all on function private.no_category() from public, anon;
grant execute on function private.no_category() to authenticated;

-- Backfill what exists (the demo history).
select private.refresh_stock_summaries(b.id) from public.businesses b;

revoke all on table public.stock_movements_daily, public.inventory_value from public, anon, authenticated;
grant select on table public.stock_movements_daily, public.inventory_value to authenticated, service_role;
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

-- ---------------------------------------------------------------------------------------------------
-- The reports, same signatures and results.

create or replace function public.report_inventory_valuation(_business_id uuid, _store_id uuid default null)
returns table (store_id uuid, category text, variants bigint, units numeric, cost_value bigint, retail_value bigint,
               variants_without_cost bigint)
language plpgsql
stable
security invoker
set search_path = ''
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
comment on function public.report_inventory_valuation(uuid, uuid) is
  'Owners and managers only: stock on hand now per store and category, at cost and at retail, in minor units '
  '(from public.inventory_value).';

create or replace function public.report_stock_movements(_business_id uuid, _from date, _to date,
                                                         _grain text default 'day', _store_id uuid default null)
returns table (period date, store_id uuid, kind text, movements bigint, units_in numeric, units_out numeric,
               cost_value bigint)
language plpgsql
stable
security invoker
set search_path = ''
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
comment on function public.report_stock_movements(uuid, date, date, text, uuid) is
  'Owners and managers only: ledger movements per local day/week/month, store and kind with units in, out and '
  'value at the recorded unit cost (from public.stock_movements_daily).';

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
comment on function public.report_shifts(uuid, date, date, uuid) is
  'Owners and managers only: Z reports of the shifts opened in the range, with the tenders, refunds, cash in and '
  'out, expected and counted cash and the difference (over positive, short negative) as close_shift recorded it.';

-- ---------------------------------------------------------------------------------------------------
-- The business overview: the same JSON; two parts moved into helpers that read less.

-- Gross profit net of refunds of today and the same day last week, computed as private.report_facts computes it
-- (revenue net of tax; cost rounded per line; a refund's tax share and a restocked line's cost given back) but
-- reading only what the profit needs: per store, the sales and refunds of its own two local days (an index range
-- on (store, business, occurred_at) each, two hours of margin for daylight saving, then the exact local day),
-- their lines and costs (report_facts also joins variants and products for the category, and reads five days of
-- the whole business for each day asked).
create or replace function private.overview_gross_profit(_business_id uuid, _store_id uuid, _today date)
returns table (day date, gross_profit numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  with days as (
    select st.id as store_id, st.time_zone, d.day,
           (d.day::timestamp at time zone st.time_zone) - interval '2 hours' as lo,
           ((d.day + 1)::timestamp at time zone st.time_zone) + interval '2 hours' as hi
      from public.stores st
     cross join (values (_today), (_today - 7)) as d (day)
     where st.business_id = _business_id and (_store_id is null or st.id = _store_id)
  ),
  f as (
    select k.day, l.line_total as gross, l.tax_amount as tax, round(l.qty * coalesce(c.unit_cost, 0)) as cost
      from days k
      join public.sales s on s.store_id = k.store_id and s.business_id = _business_id
                         and s.occurred_at >= k.lo and s.occurred_at < k.hi
                         and (s.occurred_at at time zone k.time_zone)::date = k.day
      join public.sale_lines l on l.sale_id = s.id and l.business_id = s.business_id
      left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
    union all
    select k.day, -rl.amount,
           -case when l.line_total = 0 then 0 else round(rl.amount::numeric * l.tax_amount / l.line_total) end::bigint,
           -case when rl.disposition = 'restock' then round(rl.qty * coalesce(c.unit_cost, 0)) else 0 end
      from days k
      join public.refunds r on r.store_id = k.store_id and r.business_id = _business_id
                           and r.occurred_at >= k.lo and r.occurred_at < k.hi
                           and (r.occurred_at at time zone k.time_zone)::date = k.day
      join public.refund_lines rl on rl.refund_id = r.id and rl.business_id = r.business_id
      join public.sale_lines l on l.id = rl.sale_line_id and l.business_id = rl.business_id
      left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
  )
  select f.day, sum(f.gross - f.tax) - round(sum(f.cost)) from f group by 1;
$$;

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

revoke all on function private.overview_gross_profit(uuid, uuid, date), private.overview_top_products(uuid, uuid, date, date)
  from public, anon;
grant execute on function private.overview_gross_profit(uuid, uuid, date), private.overview_top_products(uuid, uuid, date, date)
  to authenticated;

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
comment on function public.business_overview(uuid, uuid, date) is
  'The dashboard overview. Owners and managers (RLS limits managers to their stores): today and the same day last '
  'week, 30 days of sales net of refunds, top products, low stock and expiring lots. Cashiers: their own shift only '
  '(no cost or profit). Anyone else: 42501.';
