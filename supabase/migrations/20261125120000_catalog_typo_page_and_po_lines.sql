-- Issue 12, after ADR 0152 (ADR 0164):
--
-- 1. The typo step of search_catalog stops after the page. It returned every product holding the corrected words
--    (the 1,000 yogurts, 2,000 variants of "Yogrt"), each scored by the similarity of its whole name to the query,
--    then grouped, joined twice more, counted and sorted to keep 25. Now the score is how close each typed word's
--    correction is (exact 1, else the trigram similarity of the dictionary word to the typed one), so the products
--    holding the same corrections tie and are ordered by name; the step ranks the candidate products by that
--    score and name (a string test per product, no trigram similarity of the names) and returns the variants of
--    the first offset + limit products only (with ties), with the total counted apart. private.catalog_typo_page
--    replaces private.catalog_typo_matches (kept for anything else calling it).
-- 2. The text search is its own function, private.catalog_search_text (why: see its comment).
-- 3. Purchase order lines are written only by security definer functions that check the caller's role and store
--    and record the new draft in the activity trail: create_reorder_purchase_order becomes one (it inserted as its
--    caller, under the table's policies), both record the new draft's lines (purchase_order.lines_added), and the
--    API roles lose INSERT on purchase_order_lines (UPDATE and DELETE went in 20261124120000).

-- ---------------------------------------------------------------------------------------------------
-- 1. The typo step, one page at a time.

-- Each typed word (2+ characters, at most 8 words) is corrected against the business's dictionary as in
-- private.catalog_typo_matches: the word itself if the catalog has it, else up to 5 words it begins or resembles.
-- A product qualifies when every typed word is matched (as a substring of its name and brand) by one of its
-- corrections; its score is the mean over the typed words of the best matching correction's closeness (1 for
-- the word as typed, else similarity(word, typed word)). Candidates come from the name's trigram index for the
-- driving word's corrections (the typed word whose corrections the fewest products hold), the brand's only when
-- no name holds them. Returns the live variants (or all, _include_archived) of the first _offset + _limit
-- qualifying products by (score desc, name) that have such a variant, plus the products tied with the last one:
-- enough for the page search_catalog cuts by (score desc, name, sku), as each of them has one variant or more.
-- total is the number of such variants over all qualifying products (for the pager), the same on every row.
-- The caller checks membership of _business_id (search_catalog does).
create or replace function private.catalog_typo_page(
  _business_id uuid, _query text, _limit int, _offset int, _include_archived boolean
)
returns table (variant_id uuid, score real, total bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_tokens text[] := private.catalog_words_of(_query);
  v_n int := cardinality(v_tokens);
  v_i int;
  v_words text[];
  v_close real[];
  v_held bigint;
  v_least bigint;
  v_driver text[];
  v_word text;
  -- Every correction: its word, the typed word it corrects (index into v_tokens), its closeness.
  v_cw text[] := '{}';
  v_ct int[] := '{}';
  v_cs real[] := '{}';
  v_ids uuid[] := '{}';
  v_names text[] := '{}';
  v_patterns text[] := '{}';
  v_scores real[] := '{}';
  -- search_catalog's page bounds: the products needed to fill the variants before and on the page.
  v_take int := least(greatest(coalesce(_limit, 50), 1), 200) + greatest(coalesce(_offset, 0), 0);
begin
  if v_n = 0 or v_n > 8 then
    return;
  end if;
  for v_i in 1 .. v_n loop
    v_words := null;
    select array[c.word], array[1::real], c.products into v_words, v_close, v_held
      from private.catalog_words c where c.business_id = _business_id and c.word = v_tokens[v_i];
    if v_words is null then
      select array_agg(m.word order by m.rank), array_agg(m.close order by m.rank), sum(m.products)
        into v_words, v_close, v_held
        from (select c.word, c.products, extensions.similarity(c.word, v_tokens[v_i]) as close,
                     row_number() over (order by c.word like v_tokens[v_i] || '%' desc,
                                                 extensions.similarity(c.word, v_tokens[v_i]) desc, c.word) as rank
                from private.catalog_words c
               where c.business_id = _business_id
                 and (c.word like v_tokens[v_i] || '%' or c.word operator(extensions.%) v_tokens[v_i])
               order by rank
               limit 5) m;
    end if;
    if v_words is null then
      return;  -- a typed word like nothing in the catalog: no product can match every word
    end if;
    -- Words are letters and digits only: nothing to escape in the regular expression.
    v_patterns := v_patterns || ('(' || array_to_string(v_words, '|') || ')');
    v_cw := v_cw || v_words;
    v_cs := v_cs || v_close;
    v_ct := v_ct || array_fill(v_i, array[cardinality(v_words)]);
    if v_least is null or v_held < v_least then
      v_least := v_held;
      v_driver := v_words;
    end if;
  end loop;

  -- The candidates, each scored as it is read: one plain ILIKE per driving word, so the name's trigram index
  -- serves each (an OR with the brand, or ILIKE ANY (array), made PGlite's planner scan the whole table; ADR
  -- 0152), then a substring test per correction on that row (no trigram similarity of the name). Words are
  -- letters and digits only: nothing to escape.
  foreach v_word in array v_driver loop
    select v_ids || array_agg(p.id), v_names || array_agg(p.name), v_scores || array_agg(s.score)
      into v_ids, v_names, v_scores
      from public.products p
      cross join lateral (
        -- Null unless every typed word is matched by a correction; else the mean of the best closeness per word.
        select case when count(*) = v_n then (sum(b.best) / v_n)::real end as score
          from (select max(c.close) as best
                  from unnest(v_cw, v_ct, v_cs) as c (word, token, close)
                 where strpos(lower(concat_ws(' ', p.name, p.brand)), c.word) > 0
                 group by c.token) b) s
     where p.business_id = _business_id and p.name ilike '%' || v_word || '%'
       -- The same test as the score's, as a filter of the scan: it also keeps PGlite's planner on the trigram
       -- index (without it, it scanned all products for a word in 1,000 of 50,000 names).
       and concat_ws(' ', p.name, p.brand) operator(pg_catalog.~*) all (v_patterns)
       and (_include_archived or p.archived_at is null) and s.score is not null;
  end loop;
  -- The driving words are only in brands: the brand's trigram index, only then.
  if cardinality(v_ids) = 0 then
    foreach v_word in array v_driver loop
      select v_ids || array_agg(p.id), v_names || array_agg(p.name), v_scores || array_agg(s.score)
        into v_ids, v_names, v_scores
        from public.products p
        cross join lateral (
          select case when count(*) = v_n then (sum(b.best) / v_n)::real end as score
            from (select max(c.close) as best
                    from unnest(v_cw, v_ct, v_cs) as c (word, token, close)
                   where strpos(lower(concat_ws(' ', p.name, p.brand)), c.word) > 0
                   group by c.token) b) s
       where p.business_id = _business_id and p.brand ilike '%' || v_word || '%'
         and concat_ws(' ', p.name, p.brand) operator(pg_catalog.~*) all (v_patterns)
         and (_include_archived or p.archived_at is null) and s.score is not null;
    end loop;
  end if;
  if cardinality(v_ids) = 0 then
    return;
  end if;

  return query
    with qualified as materialized (
      -- A product found by two driving words once.
      select q.id, min(q.name) as name, max(q.score) as score
        from unnest(v_ids, v_names, v_scores) as q (id, name, score)
       group by q.id
    ), ranked as (
      -- The first _offset + _limit products with a variant to show, by score then name, and those tied with the
      -- last: the sort is of products' (score, name) only; the variants are read for these alone.
      select q.id, q.score
        from (select q.id, q.name, q.score from qualified q order by q.score desc, q.name offset 0) q
       where exists (select 1 from public.variants v
                      where v.product_id = q.id and (_include_archived or v.archived_at is null))
       order by q.score desc, q.name
       fetch first (v_take) rows with ties
    )
    select v.id, r.score,
           -- The pager's total: every qualifying product's variants (an index probe each, no sort).
           (select count(*) from qualified q join public.variants v2 on v2.product_id = q.id
             where _include_archived or v2.archived_at is null)
      from ranked r
      join public.variants v on v.product_id = r.id
     where _include_archived or v.archived_at is null;
end;
$$;
revoke all on function private.catalog_typo_page(uuid, text, int, int, boolean) from public, anon, authenticated;
comment on function private.catalog_typo_page(uuid, text, int, int, boolean) is
  'The typo step of search_catalog: the variants of the best offset + limit products whose name or brand holds a '
  'correction of every typed word, scored by how close the corrections are. Called by search_catalog only.';

-- ---------------------------------------------------------------------------------------------------
-- 2. Why the searches by text cost 10+ ms over the request floor, and what was not changed (ADR 0164).
--
-- search_catalog runs its search as one statement of ten table references (three exact steps, the typo step, the
-- page, the output). PL/pgSQL plans such a statement with each call's values (a custom plan) and keeps doing so
-- while the generic plan's estimate is no cheaper, which it never is here: every call plans it again, 10-13 ms at
-- load 10 for a statement that then runs in 1-3 ms (a SKU prefix, a barcode) on PostgreSQL 15. A generic plan
-- (plan_cache_mode = force_generic_plan) removed that there, but PGlite's planner (PostgreSQL 18) made a generic
-- plan that filters every product by the name pattern instead of using its trigram index and hash-joins the
-- whole variants table (a barcode search 110 ms at 20,000 variants): custom plans stay. The statement moves
-- unchanged into private.catalog_search_text, so a later change of plan strategy redefines it alone.

-- The text search of search_catalog, its statement unchanged except the typo step (private.catalog_typo_page,
-- which returns only what the page needs and the total of its matches). Exact candidates (barcode, SKU prefix,
-- name substring) first; typo tolerance only when nothing matched as typed. The caller checks membership of
-- _business_id and the bounds of the text, limit and offset (search_catalog does).
create or replace function private.catalog_search_text(
  _business_id uuid, _q text, _limit int, _offset int, _include_archived boolean
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
  v_like text := replace(replace(replace(_q, '\', '\\'), '%', '\%'), '_', '\_');
  -- SKU prefix as a range, so the (business_id, sku text_pattern_ops) index serves it even in a generic plan.
  v_sku text := upper(_q);
  v_sku_end text := left(upper(_q), -1) || chr(ascii(right(upper(_q), 1)) + 1);
begin
  return query
    with exact as materialized (
      select bc.variant_id as id, 4::real as score
        from public.barcodes bc where bc.business_id = _business_id and bc.code = _q
      union all
      select v.id, case when v.sku = v_sku then 4 else 3 end::real
        from public.variants v
       where v.business_id = _business_id
         and v.sku operator(pg_catalog.~>=~) v_sku and v.sku operator(pg_catalog.~<~) v_sku_end
      union all
      select v.id, case when p.name ilike v_like || '%' then 2 else extensions.similarity(p.name, _q) end::real
        from public.products p join public.variants v on v.product_id = p.id
       where p.business_id = _business_id and p.name ilike '%' || v_like || '%'
    ), fuzzy as (
      -- Typo tolerance only when nothing matched as typed (a one-time filter: the function is not called then).
      -- Only the variants the page can need, each row carrying the total of all matches.
      select f.variant_id as id, f.score, f.total
        from private.catalog_typo_page(_business_id, _q, _limit, _offset, _include_archived) f
       where not exists (select 1 from exact)
    ), best as (
      select c.id, max(c.score) as score, max(c.total) as total
        from (select e.id, e.score, null::bigint as total from exact e
              union all select f.id, f.score, f.total from fuzzy f) c
       group by c.id
    ), page as (
      select b.id, b.score, p.name, v.sku, coalesce(b.total, count(*) over ()) as total
        from best b
        join public.variants v on v.id = b.id
        join public.products p on p.id = v.product_id
       where _include_archived or (v.archived_at is null and p.archived_at is null)
       order by b.score desc, p.name, v.sku
       limit _limit offset _offset
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
revoke all on function private.catalog_search_text(uuid, text, int, int, boolean) from public, anon, authenticated;

-- search_catalog (20261124120000_catalog_search_words): same signature, checks, results and order. Browsing is
-- unchanged; a search by text is private.catalog_search_text.
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

  if v_q is not null then
    return query
      select * from private.catalog_search_text(_business_id, v_q, v_limit, v_offset, coalesce(_include_archived, false));
    return;
  end if;

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
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- 3. Purchase order lines only through audited functions.

-- A new draft purchase order with its lines. The order's row is in the trail by its audit trigger
-- (purchase_order.created); its lines as written, and where the draft came from, are one more entry,
-- purchase_order.lines_added (as edit_purchase_order_draft records purchase_order.lines_edited). The callers have
-- checked the role and store, and each line (distinct variants of _business_id, quantities by the rules of
-- private.assert_quantity); this checks the supplier. A missing cost is the variant's average cost (0 if none).
create or replace function private.insert_purchase_order_draft(
  _business_id uuid, _store_id uuid, _supplier_id uuid, _notes text, _expected_on date,
  _variant_ids uuid[], _qtys numeric[], _costs bigint[], _source text
)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_po uuid;
begin
  if not exists (select 1 from public.suppliers s where s.id = _supplier_id and s.business_id = _business_id
                    and s.archived_at is null) then
    raise exception 'choose a supplier of this business' using errcode = '22023';
  end if;
  insert into public.purchase_orders (business_id, store_id, supplier_id, notes, expected_on, created_by)
  values (_business_id, _store_id, _supplier_id, _notes, _expected_on, (select auth.uid()))
  returning id into v_po;
  insert into public.purchase_order_lines (business_id, purchase_order_id, variant_id, qty_ordered, unit_cost)
  select _business_id, v_po, d.variant_id, d.qty,
         coalesce(d.unit_cost, (select c.cost from public.variant_costs c where c.variant_id = d.variant_id), 0)
    from unnest(_variant_ids, _qtys, _costs) as d (variant_id, qty, unit_cost)
   order by d.variant_id;
  perform private.log_activity(_business_id, _store_id, 'purchase_order.lines_added', 'purchase_order', v_po, null,
    jsonb_build_object('source', _source, 'lines',
      (select jsonb_agg(jsonb_build_object('variant_id', l.variant_id, 'qty', l.qty_ordered, 'unit_cost', l.unit_cost)
                        order by l.variant_id)
         from public.purchase_order_lines l where l.purchase_order_id = v_po)));
  return v_po;
end;
$$;
revoke all on function private.insert_purchase_order_draft(uuid, uuid, uuid, text, date, uuid[], numeric[], bigint[], text)
  from public, anon, authenticated;

-- create_purchase_order (20261123120000_inventory_more): same signature, checks, messages and result; the draft
-- is written by private.insert_purchase_order_draft, so its lines are now in the activity trail too.
create or replace function public.create_purchase_order(
  _store_id uuid, _supplier_id uuid, _lines jsonb, _notes text default null, _expected_on date default null
)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager']);
  v_ids uuid[] := '{}';
  v_qtys numeric[] := '{}';
  v_costs bigint[] := '{}';
  r record;
begin
  if not exists (select 1 from public.suppliers s where s.id = _supplier_id and s.business_id = v_business
                    and s.archived_at is null) then
    raise exception 'choose a supplier of this business' using errcode = '22023';
  end if;
  if jsonb_typeof(_lines) is distinct from 'array' or jsonb_array_length(_lines) = 0 then
    raise exception 'add at least one line' using errcode = '22023';
  end if;
  if jsonb_array_length(_lines) > 1000 then
    raise exception 'a purchase order has at most 1000 lines' using errcode = '22023';
  end if;
  if _notes is not null and char_length(_notes) > 500 then
    raise exception 'notes have at most 500 characters' using errcode = '22023';
  end if;
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
  return private.insert_purchase_order_draft(v_business, _store_id, _supplier_id, nullif(btrim(_notes), ''),
                                             _expected_on, v_ids, v_qtys, v_costs, 'typed');
end;
$$;

-- create_reorder_purchase_order (20261123180000_retail_hardening): now security definer. Same signature, result
-- and messages. It ran as its caller, under the insert policies of purchase_orders and purchase_order_lines
-- (hence INSERT on the lines for the API roles); now it checks for itself: owners, and managers of the store
-- (42501), a supplier of the business (22023), each line a variant of the business with a quantity by the rules
-- of private.assert_quantity, a variant once (22023). Unit cost from the variant's average cost, as before.
create or replace function public.create_reorder_purchase_order(_store_id uuid, _supplier_id uuid, _lines jsonb)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager']);
  v_line jsonb;
  v_n int := 0;
  v_qty numeric;
  v_unit text;
  v_problem text;
  v_ids uuid[] := '{}';
  v_qtys numeric[] := '{}';
begin
  if jsonb_typeof(_lines) is distinct from 'array' or jsonb_array_length(_lines) = 0 or jsonb_array_length(_lines) > 500 then
    raise exception 'choose between 1 and 500 lines' using errcode = '22023';
  end if;
  for v_line in select value from jsonb_array_elements(_lines) loop
    v_n := v_n + 1;
    if jsonb_typeof(v_line -> 'qty') is distinct from 'number' or (v_line ->> 'qty')::numeric <= 0
       or coalesce(v_line ->> 'variant_id', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      raise exception 'line %: a variant and a quantity above zero', v_n using errcode = '22023';
    end if;
    v_qty := (v_line ->> 'qty')::numeric;
    select p.unit into v_unit from public.variants v join public.products p on p.id = v.product_id
     where v.id = (v_line ->> 'variant_id')::uuid and v.business_id = v_business;
    if v_unit is null then
      raise exception 'line %: not a product of this business', v_n using errcode = '22023';
    end if;
    v_problem := private.quantity_problem(v_unit, v_qty);
    if v_problem is not null then
      raise exception 'line %: %', v_n, v_problem using errcode = '22023';
    end if;
    if (v_line ->> 'variant_id')::uuid = any (v_ids) then
      raise exception 'a product appears twice in the order' using errcode = '22023';
    end if;
    v_ids := v_ids || (v_line ->> 'variant_id')::uuid;
    v_qtys := v_qtys || v_qty;
  end loop;
  return private.insert_purchase_order_draft(v_business, _store_id, _supplier_id, 'Suggested by the reorder insights',
                                             null, v_ids, v_qtys, array_fill(null::bigint, array[v_n]), 'reorder');
end;
$$;
comment on function public.create_reorder_purchase_order(uuid, uuid, jsonb) is
  'Owners, and managers of the store: a draft purchase order with the given lines ([{variant_id, qty}]), unit cost '
  'from the variant''s cost, recorded in the activity trail. Returns its id.';

-- Nobody writes order lines through the API any more: create_purchase_order, create_reorder_purchase_order,
-- edit_purchase_order_draft and receive_purchase_order (all security definer, audited) do. Deleting a draft
-- order still removes its lines (the foreign key's cascade runs as the table's owner). The write policies go
-- with the grants; owners and managers keep reading the lines of the orders they read.
revoke insert (business_id, purchase_order_id, variant_id, qty_ordered, unit_cost) on table public.purchase_order_lines
  from authenticated;
revoke insert, update, delete on table public.purchase_order_lines from authenticated, anon;
drop policy if exists "purchase_order_lines: insert in drafts" on public.purchase_order_lines;
drop policy if exists "purchase_order_lines: update in drafts" on public.purchase_order_lines;
drop policy if exists "purchase_order_lines: delete in drafts" on public.purchase_order_lines;
comment on table public.purchase_order_lines is
  'Lines of a purchase order (with unit costs): owners and managers who read the order read them; written only by '
  'the security definer purchase order functions (create, reorder, edit draft, receive), which record the trail.';
