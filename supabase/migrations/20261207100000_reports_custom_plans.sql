-- Report functions plan each query for the call's own arguments (issue 32, ADR 0437).
--
-- PL/pgSQL keeps each statement's plan for the session. After five calls PostgreSQL may switch to a generic plan,
-- made without the argument values. For the reports that plan does not know the business, the date range or the
-- store, and at 10,000,000 sale lines over 100 stores it reads far more rows: report_profit for 30 days went from
-- 30 ms (calls 1-5) to 980 ms (call 6 on) in one session, and the year by month from 74 ms to 1.6-2.2 s.
-- force_custom_plan plans each call for its arguments, which costs a few milliseconds of planning. The setting
-- holds for the whole call, functions called from it included, and is a user setting (hosted Supabase allows it).

alter function public.report_sales(uuid, date, date, text, uuid) set plan_cache_mode = force_custom_plan;
alter function public.report_profit(uuid, date, date, text, uuid) set plan_cache_mode = force_custom_plan;
alter function public.report_top_products(uuid, date, date, uuid, boolean, integer) set plan_cache_mode = force_custom_plan;
alter function public.report_taxes(uuid, date, date, uuid) set plan_cache_mode = force_custom_plan;
alter function public.report_sales_by(uuid, date, date, text, uuid) set plan_cache_mode = force_custom_plan;
alter function public.report_sell_through(uuid, date, date, uuid, boolean, integer) set plan_cache_mode = force_custom_plan;
alter function public.report_slow_movers(uuid, uuid, integer, numeric, integer) set plan_cache_mode = force_custom_plan;
alter function public.report_inventory_valuation(uuid, uuid) set plan_cache_mode = force_custom_plan;
alter function public.report_stock_movements(uuid, date, date, text, uuid) set plan_cache_mode = force_custom_plan;
alter function public.report_shifts(uuid, date, date, uuid) set plan_cache_mode = force_custom_plan;
alter function public.business_overview(uuid, uuid, date) set plan_cache_mode = force_custom_plan;
alter function public.report_register_outbox(uuid, integer, timestamp with time zone) set plan_cache_mode = force_custom_plan;
alter function public.report_collection_sell_through(uuid, date, date, uuid) set plan_cache_mode = force_custom_plan;
