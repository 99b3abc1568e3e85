-- Issue 12, what was left (docs/adr/0152):
--
-- 1. Typo-tolerant catalog search through a dictionary of the catalog's words. The typo step of search_catalog
--    compared the whole query with every product name sharing its trigrams (name % query): a common word such as
--    "Organic" shares trigrams with an eighth of a 100,000-variant catalog, so "Organc Yogrt" read thousands of
--    names (154 ms p95 on PGlite, 229 ms on PostgreSQL under load). pg_trgm's documented pattern instead: a small
--    table of the distinct words of each business's product names and brands, kept by statement triggers,
--    trigram-indexed; each typed word is corrected against it (a few hundred words, not 100,000 names), then the
--    products holding the corrected words come from the name (and brand) trigram indexes. The typo step still runs
--    only when nothing matched as typed; exact matches (barcode, SKU, name) are unchanged.
-- 2. Purchase order drafts: edit_purchase_order_draft replaces a draft's lines (quantity, cost, removed, added) in
--    one audited call; the API roles lose direct UPDATE and DELETE on purchase_order_lines (a cost is money).
-- 3. Counts: post_count accepts a line for a lot the store does not hold yet (lot_number and expires_on instead of
--    lot_id); the lot is created (or found) and the count posted as ledger rows like every other line.

-- ---------------------------------------------------------------------------------------------------
-- 1. The catalog's words.

-- No policies and no grants: written by the security definer triggers below, read by the security definer
-- private.catalog_typo_matches (called by public.search_catalog after its membership check).
create table private.catalog_words (
  business_id uuid not null references public.businesses (id) on delete cascade,
  word text not null,
  -- How many products have the word in their name or brand: the row goes when it reaches zero, and the search
  -- starts from the typed word whose corrections are held by the fewest products.
  products integer not null,
  primary key (business_id, word)
);
alter table private.catalog_words enable row level security;
comment on table private.catalog_words is
  'The distinct words (lower case, 2-40 letters or digits) of each business''s product names and brands, with how '
  'many products hold each: the dictionary that corrects typos in search_catalog. Written by triggers on '
  'public.products, read by private.catalog_typo_matches. Not exposed to the API roles.';
create index catalog_words_trgm_idx on private.catalog_words using gin (word extensions.gin_trgm_ops);

-- A product's brand is searched like its name when a typed word was corrected to a brand's word.
create index if not exists products_brand_trgm_idx on public.products using gin (brand extensions.gin_trgm_ops);

