-- Catalog search and the register's catalog at 100,000 variants (issue 12 scale targets, ADR 0143).
--
-- * search_catalog: same signature, results and order. It checks membership once (what the catalog tables' select
--   policy checks, private.my_business_ids) and then reads as its owner, instead of evaluating the policy
--   subplans on every one of its eight table references. Exact candidates first (barcode, SKU prefix, name
--   substring: indexes on (business_id, code), (business_id, sku) and the name trigram index); the typo-tolerant
--   trigram similarity (name % query) runs only when nothing matched exactly, because a common word ("Organic")
--   shares enough trigrams with thousands of names to make it the slow part.
-- * pos_catalog: same signature and rows. A full load walks (business_id, id); a delta (_since) starts from what
--   changed (variants, products, store prices, barcodes by their timestamps, each indexed) instead of reading the
--   whole catalog to filter it.
-- Who reads: unchanged (search_catalog: members of the business; pos_catalog: members with access to the store).

create index if not exists variants_business_id_idx on public.variants (business_id, id);
create index if not exists variants_business_updated_idx on public.variants (business_id, updated_at);
create index if not exists products_business_updated_idx on public.products (business_id, updated_at);
create index if not exists barcodes_business_created_idx on public.barcodes (business_id, created_at);
create index if not exists store_prices_store_updated_idx on public.store_prices (store_id, updated_at);
create index if not exists products_business_archived_idx on public.products (business_id) where archived_at is not null;
-- Browsing counts the live variants: an index-only scan of this instead of the table.
create index if not exists variants_business_live_idx on public.variants (business_id) where archived_at is null;

