-- A manager could clear the flag of a sale rung at their own till under a PIN switch: the sale names the person
-- switched in (sales.cashier_id), so the second-reviewer rule looked only at them (review of 20261202120000). The
-- person signed in at the till (the switch's signed_in_user_id) is now a subject too: neither reviews the sale
-- unless they are the owner. review_sale as in the schema otherwise.
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
  perform private.assert_second_reviewer(v_business, v_sale.cashier_id);
  if v_sale.till_switch_id is not null then
    perform private.assert_second_reviewer(v_business,
      (select t.signed_in_user_id from public.till_switches t where t.id = v_sale.till_switch_id));
  end if;
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
revoke all on function public.review_sale(uuid,text) from public;
grant execute on function public.review_sale(uuid,text) to authenticated;
