-- The register's catalog (issue 13): what a till needs to sell offline, one page at a time (keyset on the variant
-- id, at most 1,000 rows, PostgREST's max_rows), optionally only what changed since the register's last load
-- (a delta refresh). Prices are the store's (store price, else the variant's) and taxes resolved (the product's
-- rate, else the store's default), so the register computes exactly what post_sale will. No cost is returned.
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
begin
  select s.* into v_store from public.stores s where s.id = _store_id;
  return query
    select v.id,
           p.name || coalesce(' ' || nullif(concat_ws(' / ', v.option1, v.option2, v.option3), ''), ''),
           v.sku, coalesce(sp.price, v.price), coalesce(p.tax_rate, v_store.default_tax_rate)::numeric, p.unit,
           p.has_lots,
           coalesce((select array_agg(b.code order by b.code) from public.barcodes b where b.variant_id = v.id), '{}'),
           (v.archived_at is not null or p.archived_at is not null),
           greatest(v.updated_at, p.updated_at, sp.updated_at)
      from public.variants v
      join public.products p on p.id = v.product_id
      left join public.store_prices sp on sp.store_id = _store_id and sp.variant_id = v.id
     where v.business_id = v_business
       and (_after is null or v.id > _after)
       and (_since is null or greatest(v.updated_at, p.updated_at, sp.updated_at) > _since
            or exists (select 1 from public.barcodes b where b.variant_id = v.id and b.created_at > _since))
       and (_since is not null or (v.archived_at is null and p.archived_at is null))
     order by v.id
     limit least(greatest(coalesce(_limit, 1000), 1), 1000);
end;
$$;
revoke all on function public.pos_catalog(uuid, uuid, int, timestamptz) from public, anon;
grant execute on function public.pos_catalog(uuid, uuid, int, timestamptz) to authenticated;
