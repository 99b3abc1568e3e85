-- Issue 32 (ADR 0445): the register's catalog at 1,000,000 variants, packed. pos_catalog returns a row per variant,
-- and on PGlite the per-row work (product, barcode and price lookups, each row leaving the WASM worker) costs about
-- 275 us a row: ~275 s for 1,000,000, whatever the page shape (ADR 0420). Here the catalog is kept pre-serialised per
-- business in blocks of a few thousand variants by id range (the uuid's first `bits` bits), each one json value
-- in column arrays: a block costs one row however many variants it holds, so it passes the Data API's 1,000-row cap.
-- Triggers on variants, products and barcodes mark the blocks a change touched (the body for names, codes, tax and
-- archiving; the prices alone for a price change, so a bulk price change re-sends ~10 bytes an item, not the
-- catalog); a stale block is rebuilt when it is next read. Store prices and the store's default tax are not in the
-- blocks (they are per store; the blocks are per business): pos_catalog_store_prices sends them apart.

-- ==== Tables ====================================================================================================

create table private.pos_catalog_packs (
  business_id uuid not null,
  -- Blocks are the ids' first `bits` bits: 2^bits blocks of about 8,192 live variants (pos_pack_bits).
  bits integer not null,
  packed_at timestamp with time zone default now() not null,
  constraint pos_catalog_packs_pkey primary key (business_id),
  constraint pos_catalog_packs_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint pos_catalog_packs_bits_check check (bits between 0 and 12)
);
alter table private.pos_catalog_packs enable row level security;
revoke all on table private.pos_catalog_packs from public, anon, authenticated;
comment on table private.pos_catalog_packs is 'How a business''s register catalog is cut into blocks (ADR 0445). No API access: the pos_catalog_block* functions read and write it as their owner.';

create table private.pos_catalog_blocks (
  business_id uuid not null,
  n integer not null,
  -- Revisions from one sequence: body_rev moves when a name, code, tax, unit or archiving in the block changed (the
  -- prices move with it), price_rev when only a price did. The register keeps both per block and asks for a block
  -- again when either moved.
  body_rev bigint not null,
  price_rev bigint not null,
  body_stale boolean default true not null,
  price_stale boolean default true not null,
  items integer default 0 not null,
  -- {"ids","names","skus","codes","tax","kg","lots"}: arrays in id order; codes are a variant's barcodes sorted and
  -- joined by a space; tax is the product's rate or null (the store's default then).
  body json,
  -- The variants' own prices, in the body's order.
  prices json,
  built_at timestamp with time zone,
  constraint pos_catalog_blocks_pkey primary key (business_id, n),
  constraint pos_catalog_blocks_business_id_fkey foreign key (business_id) references private.pos_catalog_packs(business_id) on delete cascade,
  constraint pos_catalog_blocks_n_check check (n >= 0)
);
alter table private.pos_catalog_blocks enable row level security;
revoke all on table private.pos_catalog_blocks from public, anon, authenticated;
comment on table private.pos_catalog_blocks is 'The register''s catalog per business, pre-serialised in blocks by id range (ADR 0445); a cache of variants, products and barcodes. No API access: triggers mark blocks stale, the pos_catalog_block* functions rebuild and read them as their owner.';

create sequence private.pos_catalog_rev;
revoke all on sequence private.pos_catalog_rev from public, anon, authenticated;

-- ==== Functions =================================================================================================

-- How many bits of the id cut a catalog of _count live variants into blocks of about 8,192 (at most 4,096 blocks).
create or replace function private.pos_pack_bits(_count bigint)
returns integer
language sql
immutable
set search_path = ''
as $$
  select least(12, greatest(0, ceil(log(2, greatest(_count, 1) / 8192.0))))::int;
$$;
revoke all on function private.pos_pack_bits(bigint) from public;

-- The block holding an id: its first 32 bits' top `_bits` bits.
create or replace function private.pos_pack_block_of(_id uuid, _bits integer)
returns integer
language sql
immutable
set search_path = ''
as $$
  select case when _bits = 0 then 0 else (('x' || left(_id::text, 8))::bit(32)::bigint >> (32 - _bits))::int end;
$$;
revoke all on function private.pos_pack_block_of(uuid, integer) from public;

-- The first id of block _n (the nil uuid for block 0).
create or replace function private.pos_pack_block_start(_n integer, _bits integer)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select (lpad(to_hex(case when _bits = 0 then 0 else _n::bigint << (32 - _bits) end), 8, '0')
          || '-0000-0000-0000-000000000000')::uuid;
