-- The business logo in the emailed receipt (issue 27, docs/adr/0321): receipt_email_params names the logo's object
-- in the public bucket business-logos (with its version), and the deliverers (the local relay, the hosted send-email
-- function) make it an absolute URL on the project. Same definition as 20261127160000_receipt_lines_add_up otherwise.

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
                                                           'line_total', l.line_total) order by l.line_no)
                         from public.sale_lines l where l.sale_id = _sale.id), '[]'),
    'taxes', coalesce((select jsonb_agg(jsonb_build_object('rate', t.rate, 'tax', t.tax) order by t.rate)
                         from (select l.tax_rate as rate, sum(l.tax_amount) as tax from public.sale_lines l
                                where l.sale_id = _sale.id and l.tax_amount <> 0 group by l.tax_rate) t), '[]'),
    'tenders', coalesce((select jsonb_agg(jsonb_build_object('kind', t.kind, 'amount', t.amount,
                                                             'tendered', t.tendered, 'change', t.change)
                                          order by t.kind, t.id)
                           from public.sale_tenders t where t.sale_id = _sale.id), '[]'))
    from public.stores st
   where st.id = _sale.store_id;
$$;
revoke all on function private.receipt_email_params(public.sales) from public;
