-- Explicit grants for hosted Supabase as it is today. Since late 2026 a hosted project no longer grants new
-- tables, views, sequences and functions in public to anon, authenticated and service_role (the "Default
-- privileges for new entities" switch is off; `supabase start` does the same with
-- [api] auto_expose_new_tables = false). The earlier migrations were written for the old defaults: they
-- revoke and re-grant anon and authenticated explicitly, but the service role kept its rights only through
-- those defaults. On a project created today it had none, so every "only the service role writes" path
-- (billing_history, payment_methods, the back office's counts) failed with 42501.
--
-- Who needs what (least privilege; row level security narrows every grant below to rows):
-- * anon: nothing. Signed-out screens (landing, pricing, auth) read no table and call no function.
-- * authenticated: already granted explicitly where each table is created (select; update of
--   profiles.full_name/phone and user_plans.auto_renew; insert of support tickets) and EXECUTE on
--   is_admin, choose_plan, private.assert_admin and the admin_* functions.
-- * service_role: the billing back office, the payment provider integration and admin scripts read and
--   write every table of the data API (it bypasses row level security). It calls no function: is_admin
--   is granted to it where it is created; choose_plan and admin_* need a signed-in user's JWT.
-- No table here has a sequence (uuid keys) and there are no views. Trigger functions need no grant: a
-- trigger runs its function whatever the writer's rights, and the helpers they call run as the owner.
-- PostgreSQL still gives EXECUTE on every new function to PUBLIC, on hosted too: each function's own
-- migration revokes it (tests/db/schema-lint.test.ts checks that anon can execute none).

grant select, insert, update, delete on table
  public.profiles,
  public.user_plans,
  public.billing_history,
  public.payment_methods,
  public.login_activity,
  public.active_sessions,
  public.support_tickets
to service_role;