$$;
revoke all on function private.pos_pack_block_start(integer, integer) from public;

-- The last id of block _n (the all-ones uuid for the last block), so a block is one closed range of the index.
create or replace function private.pos_pack_block_end(_n integer, _bits integer)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select (lpad(to_hex(case when _bits = 0 then 4294967295 else ((_n::bigint + 1) << (32 - _bits)) - 1 end), 8, '0')
          || '-ffff-ffff-ffff-ffffffffffff')::uuid;
$$;
revoke all on function private.pos_pack_block_end(integer, integer) from public;

-- (Re)cuts a business's catalog: `bits` from its live variants (or as given: tests, an operator), every block
-- present and stale. Called on the first read, and when the catalog has grown or shrunk past twice the blocks' size
-- (pos_catalog_blocks).
create or replace function private.pos_pack_init(_business uuid, _bits integer default null)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_bits int := coalesce(_bits, private.pos_pack_bits((select count(*) from public.variants v
                                                       where v.business_id = _business and v.archived_at is null)));
begin
  insert into private.pos_catalog_packs (business_id, bits) values (_business, v_bits)
  on conflict (business_id) do update set bits = excluded.bits, packed_at = now();
  delete from private.pos_catalog_blocks b where b.business_id = _business;
  -- One revision for the new cut: the register compares `bits` first and loads every block after a new cut.
  insert into private.pos_catalog_blocks (business_id, n, body_rev, price_rev)
  select _business, n, x.r, x.r
    from generate_series(0, (1 << v_bits) - 1) n, (select nextval('private.pos_catalog_rev') as r) x;
  return v_bits;
end;
$$;
revoke all on function private.pos_pack_init(uuid, integer) from public;

-- Rebuilds block _n of a business if it is stale (its row locked: two registers rebuild it once). The body and the
-- prices are read in one statement, so they stay in the same order; when only prices are stale, only they are.
create or replace function private.pos_pack_refresh(_business uuid, _n integer)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_block private.pos_catalog_blocks;
  v_bits int;
  v_from uuid;
  v_to uuid;
begin
  select b.* into v_block from private.pos_catalog_blocks b where b.business_id = _business and b.n = _n for update;
  if v_block.n is null or not (v_block.body_stale or v_block.price_stale) then
    return;
  end if;
  select p.bits into v_bits from private.pos_catalog_packs p where p.business_id = _business;
  v_from := private.pos_pack_block_start(_n, v_bits);
  v_to := private.pos_pack_block_end(_n, v_bits);
  if v_block.body_stale then
    -- The rows pos_catalog's full load returns for these ids (live variants of live products), by id.
    with page as (
      select v.id, v.sku, v.price, p.tax_rate, p.unit, p.has_lots,
             p.name || coalesce(' ' || nullif(concat_ws(' / ', v.option1, v.option2, v.option3), ''), '') as name
        from public.variants v
        join public.products p on p.id = v.product_id
       where v.business_id = _business and v.id between v_from and v_to
         and v.archived_at is null and p.archived_at is null
    ), codes as (
      select b.variant_id, string_agg(b.code, ' ' order by b.code) as codes
        from public.barcodes b
       where b.variant_id in (select page.id from page)
       group by b.variant_id
    ), listed as (
      select page.*, coalesce(codes.codes, '') as codes from page left join codes on codes.variant_id = page.id
    )
    update private.pos_catalog_blocks b
       set body = x.body, prices = x.prices, items = x.items, body_stale = false, price_stale = false, built_at = now()
      from (select json_build_object(
                     'ids', coalesce(json_agg(r.id order by r.id), '[]'),
                     'names', coalesce(json_agg(r.name order by r.id), '[]'),
                     'skus', coalesce(json_agg(r.sku order by r.id), '[]'),
                     'codes', coalesce(json_agg(r.codes order by r.id), '[]'),
                     'tax', coalesce(json_agg(r.tax_rate order by r.id), '[]'),
                     'kg', coalesce(json_agg((r.unit = 'kg')::int order by r.id), '[]'),
                     'lots', coalesce(json_agg(r.has_lots::int order by r.id), '[]')) as body,
                   coalesce(json_agg(r.price order by r.id), '[]') as prices,
                   count(*)::int as items
              from listed r) x
     where b.business_id = _business and b.n = _n;
  else
    -- Only prices changed (pos_pack_variants_updated): the same variants as the body, so the same order. The
    -- archived products come from their partial index as one hashed list, rather than a product lookup per variant
    -- (after a bulk price change every block is rebuilt this way).
    update private.pos_catalog_blocks b
       set prices = x.prices, price_stale = false, built_at = now()
      from (select coalesce(json_agg(v.price order by v.id), '[]') as prices
              from public.variants v
             where v.business_id = _business and v.id between v_from and v_to and v.archived_at is null
               and v.product_id not in (select p.id from public.products p
                                         where p.business_id = _business and p.archived_at is not null)) x
     where b.business_id = _business and b.n = _n;
  end if;
