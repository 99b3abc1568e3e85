-- Issue 29, ADR 0403: the receipt names the lots the server picked. post_sale already answers each line with its
-- lots (ADR 0360), but the register queues a sale and prints before the answer, and a reprint (sale_receipt) had
-- no lots. sale_receipt as in 20261203090000_serial_lookup.sql, each line with the lots it took (number, expiry,
-- quantity), so the register fills them in once the sale has posted and a reprint shows them.

create or replace function public.sale_receipt(_sale_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_sale public.sales;
begin
  select s.* into v_sale from public.sales s
   where s.id = _sale_id
     and (((s.business_id in (select private.my_full_access_business_ids()) or s.store_id in (select private.my_listed_store_ids()))
           and s.business_id in (select private.my_business_ids(array['owner', 'manager'])))
          or s.id in (select private.my_rung_sale_ids()));
  if v_sale.id is null then
    raise exception 'receipt not found' using errcode = 'PT404';
  end if;
  return private.receipt_email_params(v_sale) || jsonb_build_object(
    'lines', coalesce((select jsonb_agg(jsonb_build_object('description', l.description, 'qty', l.qty,
                                                           'unit_price', l.unit_price, 'discount', l.discount,
                                                           'line_total', l.line_total, 'serial', ss.serial,
                                                           'lots', coalesce((
                                                             select jsonb_agg(jsonb_build_object('lot_number', lo.lot_number,
                                                                      'expires_on', lo.expires_on, 'qty', ll.qty)
                                                                    order by lo.expires_on nulls last, lo.lot_number)
                                                               from public.sale_line_lots ll
                                                               join public.lots lo on lo.id = ll.lot_id
                                                              where ll.sale_line_id = l.id), '[]'::jsonb))
                                        order by l.line_no)
                         from public.sale_lines l
                         left join public.sale_line_serials ss on ss.sale_line_id = l.id
                        where l.sale_id = v_sale.id), '[]'),
    'customer', (select c.name from public.customers c where c.id = v_sale.customer_id));
end;
$$;
comment on function public.sale_receipt(uuid) is 'One sale''s receipt with the serial and the lots of each line, for the readers of the sale (the register once the sale posted, the serial lookup''s receipt link).';
revoke all on function public.sale_receipt(uuid) from public;
grant execute on function public.sale_receipt(uuid) to authenticated;
