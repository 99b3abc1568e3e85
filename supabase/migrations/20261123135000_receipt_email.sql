-- Email a sale's receipt on request (issue 13, ADR 0132).
--
-- * request_receipt_email(sale_id, email) is the only way in: a security definer function that lets the caller
--   email a receipt only of a sale they may read (the sales policy: every member of the business with access to
--   the sale's store), and only to a well-formed address. Another business's sale and a missing one answer alike
--   (42501), so sale ids of other businesses are not confirmed.
-- * It queues one row in public.email_outbox (template 'receipt') with the receipt's figures as they were posted
--   (never costs); the local outbox relay, and on hosted the send-email Edge Function, renders and delivers it.
-- * Not a spam relay: at most 3 emails per sale and 30 per member per hour, counted from the activity trail,
--   where each request is logged as receipt.emailed (without the address: no personal data in the trail).
-- Hosted Supabase no longer grants new functions to the API roles, so every grant is explicit.

-- The outbox learns the 'receipt' template. The list keeps every earlier template, purchase_order included
-- (20261123120000_inventory_more.sql); the constraint keeps its name.
alter table public.email_outbox drop constraint email_outbox_template_check;
alter table public.email_outbox add constraint email_outbox_template_check
  check (template in ('ticket_reply', 'ticket_resolved', 'purchase_order', 'receipt'));

-- The receipt as the customer sees it: store, lines, taxes per rate, tenders, totals, local date and time.
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
    'header', st.receipt_header,
    'footer', st.receipt_footer,
    'currency', _sale.currency,
    'occurred_at', _sale.occurred_at,
    'occurred_local', to_char(_sale.occurred_at at time zone st.time_zone, 'YYYY-MM-DD HH24:MI'),
    'subtotal', _sale.subtotal,
    'discount_total', _sale.discount_total,
    'tax_total', _sale.tax_total,
    'total', _sale.total,
    'change_total', _sale.change_total,
    'lines', coalesce((select jsonb_agg(jsonb_build_object('description', l.description, 'qty', l.qty,
                                                           'unit_price', l.unit_price, 'discount', l.discount,
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
revoke all on function private.receipt_email_params(public.sales) from public, anon, authenticated;

create or replace function public.request_receipt_email(_sale_id uuid, _email text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_sale public.sales;
  v_email public.email_address;
begin
  if v_uid is null then
    raise exception 'sign in to email a receipt' using errcode = '42501';
  end if;
  -- The same rule as the sales read policy: full access to the business, or access to the sale's store.
  select s.* into v_sale from public.sales s
   where s.id = _sale_id
     and (s.business_id in (select private.my_full_access_business_ids())
          or s.store_id in (select private.my_listed_store_ids()));
  if v_sale.id is null then
    raise exception 'receipt not found (a sale made offline can be emailed once it has synced)' using errcode = '42501';
  end if;
  begin
    v_email := btrim(coalesce(_email, ''));
  exception when check_violation then
    raise exception 'enter a valid email address' using errcode = '22023';
  end;
  if (select count(*) from public.activity a
       where a.business_id = v_sale.business_id and a.kind = 'receipt.emailed' and a.entity_id = v_sale.id) >= 3 then
    raise exception 'this receipt was already emailed 3 times' using errcode = 'SW003';
  end if;
  if (select count(*) from public.activity a
       where a.business_id = v_sale.business_id and a.actor_id = v_uid and a.at > now() - interval '1 hour'
         and a.kind = 'receipt.emailed') >= 30 then
    raise exception 'too many receipt emails in the last hour; try again later' using errcode = 'SW003';
  end if;

  insert into public.email_outbox (to_email, template, params)
  values (v_email, 'receipt', private.receipt_email_params(v_sale));
  perform private.log_activity(v_sale.business_id, v_sale.store_id, 'receipt.emailed', 'sale', v_sale.id, null,
    jsonb_build_object('receipt_number', v_sale.receipt_number));
  return jsonb_build_object('queued', true, 'receipt_number', v_sale.receipt_number);
end;
$$;
comment on function public.request_receipt_email(uuid, text) is
  'Queues the receipt of a sale the caller may read for email to one address (3 per sale, 30 per member per hour).';

revoke all on function public.request_receipt_email(uuid, text) from public, anon;
grant execute on function public.request_receipt_email(uuid, text) to authenticated;