end;
$$;
revoke all on function private.pos_pack_refresh(uuid, integer) from public;

-- Every stale block of a business built now (the large seed, which loads without triggers; an operator after a
-- bulk load). Cuts the catalog first when it has no blocks.
create or replace function private.pos_pack_build(_business uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_n int;
  v_built int := 0;
begin
  if not exists (select 1 from private.pos_catalog_packs p where p.business_id = _business) then
    perform private.pos_pack_init(_business);
  end if;
  for v_n in select b.n from private.pos_catalog_blocks b
              where b.business_id = _business and (b.body_stale or b.price_stale) order by b.n loop
    perform private.pos_pack_refresh(_business, v_n);
    v_built := v_built + 1;
  end loop;
  return v_built;
end;
$$;
revoke all on function private.pos_pack_build(uuid) from public;

-- Marks the blocks holding the given variants stale: the body (and prices) when _body, else the prices only. A
-- business without a pack has nothing to mark (its blocks are cut on the first read).
create or replace function private.pos_pack_mark(_businesses uuid[], _ids uuid[], _body boolean)
returns void
language sql
security definer
set search_path = ''
as $$
  update private.pos_catalog_blocks b
     set body_stale = b.body_stale or _body, price_stale = true,
         body_rev = case when _body then nextval('private.pos_catalog_rev') else b.body_rev end,
         price_rev = nextval('private.pos_catalog_rev')
    from (select distinct x.business_id, private.pos_pack_block_of(x.id, p.bits) as n
            from unnest(_businesses, _ids) as x (business_id, id)
            join private.pos_catalog_packs p on p.business_id = x.business_id) t
   where b.business_id = t.business_id and b.n = t.n;
$$;
revoke all on function private.pos_pack_mark(uuid[], uuid[], boolean) from public;

-- After a statement that changed a quarter or more of a block's variants (a bulk price change, an import), the block
-- is rebuilt at once, in that statement: the writer of a bulk change pays for it (~70 ms a block of 8,192 prices at
-- 1,000,000 variants on PGlite), not the first register to load afterwards (128 blocks, ~9 s). A few scattered
-- changes leave their blocks stale, rebuilt on the next read (pos_catalog_block).
create or replace function private.pos_pack_refresh_bulk(_businesses uuid[], _ids uuid[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v record;
begin
  for v in
    select t.business_id, t.n
      from (select x.business_id, private.pos_pack_block_of(x.id, p.bits) as n, count(*) as changed
              from unnest(_businesses, _ids) as x (business_id, id)
              join private.pos_catalog_packs p on p.business_id = x.business_id
             group by 1, 2) t
      join private.pos_catalog_blocks b on b.business_id = t.business_id and b.n = t.n
     where t.changed * 4 >= greatest(b.items, 1) and (b.body_stale or b.price_stale)
     order by 1, 2
  loop
    perform private.pos_pack_refresh(v.business_id, v.n);
  end loop;
end;
$$;
revoke all on function private.pos_pack_refresh_bulk(uuid[], uuid[]) from public;

-- The triggers: one statement's rows at a time (a bulk change of 62,500 variants marks its 8 blocks once).
create or replace function private.pos_pack_variants_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.pos_pack_mark(array(select n.business_id from new_rows n), array(select n.id from new_rows n), true);
    perform private.pos_pack_refresh_bulk(array(select n.business_id from new_rows n), array(select n.id from new_rows n));
  elsif tg_op = 'DELETE' then
    perform private.pos_pack_mark(array(select o.business_id from old_rows o), array(select o.id from old_rows o), true);
    perform private.pos_pack_refresh_bulk(array(select o.business_id from old_rows o), array(select o.id from old_rows o));
  else
    -- What the register shows of a variant besides its price: a change there re-sends the block's body; a price
    -- alone re-sends the block's prices.
    perform private.pos_pack_mark(array_agg(n.business_id), array_agg(n.id), true)
       from new_rows n join old_rows o on o.id = n.id
      where (o.product_id, o.option1, o.option2, o.option3, o.sku, o.archived_at, o.business_id)
            is distinct from (n.product_id, n.option1, n.option2, n.option3, n.sku, n.archived_at, n.business_id);
    perform private.pos_pack_mark(array_agg(n.business_id), array_agg(n.id), false)
       from new_rows n join old_rows o on o.id = n.id
      where o.price is distinct from n.price
        and (o.product_id, o.option1, o.option2, o.option3, o.sku, o.archived_at, o.business_id)
            is not distinct from (n.product_id, n.option1, n.option2, n.option3, n.sku, n.archived_at, n.business_id);
    perform private.pos_pack_refresh_bulk(array(select n.business_id from new_rows n), array(select n.id from new_rows n));
  end if;
  return null;
end;
$$;
revoke all on function private.pos_pack_variants_changed() from public;

create or replace function private.pos_pack_products_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- What the register shows of a product: its name, tax, unit, lots and archiving.
  perform private.pos_pack_mark(array_agg(v.business_id), array_agg(v.id), true)
     from new_rows n join old_rows o on o.id = n.id
     join public.variants v on v.product_id = n.id
    where (o.name, o.tax_rate, o.unit, o.has_lots, o.archived_at) is distinct from (n.name, n.tax_rate, n.unit, n.has_lots, n.archived_at);
  return null;
end;
$$;
revoke all on function private.pos_pack_products_changed() from public;

create or replace function private.pos_pack_barcodes_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('INSERT', 'UPDATE') then
    perform private.pos_pack_mark(array(select n.business_id from new_rows n), array(select n.variant_id from new_rows n), true);
  end if;
  if tg_op in ('DELETE', 'UPDATE') then
    perform private.pos_pack_mark(array(select o.business_id from old_rows o), array(select o.variant_id from old_rows o), true);
  end if;
  return null;
end;
$$;
revoke all on function private.pos_pack_barcodes_changed() from public;

create trigger pos_pack_variants_inserted after insert on public.variants
  referencing new table as new_rows for each statement execute function private.pos_pack_variants_changed();
create trigger pos_pack_variants_updated after update on public.variants
  referencing old table as old_rows new table as new_rows for each statement execute function private.pos_pack_variants_changed();
create trigger pos_pack_variants_deleted after delete on public.variants
  referencing old table as old_rows for each statement execute function private.pos_pack_variants_changed();
create trigger pos_pack_products_updated after update on public.products
  referencing old table as old_rows new table as new_rows for each statement execute function private.pos_pack_products_changed();
create trigger pos_pack_barcodes_inserted after insert on public.barcodes
  referencing new table as new_rows for each statement execute function private.pos_pack_barcodes_changed();
create trigger pos_pack_barcodes_updated after update on public.barcodes
  referencing old table as old_rows new table as new_rows for each statement execute function private.pos_pack_barcodes_changed();
create trigger pos_pack_barcodes_deleted after delete on public.barcodes
  referencing old table as old_rows for each statement execute function private.pos_pack_barcodes_changed();

-- The register's first call of a load: how the business's catalog is cut, each block's revisions and size, and the
-- store's default tax. Cuts the catalog on the first call, and again once it has grown or shrunk past twice the
-- blocks' size (the register then sees new `bits` and loads every block). Owners, managers and cashiers of the store.
create or replace function public.pos_catalog_blocks(_store_id uuid)
returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
  v_bits int;
  v_items bigint;
  v_stale boolean;
begin
  select p.bits into v_bits from private.pos_catalog_packs p where p.business_id = v_business;
  if v_bits is null then
    v_bits := private.pos_pack_init(v_business);
  else
    -- The blocks' sizes say how large the catalog is without counting it, once every body is built.
    select sum(b.items), bool_or(b.body_stale) into v_items, v_stale
      from private.pos_catalog_blocks b where b.business_id = v_business;
    if not v_stale and abs(private.pos_pack_bits(v_items) - v_bits) >= 2 then
      v_bits := private.pos_pack_init(v_business);
    end if;
  end if;
  return json_build_object(
    'bits', v_bits,
    'default_tax_rate', (select s.default_tax_rate from public.stores s where s.id = _store_id),
    'blocks', (select coalesce(json_agg(json_build_array(b.n, b.body_rev, b.price_rev, b.items) order by b.n), '[]')
                 from private.pos_catalog_blocks b where b.business_id = v_business));
end;
$$;
comment on function public.pos_catalog_blocks(uuid) is 'The register''s packed catalog (ADR 0445): how the business''s catalog is cut, each block''s revisions and size, the store''s default tax. Owners, managers and cashiers of the store.';
revoke all on function public.pos_catalog_blocks(uuid) from public, anon;
grant execute on function public.pos_catalog_blocks(uuid) to authenticated;

-- One block of the packed catalog, rebuilt first if a change made it stale. `_bits` is the cut the register holds:
-- after a new cut the answer's `bits` differs and carries no block (the register loads again). `_body` false
-- sends the prices alone (the register has the body at this body_rev). Owners, managers and cashiers of the store.
create or replace function public.pos_catalog_block(_store_id uuid, _n integer, _bits integer, _body boolean default true)
returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
  v_bits int;
  v_block private.pos_catalog_blocks;
begin
  select p.bits into v_bits from private.pos_catalog_packs p where p.business_id = v_business;
  if v_bits is distinct from _bits then
    return json_build_object('bits', v_bits);
  end if;
  if _n is null or _n < 0 or _n >= (1 << v_bits) then
    raise exception 'no such block' using errcode = '22023';
  end if;
  perform private.pos_pack_refresh(v_business, _n);
  select b.* into v_block from private.pos_catalog_blocks b where b.business_id = v_business and b.n = _n;
  return json_build_object('bits', v_bits, 'n', _n, 'body_rev', v_block.body_rev, 'price_rev', v_block.price_rev,
                           'items', v_block.items, 'body', case when coalesce(_body, true) then v_block.body end,
                           'prices', v_block.prices);
end;
$$;
comment on function public.pos_catalog_block(uuid, integer, integer, boolean) is 'One block of the register''s packed catalog (ADR 0445), rebuilt first when stale; the prices alone when _body is false. Owners, managers and cashiers of the store.';
revoke all on function public.pos_catalog_block(uuid, integer, integer, boolean) from public, anon;
grant execute on function public.pos_catalog_block(uuid, integer, integer, boolean) to authenticated;

-- The prices alone of several blocks in one answer (a json array of {n, price_rev, prices}), each rebuilt first when
-- stale: after a bulk price change the register needs every block's prices, and one call per block was ~128 round
-- trips through a database that answers one at a time. At most 256 blocks a call; `_bits` as in pos_catalog_block
-- (another cut answers an empty array). Owners, managers and cashiers of the store.
create or replace function public.pos_catalog_block_prices(_store_id uuid, _bits integer, _ns integer[])
returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
  v_bits int;
  v_n int;
begin
  select p.bits into v_bits from private.pos_catalog_packs p where p.business_id = v_business;
  if v_bits is distinct from _bits then
    return '[]'::json;
  end if;
  if _ns is null or cardinality(_ns) > 256 or exists (select 1 from unnest(_ns) n where n is null or n < 0 or n >= (1 << v_bits)) then
    raise exception 'block numbers: 1 to 256 blocks of this cut' using errcode = '22023';
  end if;
  foreach v_n in array _ns loop
    perform private.pos_pack_refresh(v_business, v_n);
  end loop;
  return (select coalesce(json_agg(json_build_object('n', b.n, 'price_rev', b.price_rev, 'prices', b.prices) order by b.n), '[]')
            from private.pos_catalog_blocks b where b.business_id = v_business and b.n = any (_ns));
end;
$$;
comment on function public.pos_catalog_block_prices(uuid, integer, integer[]) is 'The prices of several blocks of the register''s packed catalog in one answer (ADR 0445), each rebuilt first when stale. Owners, managers and cashiers of the store.';
revoke all on function public.pos_catalog_block_prices(uuid, integer, integer[]) from public, anon;
grant execute on function public.pos_catalog_block_prices(uuid, integer, integer[]) to authenticated;

-- The store's own prices, apart from the business's blocks: every one (a removed price is a variant missing here),
-- as two arrays. Owners, managers and cashiers of the store.
create or replace function public.pos_catalog_store_prices(_store_id uuid)
returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
begin
  return (select json_build_object('ids', coalesce(json_agg(sp.variant_id order by sp.variant_id), '[]'),
                                   'prices', coalesce(json_agg(sp.price order by sp.variant_id), '[]'))
            from public.store_prices sp where sp.store_id = _store_id and sp.business_id = v_business);
end;
$$;
comment on function public.pos_catalog_store_prices(uuid) is 'The store''s own prices for the register''s packed catalog (ADR 0445), as two arrays. Owners, managers and cashiers of the store.';
revoke all on function public.pos_catalog_store_prices(uuid) from public, anon;
grant execute on function public.pos_catalog_store_prices(uuid) to authenticated;
