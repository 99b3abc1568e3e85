-- Clothing pack (issue 29, ADR 0340): collections (a season's line: name, season code, dates; a product belongs to
-- at most one), sell-through per collection in Reports, and the end-of-season markdown in bulk.
--
-- Prices change today by updating variants.price and store_prices.price under RLS, each row recorded by the
-- audit triggers (variant.updated, store_price.updated). The markdown does the same updates in one transaction
-- from a security definer function (so a refusal anywhere leaves every price as it was) and adds one
-- collection.marked_down entry naming the rule and the number of prices changed.

create table public.collections (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  name text not null,
  season_code text,
  starts_on date,
  ends_on date,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint collections_pkey primary key (id),
  constraint collections_id_business_id_key unique (id, business_id),
  constraint collections_business_id_name_key unique (business_id, name),
  constraint collections_name_check check (((char_length(btrim(name)) >= 1) and (char_length(btrim(name)) <= 100))),
  constraint collections_season_code_check check ((season_code ~ '^[A-Z0-9][A-Z0-9-]{0,15}$'::text)),
  constraint collections_dates_in_order check (((ends_on is null) or (starts_on is null) or (ends_on >= starts_on))),
  constraint collections_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table public.collections enable row level security;
comment on table public.collections is 'A season''s line of products (clothing pack): name, season code (SS27), start and end dates. Members read; owners and managers write. A product belongs to at most one (products.collection_id).';
grant delete, insert, select, update on table public.collections to service_role;
grant delete, select on table public.collections to authenticated;
grant insert (business_id, name, season_code, starts_on, ends_on) on table public.collections to authenticated;
grant update (name, season_code, starts_on, ends_on) on table public.collections to authenticated;

create trigger collections_set_updated_at before update on public.collections
  for each row execute function public.set_updated_at();
create trigger audit_collection after insert or update or delete on public.collections
  for each row execute function private.audit_keyed_row('collection', 'id');

create policy "collections: members read" on public.collections for select to authenticated
  using (business_id in (select private.my_business_ids()));
create policy "collections: owners and managers insert" on public.collections for insert to authenticated
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));
create policy "collections: owners and managers update" on public.collections for update to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])))
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));
create policy "collections: owners and managers delete" on public.collections for delete to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

-- A product's collection is of its own business (the composite key); deleting the collection frees its products.
alter table public.products add column collection_id uuid;
alter table public.products add constraint products_collection_id_business_id_fkey
  foreign key (collection_id, business_id) references public.collections(id, business_id) on delete set null (collection_id);
create index products_collection_idx on public.products (collection_id, business_id);
comment on column public.products.collection_id is 'The collection (season line) the product belongs to, if any.';
grant insert (collection_id) on table public.products to authenticated;
grant update (collection_id) on table public.products to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Sell-through per collection: the same figures as report_sell_through (units sold net of refunds in the range,
-- on hand at the end of the range from the ledger, sold / (sold + on hand)), summed over each collection's
-- variants. Security invoker: RLS limits a manager to the stores they may use; cashiers are refused (42501) by
-- report_args, so nobody without the reports sees these figures (no cost figure is returned at all).
create or replace function public.report_collection_sell_through(_business_id uuid, _from date, _to date,
                                                                 _store_id uuid default null)
returns table (collection_id uuid, name text, season_code text, starts_on date, ends_on date, products bigint,
               units_sold numeric, on_hand_end numeric, sell_through numeric, revenue bigint)
