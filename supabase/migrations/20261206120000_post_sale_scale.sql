-- post_sale at scale (issue 32, ADR 0430): two summary triggers did work that grew with the database, not the sale.
--
-- 1. A sale whose stock went negative (or with a serial or prescription problem) is updated after its insert, to add
--    the review reasons. The shift totals' update trigger recomputed the sale's shift from the raw rows for any
--    update, and private.compute_shift_totals grouped every sale, tender, refund and cash movement of the database
--    before joining the one shift (the shift filter was not pushed into the grouped subqueries): 70 ms a sale at
--    2,000 variants on PostgreSQL, growing with every sale stored. Now the trigger recomputes only the shifts whose
--    rows changed in what the totals count (the shift, the total; a row without its pair); compute_shift_totals
--    reads only those shifts' rows since 20261206110000. Same totals.
-- 2. stock_balances' upsert fires the insert trigger with no rows when every balance already existed (the usual
--    sale); inventory_value_balances_changed then still planned and ran its joins. It returns at once when the
--    transition table is empty (no rows: nothing to add, as before).

-- private.compute_shift_totals is not redefined here: 20261206110000_shift_totals_by_shift (ADR 0426) made it read
-- only the asked shifts' rows, each branch planned for its own case, which is what this change needed too.

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
