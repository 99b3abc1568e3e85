-- One store's days of one variant in a single index range (issue 32, ADR 0438).
--
-- Sell-through reads the exact units of each candidate (store, variant) pair over the range, and the per-store best
-- and worst sellers read each candidate variant's days in one store. sales_daily_variant had (store_id, day,
-- variant_id) and (variant_id, day): the planner took the second and read the variant's rows in every store. At
-- 10,000,000 sale lines over 100 stores that is about 600 rows read and dropped per pair for 30 days; sell-through
-- best 50 over 30 days read 1,700,000 index entries for 2,856 pairs (4-5 s). With (store_id, variant_id, day) each
-- pair is about 7 rows. "if not exists": on a live chain the index can be built first with "create index
-- concurrently" (a plain build blocks writes to the table, and so sales, for the minute it takes at 10M lines).
create index if not exists sales_daily_variant_pair_day_idx on public.sales_daily_variant (store_id, variant_id, day);
