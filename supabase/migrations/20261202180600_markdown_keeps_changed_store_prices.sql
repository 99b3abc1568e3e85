-- markdown_collection wrote each planned store price without looking at it again: the variants are locked before
-- the plan is read, the store prices are not, so a store price changed between the plan and the write (by another
-- person, or earlier in the caller's transaction) was overwritten with a markdown of the price it no longer had
-- (review of 20261202160000). The write now keeps to the rows still at the planned old price
-- (and sp.price = m.old_price; under concurrent writes Postgres re-checks it on the row's newest version); a price
-- changed meanwhile stays as it was set, and store_prices_changed counts only the rows written.
-- markdown_collection as in 20261202160000 otherwise.

create or replace function public.markdown_collection(_collection_id uuid, _kind text, _value numeric,
                                                      _apply boolean default false, _below_cost_ok boolean default false)
returns table (variant_id uuid, store_id uuid, sku text, product_name text, option1 text, option2 text,
               old_price bigint, new_price bigint)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_collection public.collections;
  v_below text;
  v_plan jsonb;
  v_count int;
  v_store_count int;
begin
  select c.* into v_collection from public.collections c where c.id = _collection_id;
  if v_collection.id is null then
    raise exception 'no such collection' using errcode = '42501';
  end if;
  perform private.assert_role(v_collection.business_id, array['owner', 'manager']);
  if _kind is null or _kind not in ('percent', 'price') then
    raise exception 'a markdown is a percentage off (percent) or a fixed price (price)' using errcode = '22023';
  elsif _kind = 'percent' and (_value is null or _value <= 0 or _value >= 100 or _value <> round(_value, 2)) then
    raise exception 'the percentage off must be more than 0 and less than 100 (at most 2 decimals)' using errcode = '22023';
  elsif _kind = 'price' and (_value is null or _value < 0 or _value <> trunc(_value) or _value > 999999999999) then
    raise exception 'the fixed price must be a whole number of minor units, 0 or more' using errcode = '22023';
  end if;
  -- The prices are locked first so the plan, the cost check and the writes see the same figures.
  perform 1 from public.variants v
    join public.products p on p.id = v.product_id and p.business_id = v.business_id
   where p.collection_id = v_collection.id and p.business_id = v_collection.business_id
   for update of v;

  -- One plan, read once: the cost check, the writes and the answer all use it.
  select coalesce(jsonb_agg(to_jsonb(m) order by m.product_name, m.sku, m.store_id nulls first), '[]'::jsonb)
    into v_plan
    from private.markdown_plan(v_collection.business_id, v_collection.id, _kind, _value) m;

  if not coalesce(_below_cost_ok, false) then
    select string_agg(distinct m.sku, ', ' order by m.sku) into v_below
      from jsonb_to_recordset(v_plan) as m (sku text, old_price bigint, new_price bigint, cost bigint)
     where m.cost is not null and m.new_price < m.cost and m.new_price < m.old_price;
    if v_below is not null then
      raise exception 'the markdown would sell below cost: %', v_below
        using errcode = '22023', hint = 'lower the markdown, or confirm selling below cost';
    end if;
  end if;

  if coalesce(_apply, false) then
    update public.variants v set price = m.new_price
      from jsonb_to_recordset(v_plan) as m (variant_id uuid, store_id uuid, old_price bigint, new_price bigint)
     where m.store_id is null and v.id = m.variant_id and m.new_price <> m.old_price;
    get diagnostics v_count = row_count;
    update public.store_prices sp set price = m.new_price
      from jsonb_to_recordset(v_plan) as m (variant_id uuid, store_id uuid, old_price bigint, new_price bigint)
     where m.store_id is not null and sp.store_id = m.store_id and sp.variant_id = m.variant_id
       and m.new_price <> m.old_price
       -- A store price changed since the plan was read keeps its new figure (not locked above, unlike the variants).
       and sp.price = m.old_price;
    get diagnostics v_store_count = row_count;
    perform private.log_activity(v_collection.business_id, null, 'collection.marked_down', 'collection',
      v_collection.id, null,
      jsonb_build_object('name', v_collection.name, 'kind', _kind, 'value', _value, 'variants_changed', v_count,
                         'store_prices_changed', v_store_count, 'below_cost_ok', coalesce(_below_cost_ok, false)));
  end if;

  return query
    select m.variant_id, m.store_id, m.sku, m.product_name, m.option1, m.option2, m.old_price, m.new_price
      from jsonb_to_recordset(v_plan) as m (variant_id uuid, store_id uuid, sku text, product_name text, option1 text,
                                            option2 text, old_price bigint, new_price bigint);
end;
$$;
comment on function public.markdown_collection(uuid,text,numeric,boolean,boolean) is 'Owners and managers (42501 otherwise): a collection''s variant prices and store prices (the stores the caller may use) to percent off or a fixed price, never raised; _apply false previews. All or nothing: refused (22023) if a price would go below cost unless _below_cost_ok. Each price change is audited by the variant and store price triggers, the markdown as collection.marked_down (ADR 0340).';
revoke all on function public.markdown_collection(uuid,text,numeric,boolean,boolean) from public, anon;
grant execute on function public.markdown_collection(uuid,text,numeric,boolean,boolean) to authenticated;