language plpgsql
stable
security invoker
set search_path = ''
set jit = off
as $$
#variable_conflict use_column
begin
  perform private.report_args(_business_id, _from, _to, null);
  return query
    with items as (
      select c.id as collection_id, v.id as variant_id, p.id as product_id
        from public.collections c
        join public.products p on p.collection_id = c.id and p.business_id = c.business_id
        join public.variants v on v.product_id = p.id and v.business_id = p.business_id
       where c.business_id = _business_id
    ),
    sold as (
      select s.variant_id, sum(s.units) as units, sum(s.revenue) as revenue
        from private.sell_through_sold(_business_id, _from, _to, _store_id) s
       where s.variant_id in (select i.variant_id from items i)
       group by 1
    ),
    stock as (
      select k.store_id, k.variant_id, sum(k.qty) as qty
        from (select b.store_id, b.variant_id, b.qty
                from public.stock_balances b
               where b.business_id = _business_id and (_store_id is null or b.store_id = _store_id)
                 and b.variant_id in (select i.variant_id from items i)
              union all
              select l.store_id, l.variant_id, -l.qty
                from private.stock_moved_after(_business_id, _to, _store_id) l
               where l.variant_id in (select i.variant_id from items i)) k
       group by 1, 2
    ),
    on_hand as (
      select s.variant_id, sum(greatest(s.qty, 0)) as qty from stock s group by 1
    ),
    per as (
      select i.collection_id, count(distinct i.product_id) as products,
             coalesce(sum(greatest(so.units, 0)), 0) as units, coalesce(sum(oh.qty), 0) as on_hand,
             coalesce(sum(so.revenue), 0)::bigint as revenue
        from items i
        left join sold so on so.variant_id = i.variant_id
        left join on_hand oh on oh.variant_id = i.variant_id
       group by 1
    )
    select c.id, c.name, c.season_code, c.starts_on, c.ends_on, coalesce(x.products, 0)::bigint,
           coalesce(x.units, 0), coalesce(x.on_hand, 0),
           case when coalesce(x.units, 0) + coalesce(x.on_hand, 0) <= 0 then null
                else round(x.units / (x.units + x.on_hand), 4) end,
           coalesce(x.revenue, 0)::bigint
      from public.collections c
      left join per x on x.collection_id = c.id
     where c.business_id = _business_id
     order by c.starts_on desc nulls last, c.name;
end;
$$;
comment on function public.report_collection_sell_through(uuid,date,date,uuid) is 'Owners and managers only (42501 otherwise; RLS limits managers to their stores): per collection, units sold net of refunds in the range, on hand at the end of the range, sell-through = sold / (sold + on hand), revenue net of tax (ADR 0340).';
revoke all on function public.report_collection_sell_through(uuid,date,date,uuid) from public, anon;
grant execute on function public.report_collection_sell_through(uuid,date,date,uuid) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The end-of-season markdown: every variant of a collection's products (and their store prices in the stores the
-- caller may use) to a percentage off or a fixed price. A markdown never raises a price (a fixed price above a
-- variant's price leaves it as it is). _apply false previews: the same rows, nothing written. Refused as a whole
-- (22023, nothing changed) when a new price would fall below the variant's cost, unless _below_cost_ok.

-- The plan: old and new price of each variant (store_id null) and of each store price the caller may set (the
-- store_prices policies' rule), with the variant's cost. Arguments are checked by markdown_collection.
create or replace function private.markdown_plan(_business_id uuid, _collection_id uuid, _kind text, _value numeric)
returns table (variant_id uuid, store_id uuid, sku text, product_name text, option1 text, option2 text,
               old_price bigint, new_price bigint, cost bigint)
language sql
stable
security definer
set search_path = ''
as $$
  with variants as (
    select v.id, v.sku, p.name, v.option1, v.option2, v.price, vc.cost
      from public.products p
      join public.variants v on v.product_id = p.id and v.business_id = p.business_id
      left join public.variant_costs vc on vc.variant_id = v.id
     where p.collection_id = _collection_id and p.business_id = _business_id
       and p.archived_at is null and v.archived_at is null
  ),
  prices as (
    select v.id, null::uuid as store_id, v.price from variants v
    union all
    select sp.variant_id, sp.store_id, sp.price
      from public.store_prices sp
     where sp.business_id = _business_id and sp.variant_id in (select v.id from variants v)
       and (_business_id in (select private.my_full_access_business_ids())
            or sp.store_id in (select private.my_listed_store_ids()))
  )
  select v.id, x.store_id, v.sku, v.name, v.option1, v.option2, x.price,
         case when _kind = 'percent' then round(x.price * (100 - _value) / 100)::bigint
              else least(x.price, _value::bigint) end,
         v.cost
    from prices x join variants v on v.id = x.id;
$$;
revoke all on function private.markdown_plan(uuid,uuid,text,numeric) from public;

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
       and m.new_price <> m.old_price;
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
