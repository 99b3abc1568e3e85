-- Issue 23: dead definitions go. A function is dead when no code (shared/, src/, supabase/ with the local stack,
-- the Edge Functions and the seed, tests/, bench/, scripts/) calls it through .rpc() or SQL, and no function body,
-- policy, trigger, column default, constraint or index of the live schema calls it (checked over pg_catalog:
-- calls in the bodies with their comments stripped, policy expressions, pg_trigger, pg_depend).
--
-- private.catalog_typo_matches(uuid, text): search_catalog's typo step until 20261125120000, which replaced it by
-- private.catalog_typo_page and kept it "for anything else calling it". Nothing does: search_catalog calls
-- catalog_typo_page, and the only mention outside SQL was a test probing that the API cannot call it.
--
-- Kept on purpose although only tests, scripts or people call them: the old signatures of open_shift,
-- cash_in_out and close_shift (20261124140000: the back office and queued entries of older registers use them),
-- private.refresh_catalog_words, refresh_sales_summaries and refresh_stock_summaries (scripts/seed-large and the
-- tests rebuild with them), private.schedule_email_outbox_sender (README's hosted steps run it by hand).
drop function private.catalog_typo_matches(uuid, text);

comment on table private.catalog_words is
  'The distinct words (lower case, 2-40 letters or digits) of each business''s product names and brands, with how many products hold each: the dictionary that corrects typos in search_catalog. Written by triggers on public.products, read by private.catalog_typo_page. Not exposed to the API roles.';
