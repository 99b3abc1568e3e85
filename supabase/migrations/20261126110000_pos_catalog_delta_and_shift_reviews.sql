-- Two follow-ups of issue 13 (ADR 0169).
--
-- * pos_catalog's delta (_since): each page rebuilt the whole set of changed variants (four sources unioned, then
--   filtered by the id keyset and sorted), so after a bulk change that stamped every row each of its 100 pages read
--   all 100,000 (64 s at 100,000 variants on PGlite). The delta now moves to private.pos_catalog_delta, which picks
--   per page: a few changes (under three pages' worth, counted with a cap) are still read from the sources'
--   timestamp indexes; many are read by walking the variants in id order from the keyset and keeping those changed,
--   so a page reads about its own rows. Both return the same rows in the same order (id), so a delta may switch
--   between them from one page to the next. Same signature, same rows, same role check (owners, managers and
--   cashiers with access to the store). public.pos_clock gives the register the server's now for its next `since`.
-- * Shifts opened in conflict (open_shift from the offline outbox while another shift was open, ADR 0165) get the
--   review queue flagged sales have: public.flagged_shifts lists them for owners and managers of the store, with the
--   shift they overlapped; public.review_shift records the resolution with a reason (security definer, role checked
--   here, activity 'shift.reviewed'). public.shift_reviews: owners and managers of the store read; written only by
--   review_shift. Cashiers neither read nor write.
-- Grants are explicit (hosted Supabase grants nothing by default).

-- ---------------------------------------------------------------------------------------------------
-- The catalog delta, one page: the variants changed after _since (their own row, their product, this store's price,
-- a barcode added), archived ones included so the register drops them, in id order after _after.
create or replace function private.pos_catalog_delta(_store public.stores, _business uuid, _after uuid, _limit int,
                                                     _since timestamptz)
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
  -- Past this many changes the walk in id order reads less per page than the changed set rebuilt for each page.
  v_cap int := 3 * _limit;
  v_changed int;
begin
  -- A capped count: a bulk change is recognised after reading v_cap index entries, not all of them.
  select count(*) into v_changed from (
    select 1 from public.variants v where v.business_id = _business and v.updated_at > _since limit v_cap) x;
  if v_changed < v_cap then
    select v_changed + count(*) into v_changed from (
      select 1 from public.products p join public.variants v on v.product_id = p.id
       where p.business_id = _business and p.updated_at > _since limit v_cap) x;
  end if;
  if v_changed < v_cap then
    select v_changed + count(*) into v_changed from (
      select 1 from public.store_prices sp where sp.store_id = _store.id and sp.updated_at > _since limit v_cap) x;
  end if;
  if v_changed < v_cap then
    select v_changed + count(*) into v_changed from (
      select 1 from public.barcodes bc where bc.business_id = _business and bc.created_at > _since limit v_cap) x;
  end if;

  if v_changed >= v_cap then
    -- Many changes: the variants in id order from the keyset (business_id, id), each checked, until the page is full.
    return query
      select v.id,
             p.name || coalesce(' ' || nullif(concat_ws(' / ', v.option1, v.option2, v.option3), ''), ''),
             v.sku, coalesce(sp.price, v.price), coalesce(p.tax_rate, _store.default_tax_rate)::numeric, p.unit,
             p.has_lots,
             coalesce((select array_agg(b.code order by b.code) from public.barcodes b where b.variant_id = v.id), '{}'),
             (v.archived_at is not null or p.archived_at is not null),
             greatest(v.updated_at, p.updated_at, sp.updated_at)
        from public.variants v
        join public.products p on p.id = v.product_id
        left join public.store_prices sp on sp.store_id = _store.id and sp.variant_id = v.id
       where v.business_id = _business
         -- Never "_after is null or ...": a cached generic plan could not use the index for it.
         and v.id > coalesce(_after, '00000000-0000-0000-0000-000000000000'::uuid)
         and (v.updated_at > _since or p.updated_at > _since or sp.updated_at > _since
              or exists (select 1 from public.barcodes bc where bc.variant_id = v.id and bc.created_at > _since))
       order by v.business_id, v.id
       limit _limit;
    return;
  end if;
  -- A few changes: the set from the sources' timestamp indexes (fewer than v_cap rows), the page after the keyset.
  return query
    with changed as (
      select v.id from public.variants v where v.business_id = _business and v.updated_at > _since
      union
      select v.id from public.products p join public.variants v on v.product_id = p.id
       where p.business_id = _business and p.updated_at > _since
      union
      select sp.variant_id from public.store_prices sp where sp.store_id = _store.id and sp.updated_at > _since
      union
      select bc.variant_id from public.barcodes bc where bc.business_id = _business and bc.created_at > _since
    )
    select v.id,
           p.name || coalesce(' ' || nullif(concat_ws(' / ', v.option1, v.option2, v.option3), ''), ''),
           v.sku, coalesce(sp.price, v.price), coalesce(p.tax_rate, _store.default_tax_rate)::numeric, p.unit,
           p.has_lots,
           coalesce((select array_agg(b.code order by b.code) from public.barcodes b where b.variant_id = v.id), '{}'),
           (v.archived_at is not null or p.archived_at is not null),
           greatest(v.updated_at, p.updated_at, sp.updated_at)
      from changed c
      join public.variants v on v.id = c.id and v.business_id = _business
      join public.products p on p.id = v.product_id
      left join public.store_prices sp on sp.store_id = _store.id and sp.variant_id = v.id
     where v.id > coalesce(_after, '00000000-0000-0000-0000-000000000000'::uuid)
     order by v.id
     limit _limit;
end;
$$;
revoke all on function private.pos_catalog_delta(public.stores, uuid, uuid, int, timestamptz) from public, anon, authenticated;

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
  return query select * from private.pos_catalog_delta(v_store, v_business, _after, v_limit, _since);
end;
$$;
revoke all on function public.pos_catalog(uuid, uuid, int, timestamptz) from public, anon;
grant execute on function public.pos_catalog(uuid, uuid, int, timestamptz) to authenticated;

-- The server's clock for the register's catalog copy: asked beside a load's first page, it becomes the copy's
-- `since` when later than the newest change seen, so the next delta starts from the server's now less the overlap
-- (a bulk change is re-read only by a load within the overlap, not by every later one). Any signed-in member.
create or replace function public.pos_clock()
returns timestamptz
language sql
stable
security invoker
set search_path = ''
as $$
  select now();
$$;
revoke all on function public.pos_clock() from public, anon;
grant execute on function public.pos_clock() to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Shifts opened in conflict: their review.
create table public.shift_reviews (
  shift_id uuid primary key,
  business_id uuid not null,
  store_id uuid not null,
  reason text not null check (char_length(btrim(reason)) between 3 and 500),
  reviewed_by uuid references auth.users (id) on delete set null,
  reviewed_at timestamptz not null default now(),
  foreign key (shift_id, business_id) references public.shifts (id, business_id) on delete cascade
);
alter table public.shift_reviews enable row level security;
comment on table public.shift_reviews is
  'One review per shift opened in conflict (open_shift from the offline outbox while another shift was open). '
  'Owners and managers of the store read; written only by public.review_shift.';
create index shift_reviews_business_reviewed_idx on public.shift_reviews (business_id, reviewed_at desc);
-- The foreign keys' indexes (deleting a shift or a user finds its review without a scan).
create index shift_reviews_shift_business_idx on public.shift_reviews (shift_id, business_id);
create index shift_reviews_reviewed_by_idx on public.shift_reviews (reviewed_by);
-- The queue: a business's flagged shifts, newest first.
create index shifts_business_conflict_idx on public.shifts (business_id, opened_at desc) where opened_in_conflict;

revoke all on table public.shift_reviews from public, anon, authenticated;
grant select on table public.shift_reviews to authenticated, service_role;

create policy "shift_reviews: owners and managers read in their stores" on public.shift_reviews
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

-- The shift a flagged shift overlapped, from its review reason 'open_conflict:<id>' (null when it was unknown).
-- Called by review_shift (definer); flagged_shifts reads the same reason inline (it runs as the caller).
create or replace function private.shift_conflict_other(_reasons text[])
returns uuid
language sql
immutable
set search_path = ''
as $$
  select substr(r, 15)::uuid from unnest(_reasons) r
   where r ~ '^open_conflict:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
   limit 1;
$$;
revoke all on function private.shift_conflict_other(text[]) from public, anon, authenticated;

-- The flagged shifts of a business (optionally one store), newest first, without or with those already reviewed:
-- register, cashier, opened and closed, totals (shift_totals), and the shift each overlapped.
-- Security invoker: row level security on shifts, shift_totals and shift_reviews limits a manager to their stores.
create or replace function public.flagged_shifts(_business_id uuid, _store_id uuid default null,
                                                 _include_reviewed boolean default false,
                                                 _limit integer default 50, _offset integer default 0)
returns table (shift_id uuid, store_id uuid, store_name text, register_name text, cashier_name text,
               opened_at timestamptz, closed_at timestamptz, opening_float bigint, sales_count bigint, gross bigint,
               expected_cash bigint, counted_total bigint, difference bigint, currency text, review_reasons text[],
               other_shift_id uuid, other_cashier_name text, other_opened_at timestamptz, other_closed_at timestamptz,
               reviewed_at timestamptz, reviewer_name text, reason text, total_count bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if _limit is null or _limit < 1 or _limit > 200 or _offset is null or _offset < 0 then
    raise exception 'ask for 1 to 200 shifts from offset 0 or more' using errcode = '22023';
  end if;
  return query
    select s.id, s.store_id, st.name::text, rg.name::text, n.name, s.opened_at, s.closed_at, s.opening_float,
           coalesce(t.sales_count, 0), coalesce(t.gross, 0), s.expected_cash, s.counted_total, s.difference,
           st.currency::text, s.review_reasons, o.id, on_.name, o.opened_at, o.closed_at,
           r.reviewed_at, rn.name, r.reason, count(*) over ()
      from public.shifts s
      join public.stores st on st.id = s.store_id
      join public.registers rg on rg.id = s.register_id
      left join public.shift_totals t on t.shift_id = s.id
      left join public.shift_reviews r on r.shift_id = s.id
      left join lateral (select substr(x, 15)::uuid as id from unnest(s.review_reasons) x
                          where x ~ '^open_conflict:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                          limit 1) oc on true
      left join public.shifts o on o.id = oc.id
      left join private.member_names(_business_id) n on n.user_id = s.cashier_id
      left join private.member_names(_business_id) on_ on on_.user_id = o.cashier_id
      left join private.member_names(_business_id) rn on rn.user_id = r.reviewed_by
     where s.business_id = _business_id
       and s.opened_in_conflict
       and (_store_id is null or s.store_id = _store_id)
       and (_include_reviewed or r.shift_id is null)
     order by s.opened_at desc, s.id
     limit _limit offset _offset;
end;
$$;
revoke all on function public.flagged_shifts(uuid, uuid, boolean, integer, integer) from public, anon;
grant execute on function public.flagged_shifts(uuid, uuid, boolean, integer, integer) to authenticated;

-- Resolve one flagged shift with a reason, once (a second review is refused with 23505: HTTP 409). Changes no
-- money: a correction of the drawer is a cash movement or the close's count, through their own functions.
create or replace function public.review_shift(_shift_id uuid, _reason text)
returns public.shift_reviews
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_shift public.shifts;
  v_business uuid;
  v_row public.shift_reviews;
begin
  select s.* into v_shift from public.shifts s where s.id = _shift_id;
  if v_shift.id is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_shift.store_id, array['owner', 'manager']);
  if not v_shift.opened_in_conflict then
    raise exception 'this shift is not flagged for review' using errcode = '22023';
  elsif _reason is null or char_length(btrim(_reason)) not between 3 and 500 then
    raise exception 'give a reason (3 to 500 characters)' using errcode = '22023';
  end if;
  insert into public.shift_reviews (shift_id, business_id, store_id, reason, reviewed_by)
  values (v_shift.id, v_business, v_shift.store_id, btrim(_reason), (select auth.uid()))
  on conflict (shift_id) do nothing
  returning * into v_row;
  if v_row.shift_id is null then
    raise exception 'this shift was already reviewed' using errcode = '23505';
  end if;
  perform private.log_activity(v_business, v_shift.store_id, 'shift.reviewed', 'shift', v_shift.id, null,
    jsonb_build_object('register_id', v_shift.register_id, 'review_reasons', to_jsonb(v_shift.review_reasons),
                       'open_shift_id', private.shift_conflict_other(v_shift.review_reasons),
                       'reason', btrim(_reason)));
  return v_row;
end;
$$;
revoke all on function public.review_shift(uuid, text) from public, anon;
grant execute on function public.review_shift(uuid, text) to authenticated;
