-- The overview's gross profit of today and the same day last week from the maintained per-store daily facts (issue 32,
-- ADR 0438).
--
-- overview_gross_profit read the two days' sales, lines, costs, refunds and refund lines (ADR 0162). At 10,000,000
-- sale lines over 100 stores that is about 27,000 lines and 400 ms, most of the owner's overview. The same figures
-- are kept per store and local day in sales_daily_breakdown (dimension 'store', ADR 0163): gross, refunds, the tax
-- net of the refunds' tax share, and the cost rounded per line net of restocked refunds. report_profit reads them,
-- and tests/db/report-one-profit.test.ts holds the overview equal to it. Same signature, same figures.

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