create or replace function public.search_catalog(
  _business_id uuid, _query text default null, _limit int default 50, _offset int default 0,
  _include_archived boolean default false
)
returns table (
  variant_id uuid, product_id uuid, product_name text, category_id uuid, brand text, unit text, sku text,
  option1 text, option2 text, option3 text, price bigint, barcode text, has_lots boolean, track_stock boolean,
  archived boolean, total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_q text := nullif(btrim(coalesce(_query, '')), '');
  v_sku text;
  v_sku_end text;
  v_like text;
  v_limit int := least(greatest(coalesce(_limit, 50), 1), 200);
  v_offset int := greatest(coalesce(_offset, 0), 0);
begin
  if char_length(v_q) > 100 then
    raise exception 'search text is too long (100 characters at most)' using errcode = '22023';
  end if;
  -- The select policy of products, variants and barcodes, once: a member of the (unsuspended) business.
  if _business_id is null or not exists (select 1 from private.my_business_ids() m where m = _business_id) then
    return;
  end if;

  if v_q is null then
    return query
      -- Products in name order from (business_id, name), each product's variants by SKU: an incremental sort
      -- that stops after the page instead of sorting the whole catalog.
      with page as (
        select v.id, p.name, v.sku
          from public.products p
          cross join lateral (
            select v.id, v.sku from public.variants v
             where v.product_id = p.id and (_include_archived or v.archived_at is null)) v
         where p.business_id = _business_id
           and (_include_archived or p.archived_at is null)
         order by p.name, v.sku
         limit v_limit offset v_offset
      ), total as (
        -- Live variants, less the live variants of archived products (a partial index finds those).
        select (select count(*) from public.variants v
                 where v.business_id = _business_id and (_include_archived or v.archived_at is null))
             - case when _include_archived then 0
                    else (select count(*) from public.products p join public.variants v on v.product_id = p.id
                           where p.business_id = _business_id and p.archived_at is not null and v.archived_at is null)
               end as n
      )
      select v.id, p.id, p.name, p.category_id, p.brand, p.unit, v.sku, v.option1, v.option2, v.option3, v.price,
             (select bc.code from public.barcodes bc where bc.variant_id = v.id order by bc.created_at, bc.code limit 1),
             p.has_lots, p.track_stock, (v.archived_at is not null or p.archived_at is not null), total.n
        from page
        join public.variants v on v.id = page.id
        join public.products p on p.id = v.product_id
        cross join total
       order by page.name, page.sku;
    return;
  end if;

  v_like := replace(replace(replace(v_q, '\', '\\'), '%', '\%'), '_', '\_');
  -- SKU prefix as a range, so the (business_id, sku text_pattern_ops) index serves it even in a generic plan.
  v_sku := upper(v_q);
  v_sku_end := left(v_sku, -1) || chr(ascii(right(v_sku, 1)) + 1);
  return query
    with exact as materialized (
      select bc.variant_id as id, 4::real as score
        from public.barcodes bc where bc.business_id = _business_id and bc.code = v_q
      union all
      select v.id, case when v.sku = v_sku then 4 else 3 end::real
        from public.variants v
       where v.business_id = _business_id
         and v.sku operator(pg_catalog.~>=~) v_sku and v.sku operator(pg_catalog.~<~) v_sku_end
      union all
      select v.id, case when p.name ilike v_like || '%' then 2 else extensions.similarity(p.name, v_q) end::real
        from public.products p join public.variants v on v.product_id = p.id
       where p.business_id = _business_id and p.name ilike '%' || v_like || '%'
    ), fuzzy as (
      -- Typo tolerance only when nothing matched as typed.
      select v.id, extensions.similarity(p.name, v_q)::real as score
        from public.products p join public.variants v on v.product_id = p.id
       where not exists (select 1 from exact)
         and p.business_id = _business_id and p.name operator(extensions.%) v_q
    ), best as (
      select c.id, max(c.score) as score
        from (select e.id, e.score from exact e union all select f.id, f.score from fuzzy f) c
       group by c.id
    ), page as (
      select b.id, b.score, p.name, v.sku, count(*) over () as total
        from best b
        join public.variants v on v.id = b.id
        join public.products p on p.id = v.product_id
       where _include_archived or (v.archived_at is null and p.archived_at is null)
       order by b.score desc, p.name, v.sku
       limit v_limit offset v_offset
    )
    select v.id, p.id, p.name, p.category_id, p.brand, p.unit, v.sku, v.option1, v.option2, v.option3, v.price,
           (select bc.code from public.barcodes bc where bc.variant_id = v.id order by bc.created_at, bc.code limit 1),
           p.has_lots, p.track_stock, (v.archived_at is not null or p.archived_at is not null), page.total
      from page
      join public.variants v on v.id = page.id
      join public.products p on p.id = v.product_id
     order by page.score desc, page.name, page.sku;
end;
$$;
revoke all on function public.search_catalog(uuid, text, int, int, boolean) from public, anon;
grant execute on function public.search_catalog(uuid, text, int, int, boolean) to authenticated;

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
  v_limit int := least(greatest(coalesce(_limit, 1000), 1), 1000);
begin
  select s.* into v_store from public.stores s where s.id = _store_id;
  if _since is null then
    -- A full load: the business's live variants in id order from the keyset, on (business_id, id).
    return query
      select v.id,
             p.name || coalesce(' ' || nullif(concat_ws(' / ', v.option1, v.option2, v.option3), ''), ''),
             v.sku, coalesce(sp.price, v.price), coalesce(p.tax_rate, v_store.default_tax_rate)::numeric, p.unit,
             p.has_lots,
             coalesce((select array_agg(b.code order by b.code) from public.barcodes b where b.variant_id = v.id), '{}'),
             false,
             greatest(v.updated_at, p.updated_at, sp.updated_at)
        from public.variants v
        join public.products p on p.id = v.product_id
        left join public.store_prices sp on sp.store_id = _store_id and sp.variant_id = v.id
       where v.business_id = v_business
         and (_after is null or v.id > _after)
         and v.archived_at is null and p.archived_at is null
       order by v.business_id, v.id
       limit v_limit;
    return;
  end if;
  -- A delta: only what changed since the register's last load (archived ones too, so it drops them).
  return query
    with changed as (
      select v.id from public.variants v where v.business_id = v_business and v.updated_at > _since
      union
      select v.id from public.products p join public.variants v on v.product_id = p.id
       where p.business_id = v_business and p.updated_at > _since
      union
      select sp.variant_id from public.store_prices sp where sp.store_id = _store_id and sp.updated_at > _since
      union
      select bc.variant_id from public.barcodes bc where bc.business_id = v_business and bc.created_at > _since
    )
    select v.id,
           p.name || coalesce(' ' || nullif(concat_ws(' / ', v.option1, v.option2, v.option3), ''), ''),
           v.sku, coalesce(sp.price, v.price), coalesce(p.tax_rate, v_store.default_tax_rate)::numeric, p.unit,
           p.has_lots,
           coalesce((select array_agg(b.code order by b.code) from public.barcodes b where b.variant_id = v.id), '{}'),
           (v.archived_at is not null or p.archived_at is not null),
           greatest(v.updated_at, p.updated_at, sp.updated_at)
      from changed c
      join public.variants v on v.id = c.id and v.business_id = v_business
      join public.products p on p.id = v.product_id
      left join public.store_prices sp on sp.store_id = _store_id and sp.variant_id = v.id
     where _after is null or v.id > _after
     order by v.id
     limit v_limit;
end;
$$;
revoke all on function public.pos_catalog(uuid, uuid, int, timestamptz) from public, anon;
grant execute on function public.pos_catalog(uuid, uuid, int, timestamptz) to authenticated;
