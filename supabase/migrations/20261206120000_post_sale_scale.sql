-- post_sale at scale (issue 32, ADR 0430): two summary triggers did work that grew with the database, not the sale.
--
-- 1. A sale whose stock went negative (or with a serial or prescription problem) is updated after its insert, to add
--    the review reasons. The shift totals' update trigger recomputed the sale's shift from the raw rows for any
--    update, and private.compute_shift_totals grouped every sale, tender, refund and cash movement of the database
--    before joining the one shift (the shift filter was not pushed into the grouped subqueries): 70 ms a sale at
--    2,000 variants on PostgreSQL, growing with every sale stored. Now the trigger recomputes only the shifts whose
--    rows changed in what the totals count (the shift, the total; a row without its pair), and each grouped
--    subquery is filtered by the shifts or the business asked for. Same totals.
-- 2. stock_balances' upsert fires the insert trigger with no rows when every balance already existed (the usual
--    sale); inventory_value_balances_changed then still planned and ran its joins. It returns at once when the
--    transition table is empty (no rows: nothing to add, as before).

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
    -- Each grouped subquery filtered by the same shifts or business as the outer rows (the planner does not push
    -- `= any` through a grouped left join): the shift's rows, not the database's.
    left join (select x.shift_id, count(*) as n, sum(x.total) as gross from public.sales x
                where (_business_id is null or x.business_id = _business_id) and (_shifts is null or x.shift_id = any (_shifts))
                group by 1) sa on sa.shift_id = sh.id
    left join (select x.shift_id, sum(t.amount) filter (where t.kind = 'cash') as cash,
                      sum(t.amount) filter (where t.kind = 'card') as card,
                      sum(t.amount) filter (where t.kind = 'other') as other
                 from public.sales x join public.sale_tenders t on t.sale_id = x.id
                where (_business_id is null or x.business_id = _business_id) and (_shifts is null or x.shift_id = any (_shifts))
                group by 1) te on te.shift_id = sh.id
    left join (select r.shift_id, sum(r.total) as total, sum(r.total) filter (where r.tender_kind = 'cash') as cash
                 from public.refunds r
                where (_business_id is null or r.business_id = _business_id) and (_shifts is null or r.shift_id = any (_shifts))
                group by 1) re on re.shift_id = sh.id
    left join (select m.shift_id, sum(m.amount) filter (where m.kind = 'in') as cash_in,
                      sum(m.amount) filter (where m.kind = 'out') as cash_out
                 from public.cash_movements m
                where (_business_id is null or m.business_id = _business_id) and (_shifts is null or m.shift_id = any (_shifts))
                group by 1) cm on cm.shift_id = sh.id
   where (_business_id is null or sh.business_id = _business_id) and (_shifts is null or sh.id = any (_shifts));
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
