-- The service role writes catalog rows whose CHECK constraints and triggers call helpers in schema private
-- (barcode check digits, plan limits). Executing a function needs USAGE on its schema, which only
-- authenticated had, so every service-role insert into barcodes failed with "permission denied for schema
-- private". The service role is trusted and bypasses RLS already; USAGE alone opens no private table.
grant usage on schema private to service_role;
