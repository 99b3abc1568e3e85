-- Issue 29, ADR 0410: the emailed receipt says what the printed one says. The register's receipt names each line's
-- serial and lots (ADRs 0365, 0403) and the foreign cash handed over (ADR 0395); the email (receipt_email_params,
-- 20261202140100_receipt_email_logo) had none of them. One place now builds a sale's receipt lines and tenders:
-- receipt_email_params gives each line its serial and its lots (number, expiry, quantity) and each foreign tender
-- its currency, rate and the foreign amount; sale_receipt (20261204120300_receipt_lots) keeps only the customer.

create or replace function private.receipt_email_params(_sale public.sales)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'sale_id', _sale.id,
    'receipt_number', _sale.receipt_number,
    'store_name', st.name,
    'store_address', st.address,
    'store_phone', st.phone,
    -- The business logo's object in the public bucket business-logos, with its version (docs/adr/0321): the
    -- deliverer makes it an absolute URL on the project (its own API URL), so the email shows the current logo.
    'logo_path', (select o.name || '?v=' || floor(extract(epoch from coalesce(o.updated_at, o.created_at)))::bigint::text
                    from storage.objects o
                   where o.bucket_id = 'business-logos' and o.name = _sale.business_id::text || '/logo'),
    'header', st.receipt_header,
    'footer', st.receipt_footer,
    'currency', _sale.currency,
    'occurred_at', _sale.occurred_at,
    'occurred_local', to_char(_sale.occurred_at at time zone st.time_zone, 'YYYY-MM-DD HH24:MI'),
    'tax_inclusive', _sale.tax_inclusive,
    'subtotal', _sale.subtotal,
    'discount_total', _sale.discount_total,
    'tax_total', _sale.tax_total,
    'total', _sale.total,
    'change_total', _sale.change_total,
    'lines', coalesce((select jsonb_agg(jsonb_build_object('description', l.description, 'qty', l.qty,
                                                           'unit_price', l.unit_price, 'discount', l.discount,
                                                           'amount', round(l.unit_price * l.qty)::bigint,
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
                        where l.sale_id = _sale.id), '[]'),
    'taxes', coalesce((select jsonb_agg(jsonb_build_object('rate', t.rate, 'tax', t.tax) order by t.rate)
                         from (select l.tax_rate as rate, sum(l.tax_amount) as tax from public.sale_lines l
                                where l.sale_id = _sale.id and l.tax_amount <> 0 group by l.tax_rate) t), '[]'),
    'tenders', coalesce((select jsonb_agg(jsonb_build_object('kind', t.kind, 'amount', t.amount,
                                                             'tendered', t.tendered, 'change', t.change,
                                                             'currency', t.currency, 'rate', t.rate,
                                                             'foreign_tendered', t.foreign_tendered)
                                          order by t.kind, t.id)
                           from public.sale_tenders t where t.sale_id = _sale.id), '[]'))
    from public.stores st
   where st.id = _sale.store_id;
$$;
revoke all on function private.receipt_email_params(public.sales) from public;

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
  return private.receipt_email_params(v_sale)
      || jsonb_build_object('customer', (select c.name from public.customers c where c.id = v_sale.customer_id));
end;
$$;
comment on function public.sale_receipt(uuid) is 'One sale''s receipt with the serial and the lots of each line and the foreign cash handed over, for the readers of the sale (the register once the sale posted, the serial lookup''s receipt link).';
revoke all on function public.sale_receipt(uuid) from public;
grant execute on function public.sale_receipt(uuid) to authenticated;