-- The words of a text: lower case, split at anything but letters and digits, 2 to 40 characters, each once.
create or replace function private.catalog_words_of(_text text)
returns text[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(array_agg(distinct w order by w), '{}')
    from regexp_split_to_table(lower(coalesce(_text, '')), '[^[:alnum:]]+') as w
   where char_length(w) between 2 and 40;
$$;
revoke all on function private.catalog_words_of(text) from public, anon, authenticated;

-- Adds per (business, word) the given number of products (negative: removed), in key order (two writers lock
-- rows in the same order), and drops words no product holds any more. A business being deleted is skipped:
-- its words go with it (on delete cascade) and its products' delete trigger must not re-insert them.
create or replace function private.catalog_words_apply(_business_ids uuid[], _words text[], _deltas int[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.catalog_words as c (business_id, word, products)
  select d.business_id, d.word, sum(d.delta)
    from unnest(_business_ids, _words, _deltas) as d (business_id, word, delta)
   where d.word is not null and exists (select 1 from public.businesses b where b.id = d.business_id)
   group by d.business_id, d.word
  having sum(d.delta) <> 0
   order by d.business_id, d.word
  on conflict (business_id, word) do update set products = c.products + excluded.products;
  delete from private.catalog_words c
   using (select distinct d.business_id, d.word from unnest(_business_ids, _words) as d (business_id, word)) d
   where c.business_id = d.business_id and c.word = d.word and c.products <= 0;
end;
$$;
revoke all on function private.catalog_words_apply(uuid[], text[], int[]) from public, anon, authenticated;

-- Statement triggers with transition tables: a CSV import of 10,000 products is one dictionary update, not
-- 10,000. One function per event, so each names only the transition tables it has.
create or replace function private.catalog_words_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.catalog_words_apply(array_agg(x.business_id), array_agg(x.word), array_agg(1))
     from (select n.business_id, w.word from new_products n
            cross join lateral unnest(private.catalog_words_of(concat_ws(' ', n.name, n.brand))) as w (word)) x;
  return null;
end;
$$;
revoke all on function private.catalog_words_inserted() from public, anon, authenticated;

create or replace function private.catalog_words_deleted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.catalog_words_apply(array_agg(x.business_id), array_agg(x.word), array_agg(-1))
     from (select o.business_id, w.word from old_products o
            cross join lateral unnest(private.catalog_words_of(concat_ws(' ', o.name, o.brand))) as w (word)) x;
  return null;
end;
$$;
revoke all on function private.catalog_words_deleted() from public, anon, authenticated;

-- Only products whose name or brand changed count (an archive or a price-only edit touches no word).
create or replace function private.catalog_words_updated()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.catalog_words_apply(array_agg(x.business_id), array_agg(x.word), array_agg(x.delta))
     from (select o.business_id, w.word, -1 as delta
             from old_products o join new_products n on n.id = o.id
            cross join lateral unnest(private.catalog_words_of(concat_ws(' ', o.name, o.brand))) as w (word)
            where (o.name, o.brand, o.business_id) is distinct from (n.name, n.brand, n.business_id)
           union all
           select n.business_id, w.word, 1
             from old_products o join new_products n on n.id = o.id
            cross join lateral unnest(private.catalog_words_of(concat_ws(' ', n.name, n.brand))) as w (word)
            where (o.name, o.brand, o.business_id) is distinct from (n.name, n.brand, n.business_id)) x;
  return null;
end;
$$;
revoke all on function private.catalog_words_updated() from public, anon, authenticated;

create trigger catalog_words_inserted after insert on public.products
  referencing new table as new_products
  for each statement execute function private.catalog_words_inserted();
create trigger catalog_words_updated after update on public.products
  referencing old table as old_products new table as new_products
  for each statement execute function private.catalog_words_updated();
create trigger catalog_words_deleted after delete on public.products
  referencing old table as old_products
  for each statement execute function private.catalog_words_deleted();

-- Rebuilds a business's words from its products (null: every business). For rows written with triggers off
-- (npm run seed:large loads in replica mode); idempotent. Returns the number of words.
create or replace function private.refresh_catalog_words(_business_id uuid default null)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_n bigint;
begin
  delete from private.catalog_words c where _business_id is null or c.business_id = _business_id;
  insert into private.catalog_words (business_id, word, products)
  select p.business_id, w.word, count(*)
    from public.products p
   cross join lateral unnest(private.catalog_words_of(concat_ws(' ', p.name, p.brand))) as w (word)
   where _business_id is null or p.business_id = _business_id
   group by p.business_id, w.word;
  get diagnostics v_n = row_count;
  return v_n;
end;
$$;
revoke all on function private.refresh_catalog_words(uuid) from public, anon, authenticated;

select private.refresh_catalog_words();

-- The typo step of search_catalog, on its own so later changes redefine only this. Each typed word (2+
-- characters) is corrected against the business's dictionary: the word itself when the catalog has it, else
-- up to 5 words it begins or resembles (trigram similarity above pg_trgm.similarity_threshold, 0.3 by default).
-- Every typed word must then be matched by one of its corrections, in the name or the brand. The products come
-- from the name's trigram index (the brand's when none has it in its name) for the typed word whose corrections
-- the fewest products hold; the others are checked on those rows only. Scored by the similarity of the whole name to the query, as before.
-- The caller checks membership of _business_id (search_catalog does).
create or replace function private.catalog_typo_matches(_business_id uuid, _query text)
returns table (variant_id uuid, score real)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_tokens text[] := private.catalog_words_of(_query);
  v_token text;
  v_words text[];
  v_held bigint;
  v_least bigint;
  v_driver text[];
  v_word text;
  v_found bigint := 0;
  v_n bigint;
  v_patterns text[] := '{}';
begin
  if cardinality(v_tokens) = 0 or cardinality(v_tokens) > 8 then
    return;
  end if;
  foreach v_token in array v_tokens loop
    select array[c.word], c.products into v_words, v_held
      from private.catalog_words c where c.business_id = _business_id and c.word = v_token;
    if v_words is null then
      select array_agg(m.word), sum(m.products) into v_words, v_held
        from (select c.word, c.products
                from private.catalog_words c
               where c.business_id = _business_id
                 and (c.word like v_token || '%' or c.word operator(extensions.%) v_token)
               order by c.word like v_token || '%' desc, extensions.similarity(c.word, v_token) desc, c.word
               limit 5) m;
    end if;
    if v_words is null then
      return;  -- a typed word like nothing in the catalog: no product can match every word
    end if;
    -- Words are letters and digits only: nothing to escape in the LIKE patterns or the regular expression.
    v_patterns := v_patterns || ('(' || array_to_string(v_words, '|') || ')');
    if v_least is null or v_held < v_least then
      v_least := v_held;
      v_driver := v_words;
    end if;
  end loop;
  -- One plain ILIKE per driving word, so the name's trigram index serves each (an OR with the brand, or
  -- ILIKE ANY (array), made PGlite's planner scan the whole table). A product found twice is merged by the caller.
  foreach v_word in array v_driver loop
    return query
      select v.id, extensions.similarity(p.name, _query)::real
        from public.products p
        join public.variants v on v.product_id = p.id
       where p.business_id = _business_id
         and p.name ilike '%' || v_word || '%'
         and concat_ws(' ', p.name, p.brand) operator(pg_catalog.~*) all (v_patterns);
    get diagnostics v_n = row_count;
    v_found := v_found + v_n;
  end loop;
  -- The driving words are only in brands: the brand's trigram index, only then.
  if v_found = 0 then
    foreach v_word in array v_driver loop
      return query
        select v.id, extensions.similarity(p.name, _query)::real
          from public.products p
          join public.variants v on v.product_id = p.id
         where p.business_id = _business_id
           and p.brand ilike '%' || v_word || '%'
           and concat_ws(' ', p.name, p.brand) operator(pg_catalog.~*) all (v_patterns);
    end loop;
  end if;
end;
$$;
revoke all on function private.catalog_typo_matches(uuid, text) from public, anon, authenticated;

-- search_catalog (20261123140000_scale_indexes): same signature, results for exact matches and order; the typo
-- step is private.catalog_typo_matches.
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
      -- Typo tolerance only when nothing matched as typed (a one-time filter: the function is not called then).
      select f.variant_id as id, f.score
        from private.catalog_typo_matches(_business_id, v_q) f
       where not exists (select 1 from exact)
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

-- ---------------------------------------------------------------------------------------------------
-- 2. A draft purchase order's lines, edited in one audited call.

-- _lines is the draft's whole new list: [{variant_id, qty, unit_cost?}]. Lines not listed are removed, listed
-- items are updated or added (an item listed twice is one line, as in create_purchase_order); a missing cost
-- keeps the line's cost, or for a new item takes the variant's average cost. Owners, and managers of the order's
-- store; drafts only (the order row is locked, so marking it ordered meanwhile waits). The change is one
-- activity entry, purchase_order.lines_edited, with the lines before and after. Returns the number of lines.
create or replace function public.edit_purchase_order_draft(_purchase_order_id uuid, _lines jsonb)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_po public.purchase_orders;
  v_business uuid;
  v_before jsonb;
  v_after jsonb;
  v_ids uuid[] := '{}';
  v_qtys numeric[] := '{}';
  v_costs bigint[] := '{}';
  r record;
begin
  select po.* into v_po from public.purchase_orders po where po.id = _purchase_order_id for update;
  if v_po.id is null then
    raise exception 'no such purchase order' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_po.store_id, array['owner', 'manager']);
  if v_po.status <> 'draft' then
    raise exception 'only a draft''s lines can be changed' using errcode = '22023';
  end if;
  if jsonb_typeof(_lines) is distinct from 'array' or jsonb_array_length(_lines) = 0 then
    raise exception 'keep at least one line (or delete the draft)' using errcode = '22023';
  end if;
  if jsonb_array_length(_lines) > 1000 then
    raise exception 'a purchase order has at most 1000 lines' using errcode = '22023';
  end if;
  if exists (select 1 from jsonb_array_elements(_lines) e where jsonb_typeof(e) <> 'object') then
    raise exception 'every line needs an item and a quantity above zero' using errcode = '22023';
  end if;
  select coalesce(jsonb_agg(jsonb_build_object('variant_id', l.variant_id, 'qty', l.qty_ordered, 'unit_cost', l.unit_cost)
                            order by l.variant_id), '[]')
    into v_before from public.purchase_order_lines l where l.purchase_order_id = v_po.id;

  for r in
    select x.variant_id, sum(x.qty) as qty, max(x.unit_cost) as unit_cost, bool_or(x.qty is null) as missing
      from jsonb_to_recordset(_lines) as x (variant_id uuid, qty numeric, unit_cost bigint)
     group by x.variant_id
     order by x.variant_id
  loop
    if r.variant_id is null or r.missing or r.qty <= 0 then
      raise exception 'every line needs an item and a quantity above zero' using errcode = '22023';
    end if;
    if not exists (select 1 from public.variants v where v.id = r.variant_id and v.business_id = v_business) then
      raise exception 'no such item in this business' using errcode = '22023';
    end if;
    if r.unit_cost is not null and r.unit_cost < 0 then
      raise exception 'a cost cannot be negative' using errcode = '22023';
    end if;
    perform private.assert_quantity(r.variant_id, r.qty);
    v_ids := v_ids || r.variant_id;
    v_qtys := v_qtys || r.qty;
    v_costs := v_costs || r.unit_cost;
  end loop;

  delete from public.purchase_order_lines l
   where l.purchase_order_id = v_po.id and not (l.variant_id = any (v_ids));
  update public.purchase_order_lines l
     set qty_ordered = d.qty, unit_cost = coalesce(d.unit_cost, l.unit_cost)
    from unnest(v_ids, v_qtys, v_costs) as d (variant_id, qty, unit_cost)
   where l.purchase_order_id = v_po.id and l.variant_id = d.variant_id
     and (l.qty_ordered, l.unit_cost) is distinct from (d.qty, coalesce(d.unit_cost, l.unit_cost));
  insert into public.purchase_order_lines (business_id, purchase_order_id, variant_id, qty_ordered, unit_cost)
  select v_business, v_po.id, d.variant_id, d.qty,
         coalesce(d.unit_cost, (select c.cost from public.variant_costs c where c.variant_id = d.variant_id), 0)
    from unnest(v_ids, v_qtys, v_costs) as d (variant_id, qty, unit_cost)
   where not exists (select 1 from public.purchase_order_lines l
                      where l.purchase_order_id = v_po.id and l.variant_id = d.variant_id)
   order by d.variant_id;

  select coalesce(jsonb_agg(jsonb_build_object('variant_id', l.variant_id, 'qty', l.qty_ordered, 'unit_cost', l.unit_cost)
                            order by l.variant_id), '[]')
    into v_after from public.purchase_order_lines l where l.purchase_order_id = v_po.id;
  if v_after is distinct from v_before then
    update public.purchase_orders po set updated_at = now() where po.id = v_po.id;
    perform private.log_activity(v_business, v_po.store_id, 'purchase_order.lines_edited', 'purchase_order', v_po.id,
                                 jsonb_build_object('lines', v_before), jsonb_build_object('lines', v_after));
  end if;
  return jsonb_array_length(v_after);
end;
$$;
revoke all on function public.edit_purchase_order_draft(uuid, jsonb) from public, anon;
grant execute on function public.edit_purchase_order_draft(uuid, jsonb) to authenticated;
comment on function public.edit_purchase_order_draft(uuid, jsonb) is
  'Owners, and managers of the order''s store: replace a draft purchase order''s lines (quantity, cost, removed, '
  'added) in one call, recorded in the activity trail.';

-- Line changes go through the function above (the trail records them). INSERT stays for
-- create_reorder_purchase_order, which runs as its caller and writes drafts' lines under the same policies.
revoke update (qty_ordered, unit_cost) on table public.purchase_order_lines from authenticated;
revoke update, delete on table public.purchase_order_lines from authenticated;

-- ---------------------------------------------------------------------------------------------------
-- 3. A lot found during a count.

-- The lot of a count line given by number (the store holds nothing of it yet, so the sheet had no line for it):
-- the lot with that number for the item if the business has it (the expiry typed must then agree), else a new
-- lot, recorded in the trail as lot.created. The count itself is posted by post_count like any other line.
create or replace function private.count_found_lot(_business_id uuid, _store_id uuid, _variant_id uuid,
                                                   _lot_number text, _expires_on date)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_number text := nullif(btrim(coalesce(_lot_number, '')), '');
  v_lot public.lots;
begin
  if not exists (select 1 from public.variants v where v.id = _variant_id and v.business_id = _business_id) then
    raise exception 'no such item in this business' using errcode = '22023';
  end if;
  if char_length(v_number) > 60 then
    raise exception 'a lot number has at most 60 characters' using errcode = '22023';
  end if;
  select l.* into v_lot from public.lots l where l.variant_id = _variant_id and l.lot_number = v_number;
  if v_lot.id is not null then
    if _expires_on is not null and v_lot.expires_on is distinct from _expires_on then
      raise exception 'lot % is recorded with expiry %: enter that date or another lot number', v_number,
        coalesce(v_lot.expires_on::text, 'none') using errcode = '22023';
    end if;
    return v_lot.id;
  end if;
  -- Creates it (the lot rules apply: tracked by lot, expiry where the product requires one).
  v_lot.id := private.lot_for(_business_id, _variant_id, v_number, _expires_on);
  perform private.log_activity(_business_id, _store_id, 'lot.created', 'lot', v_lot.id, null,
    jsonb_build_object('variant_id', _variant_id, 'lot_number', v_number, 'expires_on', _expires_on, 'source', 'count'));
  return v_lot.id;
end;
$$;
revoke all on function private.count_found_lot(uuid, uuid, uuid, text, date) from public, anon, authenticated;

-- post_count (20261122120100_inventory_functions): a line may name a lot by number (lot_number, expires_on)
-- instead of lot_id. Such lots are resolved first, in (variant, lot number) order, then every line is posted
-- in (variant, lot) order under the balance row's lock, as before. Same signature, grants and results.
create or replace function public.post_count(_store_id uuid, _lines jsonb, _occurred_at timestamptz default null)
returns table (variant_id uuid, lot_id uuid, expected numeric, counted numeric, delta numeric)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager']);
  r record;
  v_expected numeric;
begin
  if jsonb_typeof(_lines) is distinct from 'array' or jsonb_array_length(_lines) = 0 then
    raise exception 'count at least one item' using errcode = '22023';
  end if;
  if jsonb_array_length(_lines) > 5000 then
    raise exception 'post at most 5000 lines at once' using errcode = '22023';
  end if;
  if exists (select 1 from jsonb_to_recordset(_lines) as x (lot_id uuid, lot_number text, counted numeric)
              where nullif(btrim(coalesce(x.lot_number, '')), '') is not null
                and (x.lot_id is not null or x.counted is null or x.counted <= 0)) then
    raise exception 'a lot found during the count needs its number alone (no lot id) and a counted quantity above zero'
      using errcode = '22023';
  end if;
  for r in
    select y.variant_id, y.lot_id, y.counted
      from (select x.variant_id, x.counted,
                   case when nullif(btrim(coalesce(x.lot_number, '')), '') is null then x.lot_id
                        else private.count_found_lot(v_business, _store_id, x.variant_id, x.lot_number, x.expires_on)
                   end as lot_id
              from (select x.* from jsonb_to_recordset(_lines)
                                    as x (variant_id uuid, lot_id uuid, counted numeric, lot_number text, expires_on date)
                     order by x.variant_id, x.lot_number) x
             offset 0) y
     order by y.variant_id, y.lot_id nulls first
  loop
    if r.variant_id is null or r.counted is null or r.counted < 0 then
      raise exception 'every counted line needs an item and a quantity of zero or more' using errcode = '22023';
    end if;
    if not exists (select 1 from public.variants v where v.id = r.variant_id and v.business_id = v_business) then
      raise exception 'no such item in this business' using errcode = '22023';
    end if;
    perform private.assert_quantity(r.variant_id, r.counted);
    insert into public.stock_balances (business_id, store_id, variant_id, lot_id, qty)
    values (v_business, _store_id, r.variant_id, r.lot_id, 0)
    on conflict on constraint stock_balances_key do nothing;
    select b.qty into v_expected from public.stock_balances b
     where b.store_id = _store_id and b.variant_id = r.variant_id and b.lot_id is not distinct from r.lot_id
       for update;
    if r.counted <> v_expected then
      perform private.apply_movement(v_business, _store_id, r.variant_id, r.lot_id, 'count', r.counted - v_expected,
                                     'count', null, _occurred_at, null, null, null);
    end if;
    variant_id := r.variant_id; lot_id := r.lot_id; expected := v_expected; counted := r.counted;
    delta := r.counted - v_expected;
    return next;
  end loop;
end;
$$;
