-- The register's start asks for the business's serial-tracked and prescription-only products (shop-packs.ts): at
-- 1,000,000 variants each was a scan of every product (210-246 ms and 108-174 ms on PGlite), ahead of the catalog's own
-- calls on the database's one connection. Few products are either, so a partial index on each answers at once.
create index if not exists products_business_serial_idx on public.products (business_id)
  where serial_tracking is not null and archived_at is null;
create index if not exists products_business_prescription_idx on public.products (business_id)
  where prescription_only and archived_at is null;
