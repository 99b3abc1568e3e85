-- Reports (issue 14): sales by day, week or month per store; profit and margin from the cost recorded on each
-- sale line; best and worst sellers; taxes per rate. See docs/adr/0142-reports-in-sql-under-rls.md.
--
-- * Who: owners (every store) and managers (their stores); cashiers and everyone else get 42501
--   (docs/permissions.md: "Reports: none" for cashiers, and cost and profit are never returned to them).
-- * How: security invoker, so row level security of sales, sale_lines, sale_line_costs and refunds applies to the
--   caller: a manager's figures cover only the stores they may use, whatever _store_id they pass. The role check
--   is a second, explicit gate (a cashier can read sale lines through RLS but must not get reports).
-- * Dates: a sale belongs to the local calendar day of its store (stores.time_zone) at occurred_at (the
--   register's clock, so offline and back-dated sales land on the day they happened). _from and _to are
--   inclusive local dates; weeks start on Monday (ISO, date_trunc('week')).
-- * Money is in minor units of the store's currency (bigint), so figures are per store and never summed across
--   currencies here. Revenue for profit and taxes is net of tax: line_total - tax_amount.
-- * Refunds: report_sales shows refunds in their own column on the day they happened; profit, sellers and taxes
--   are on sales as rung up (gross of refunds).

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
revoke all on function private.report_args(uuid, date, date, text) from public, anon;
grant execute on function private.report_args(uuid, date, date, text) to authenticated;

-- Sales per period and store: receipts, units, gross (what customers paid), discounts, tax, net of tax, refunds.
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
    with sold as (
      select date_trunc(_grain, (s.occurred_at at time zone st.time_zone)::date)::date as period, s.store_id,
             count(*)::bigint as receipts, sum(s.total)::bigint as gross, sum(s.discount_total)::bigint as discounts,
             sum(s.tax_total)::bigint as tax
        from public.sales s
        join public.stores st on st.id = s.store_id
       where s.business_id = _business_id
         and (_store_id is null or s.store_id = _store_id)
         and (s.occurred_at at time zone st.time_zone)::date between _from and _to
       group by 1, 2
    ),
    units as (
      select date_trunc(_grain, (s.occurred_at at time zone st.time_zone)::date)::date as period, s.store_id,
             sum(l.qty) as units
        from public.sales s
        join public.stores st on st.id = s.store_id
        join public.sale_lines l on l.sale_id = s.id and l.business_id = s.business_id
       where s.business_id = _business_id
         and (_store_id is null or s.store_id = _store_id)
         and (s.occurred_at at time zone st.time_zone)::date between _from and _to
       group by 1, 2
    ),
    refunded as (
      select date_trunc(_grain, (r.occurred_at at time zone st.time_zone)::date)::date as period, r.store_id,
             sum(r.total)::bigint as refunds
        from public.refunds r
        join public.stores st on st.id = r.store_id
       where r.business_id = _business_id
         and (_store_id is null or r.store_id = _store_id)
         and (r.occurred_at at time zone st.time_zone)::date between _from and _to
       group by 1, 2
    )
    select coalesce(so.period, rf.period), coalesce(so.store_id, rf.store_id),
           coalesce(so.receipts, 0), coalesce(u.units, 0), coalesce(so.gross, 0), coalesce(so.discounts, 0),
           coalesce(so.tax, 0), coalesce(so.gross - so.tax, 0), coalesce(rf.refunds, 0)
      from sold so
      left join units u on u.period = so.period and u.store_id = so.store_id
      full join refunded rf on rf.period = so.period and rf.store_id = so.store_id
     order by 1, 2;
end;
$$;
comment on function public.report_sales(uuid, date, date, text, uuid) is
  'Owners and managers (42501 otherwise; RLS limits managers to their stores): sales per local day/week/month '
  'and store in minor units, refunds apart. _from.._to inclusive local dates, at most two years.';

-- Profit and margin per period and store from the unit cost recorded on each sale line.
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
        select date_trunc(_grain, (s.occurred_at at time zone st.time_zone)::date)::date as period, s.store_id,
               sum(l.line_total - l.tax_amount)::bigint as revenue,
               round(sum(l.qty * coalesce(c.unit_cost, 0)))::bigint as cost,
               count(*) filter (where c.sale_line_id is null)::bigint as missing
          from public.sales s
          join public.stores st on st.id = s.store_id
          join public.sale_lines l on l.sale_id = s.id and l.business_id = s.business_id
          left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
         where s.business_id = _business_id
           and (_store_id is null or s.store_id = _store_id)
           and (s.occurred_at at time zone st.time_zone)::date between _from and _to
         group by 1, 2
      ) g
     order by 1, 2;
end;
$$;
comment on function public.report_profit(uuid, date, date, text, uuid) is
  'Owners and managers only (42501 otherwise): revenue net of tax, cost (qty x recorded unit cost), profit and '
  'margin per period and store; lines_without_cost counts lines sold without a recorded cost (counted at 0).';

-- Best (or worst) sellers over the range by revenue net of tax, with units and profit.
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
  return query
    select l.variant_id, max(l.description), sum(l.qty), sum(l.line_total - l.tax_amount)::bigint,
           (sum(l.line_total - l.tax_amount) - round(sum(l.qty * coalesce(c.unit_cost, 0))))::bigint
      from public.sales s
      join public.stores st on st.id = s.store_id
      join public.sale_lines l on l.sale_id = s.id and l.business_id = s.business_id
      left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
     where s.business_id = _business_id
       and (_store_id is null or s.store_id = _store_id)
       and (s.occurred_at at time zone st.time_zone)::date between _from and _to
     group by l.variant_id
     order by case when _worst then sum(l.line_total - l.tax_amount) end asc,
              case when not _worst then sum(l.line_total - l.tax_amount) end desc,
              l.variant_id
     limit least(greatest(coalesce(_limit, 10), 1), 100);
end;
$$;
comment on function public.report_top_products(uuid, date, date, uuid, boolean, int) is
  'Owners and managers only (42501 otherwise): the variants sold in the range, best (or worst, _worst) first by '
  'revenue net of tax, with units and profit; limit 1..100. Variants that did not sell at all are not listed.';

-- Tax collected per store and rate.
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
    select s.store_id, l.tax_rate::numeric, count(*)::bigint, sum(l.line_total - l.tax_amount)::bigint,
           sum(l.tax_amount)::bigint
      from public.sales s
      join public.stores st on st.id = s.store_id
      join public.sale_lines l on l.sale_id = s.id and l.business_id = s.business_id
     where s.business_id = _business_id
       and (_store_id is null or s.store_id = _store_id)
       and (s.occurred_at at time zone st.time_zone)::date between _from and _to
     group by 1, 2
     order by 1, 2;
end;
$$;
comment on function public.report_taxes(uuid, date, date, uuid) is
  'Owners and managers only (42501 otherwise): taxable amount (net of tax) and tax collected per store and rate.';

revoke all on function public.report_sales(uuid, date, date, text, uuid) from public, anon;
revoke all on function public.report_profit(uuid, date, date, text, uuid) from public, anon;
revoke all on function public.report_top_products(uuid, date, date, uuid, boolean, int) from public, anon;
revoke all on function public.report_taxes(uuid, date, date, uuid) from public, anon;
grant execute on function public.report_sales(uuid, date, date, text, uuid) to authenticated;
grant execute on function public.report_profit(uuid, date, date, text, uuid) to authenticated;
grant execute on function public.report_top_products(uuid, date, date, uuid, boolean, int) to authenticated;
grant execute on function public.report_taxes(uuid, date, date, uuid) to authenticated;
