-- Live tables (issue 28, docs/adr/0240): a table is live only when it is in Supabase's supabase_realtime
-- publication. The same statement makes it live on hosted Realtime (which decodes the WAL) and on the local
-- stack (whose Realtime server puts a capture trigger on each table of the publication). Every subscriber
-- receives a change only if its own RLS lets it select the row, and only the columns it may select.
--   stock_balances  stock on hand: the stock page, the product page and every register
--   sales           today's sales and the overview tiles (owners, managers; cashiers their own shifts)
--   variant_costs   cost prices, owners and managers only (cashiers never see them)
--   support_tickets, ticket_replies  the open support thread, the customer's and the admin's
--   activity        the activity log
alter publication supabase_realtime add table
  public.stock_balances,
  public.sales,
  public.variant_costs,
  public.support_tickets,
  public.ticket_replies,
  public.activity;
