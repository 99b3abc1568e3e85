-- Issue 32 (ADR 0420): the register's full catalog load at 1,000,000 variants. pos_catalog's full load read each
-- row's barcodes in a correlated subplan (a sub-query started, sorted and aggregated per row). Now the page's
-- variants (with their products) are read first and their barcodes in one grouped query over the page: on PGlite,
-- 60,000 variants, ~330 us a row before, ~275 us after (the same rows in the same order). Larger pages were tried
-- and dropped: the Data API answers at most 1,000 rows (db-max-rows). Same signature, rows and role check;
-- deltas (private.pos_catalog_delta) are unchanged.
create or replace function public.pos_catalog(
  _store_id uuid, _after uuid default null, _limit int default 1000, _since timestamptz default null
)
returns table (
  variant_id uuid, name text, sku text, price bigint, tax_rate numeric, unit text, has_lots boolean, barcodes text[],
  archived boolean, changed_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
  v_store public.stores;
  -- 1,000 at most: the Data API's max rows (hosted Supabase's db-max-rows) would cut a larger page anyway.
  v_limit int := least(greatest(coalesce(_limit, 1000), 1), 1000);
begin
  select s.* into v_store from public.stores s where s.id = _store_id;
  if _since is null then
    -- A full load: the business's live variants in id order from the keyset, on (business_id, id); the page's
    -- barcodes in one grouped read rather than a sub-query per row.
    return query
      with page as (
        select v.id, v.sku, v.price, v.updated_at,
               p.name || coalesce(' ' || nullif(concat_ws(' / ', v.option1, v.option2, v.option3), ''), '') as name,
               p.tax_rate, p.unit, p.has_lots, p.updated_at as product_updated_at
          from public.variants v
          join public.products p on p.id = v.product_id
         where v.business_id = v_business
           -- Never "_after is null or ...": a cached generic plan could not use the index for it (ADR 0169).
           and v.id > coalesce(_after, '00000000-0000-0000-0000-000000000000'::uuid)
           and v.archived_at is null and p.archived_at is null
         order by v.business_id, v.id
         limit v_limit
      ), codes as (
        select b.variant_id, array_agg(b.code order by b.code) as codes
          from public.barcodes b
         where b.variant_id in (select page.id from page)
         group by b.variant_id
      )
      select v.id, v.name, v.sku, coalesce(sp.price, v.price), coalesce(v.tax_rate, v_store.default_tax_rate)::numeric,
             v.unit, v.has_lots, coalesce(c.codes, '{}'), false, greatest(v.updated_at, v.product_updated_at, sp.updated_at)
        from page v
        left join public.store_prices sp on sp.store_id = _store_id and sp.variant_id = v.id
        left join codes c on c.variant_id = v.id
       order by v.id;
    return;
  end if;
  -- A delta: only what changed since the register's last load (archived ones too, so it drops them).
  return query select * from private.pos_catalog_delta(v_store, v_business, _after, v_limit, _since);
end;
$$;
revoke all on function public.pos_catalog(uuid, uuid, int, timestamptz) from public, anon;
grant execute on function public.pos_catalog(uuid, uuid, int, timestamptz) to authenticated;
