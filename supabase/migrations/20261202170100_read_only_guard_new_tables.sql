-- Read-only maintenance (docs/adr/0280) on the tables that arrived beside it: collections and product images are
-- business data and wait like the rest. Exempt, with their reasons in tests/db/read-only-mode.test.ts: the till's
-- PINs and switches (the counter keeps selling during maintenance, and a wrong PIN must still count toward the
-- lockout), the registers' outbox reports (what waits to sync is what a manager needs to see then), and the
-- business export's job row (an export only reads the business).
create trigger read_only_guard before insert or update or delete on public.collections
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.product_images
  for each statement execute function private.read_only_guard();
