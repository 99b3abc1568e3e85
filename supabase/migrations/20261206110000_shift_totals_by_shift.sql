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
