-- Sales flagged for review, and their review (issue 13). A register that was offline never loses a sale: post_sale
-- keeps what the server would have refused online (a stale price, a discount above the cashier's limit, tenders
-- that do not add up, a closed shift, stock below zero) and lists the reasons in sales.review_reasons. This is
-- where an owner or manager sees those sales and records that they looked at each one, with a note. A review
-- changes no money or stock: a correction is a refund or an adjustment, through their own audited functions.
--
-- Who: owners and managers of the sale's store read the list and review; cashiers neither (the flags are about
-- them). Writes only through public.review_sale (security definer, activity trail); no direct grants to write.

create table public.sale_reviews (
  sale_id uuid primary key,
  business_id uuid not null,
  store_id uuid not null,
  note text not null check (char_length(btrim(note)) between 1 and 500),
  reviewed_by uuid references auth.users (id) on delete set null,
  reviewed_at timestamptz not null default now(),
  foreign key (sale_id, business_id) references public.sales (id, business_id) on delete cascade
);
alter table public.sale_reviews enable row level security;
comment on table public.sale_reviews is
  'One review per flagged sale. Owners and managers of the store read; written only by public.review_sale.';
create index sale_reviews_business_reviewed_idx on public.sale_reviews (business_id, reviewed_at desc);
-- The foreign keys' indexes (deleting a sale or a user finds its reviews without a scan).
create index sale_reviews_sale_business_idx on public.sale_reviews (sale_id, business_id);
create index sale_reviews_reviewed_by_idx on public.sale_reviews (reviewed_by);

revoke all on table public.sale_reviews from public, anon, authenticated;
grant select on table public.sale_reviews to authenticated, service_role;

create policy "sale_reviews: owners and managers read in their stores" on public.sale_reviews
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

-- ---------------------------------------------------------------------------------------------------
-- The flagged sales of a business (optionally one store), newest first, without or with those already reviewed.
-- Security invoker: row level security on sales and sale_reviews limits a manager to their stores.
create or replace function public.flagged_sales(_business_id uuid, _store_id uuid default null,
                                                _include_reviewed boolean default false,
                                                _limit integer default 50, _offset integer default 0)
returns table (sale_id uuid, store_id uuid, store_name text, receipt_number text, cashier_name text,
               occurred_at timestamptz, recorded_at timestamptz, total bigint, currency text, offline boolean,
               review_reasons text[], reviewed_at timestamptz, reviewer_name text, note text, total_count bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if _limit is null or _limit < 1 or _limit > 200 or _offset is null or _offset < 0 then
    raise exception 'ask for 1 to 200 sales from offset 0 or more' using errcode = '22023';
  end if;
  return query
    select s.id, s.store_id, st.name::text, s.receipt_number, n.name, s.occurred_at, s.recorded_at, s.total,
           s.currency::text, s.offline, s.review_reasons, r.reviewed_at, rn.name, r.note,
           count(*) over ()
      from public.sales s
      join public.stores st on st.id = s.store_id
      left join public.sale_reviews r on r.sale_id = s.id
      left join private.member_names(_business_id) n on n.user_id = s.cashier_id
      left join private.member_names(_business_id) rn on rn.user_id = r.reviewed_by
     where s.business_id = _business_id
       and s.flagged_for_review
       and (_store_id is null or s.store_id = _store_id)
       and (_include_reviewed or r.sale_id is null)
     order by s.occurred_at desc, s.id
     limit _limit offset _offset;
end;
$$;
revoke all on function public.flagged_sales(uuid, uuid, boolean, integer, integer) from public, anon;
grant execute on function public.flagged_sales(uuid, uuid, boolean, integer, integer) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Record the review of one flagged sale, once (a second review is refused with 23505: HTTP 409).
create or replace function public.review_sale(_sale_id uuid, _note text)
returns public.sale_reviews
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sale public.sales;
  v_business uuid;
  v_row public.sale_reviews;
begin
  select s.* into v_sale from public.sales s where s.id = _sale_id;
  if v_sale.id is null then
    raise exception 'no such sale' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_sale.store_id, array['owner', 'manager']);
  if not v_sale.flagged_for_review then
    raise exception 'this sale is not flagged for review' using errcode = '22023';
  elsif _note is null or char_length(btrim(_note)) not between 1 and 500 then
    raise exception 'write what you found (1 to 500 characters)' using errcode = '22023';
  end if;
  insert into public.sale_reviews (sale_id, business_id, store_id, note, reviewed_by)
  values (v_sale.id, v_business, v_sale.store_id, btrim(_note), (select auth.uid()))
  on conflict (sale_id) do nothing
  returning * into v_row;
  if v_row.sale_id is null then
    raise exception 'this sale was already reviewed' using errcode = '23505';
  end if;
  perform private.log_activity(v_business, v_sale.store_id, 'sale.reviewed', 'sale', v_sale.id, null,
    jsonb_build_object('receipt_number', v_sale.receipt_number, 'review_reasons', to_jsonb(v_sale.review_reasons)));
  return v_row;
end;
$$;
revoke all on function public.review_sale(uuid, text) from public, anon;
grant execute on function public.review_sale(uuid, text) to authenticated;
