-- Issue 30, read-only maintenance enforced (docs/adr/0280). Until now read-only mode was only announced
-- (ADR 0260): the database still took every write. Now, while it is on, every write a signed-in user (or an
-- anonymous caller) makes to business data is refused with SQLSTATE PT503 (PostgREST answers HTTP 503, "try
-- again later"), whether it comes straight through the table API (what RLS allows) or from a security-definer
-- function (post_sale, adjust_stock, the settings screens, the team...): a statement-level trigger on every
-- business table calls private.assert_writable(), and triggers fire inside security-definer functions too, so a
-- new write function cannot forget it. tests/db/read-only-mode.test.ts fails when a table has neither the
-- trigger nor a reason in its exemption list. Reads keep working; the service role, GoTrue and the scheduled jobs
-- (no signed-in user) are not refused; the platform's own tables (settings, legal drafts, admin roles), sign-in and
-- two-factor records, support, notifications, mail, the activity trail (append-only, written only beside
-- other writes, which are refused on their own tables, and by support tickets) and the store PCs' heartbeats are exempt, so an admin can sign
-- in with two-factor and turn read-only off, and users can still reach support.
-- Written by hand, folded into the schema files by npm run schema:extract.

-- Refuses the write when read-only maintenance is on and the caller is a signed-in user or anonymous
-- (auth.role() from the request's JWT, which security-definer functions keep). The message is a sentence the
-- screens show as it is; detail carries the admin's reason.
create or replace function private.assert_writable()
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_message text;
begin
  select s.read_only_message into v_message from private.platform_settings s where s.id and s.read_only;
  if not found or coalesce(auth.role(), '') not in ('authenticated', 'anon') then
    return;
  end if;
  raise exception 'Storewise is in read-only maintenance: changes wait until it ends.'
    using errcode = 'PT503', detail = nullif(btrim(v_message), ''),
          hint = 'Registers keep selling offline and send their sales when it ends.';
end;
$$;
comment on function private.assert_writable() is 'Raises PT503 (HTTP 503) while read-only maintenance is on and the caller is a signed-in user or anonymous (docs/adr/0280).';
revoke all on function private.assert_writable() from public;

-- The statement-level trigger on every business table. Security definer: it reads the settings row, which
-- callers cannot. The common case (read-only off) costs one look at a one-row table per statement.
create or replace function private.read_only_guard()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from private.platform_settings s where s.id and s.read_only) then
    perform private.assert_writable();
  end if;
  return null;
end;
$$;
comment on function private.read_only_guard() is 'Before each insert, update or delete statement on a business table: refused while read-only maintenance is on (docs/adr/0280).';
revoke all on function private.read_only_guard() from public;

create trigger read_only_guard before insert or update or delete on private.billing_signature_failures
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on private.business_deletions
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on private.business_erasure_proofs
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on private.business_trials
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on private.catalog_import_keys
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on private.catalog_words
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on private.invitation_tokens
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on private.legal_acknowledgements
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on private.plan_events
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on private.register_counters
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.barcodes
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.billing_customers
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.billing_events
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.billing_history
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.billing_subscriptions
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.business_members
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.businesses
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.cash_movements
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.categories
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.customers
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.inventory_value
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.invitations
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.lots
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.member_store_access
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.payment_methods
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.pos_approvals
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.products
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.profiles
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.purchase_order_lines
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.purchase_orders
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.refund_lines
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.refund_reviews
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.refunds
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.registers
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.reorder_points
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.sale_line_costs
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.sale_line_serials
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.sale_lines
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.sale_reviews
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.sale_tenders
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.sales
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.sales_daily
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.sales_daily_breakdown
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.sales_daily_tax
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.sales_daily_variant
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.sales_monthly_breakdown
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.sales_monthly_variant
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.sales_monthly_variant_business
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.scale_barcode_rules
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.serial_numbers
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.shift_reviews
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.shift_totals
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.shifts
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.stock_balances
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.stock_movements
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.stock_movements_daily
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.stock_pairs
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.store_prices
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.stores
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.suppliers
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.transfer_lines
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.transfers
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.user_plans
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.variant_costs
  for each statement execute function private.read_only_guard();
create trigger read_only_guard before insert or update or delete on public.variants
  for each statement execute function private.read_only_guard();

-- The register's outbox calls: refused before any work, as one answer for the whole batch (the outbox keeps the
-- sales and tries again later), rather than one refusal per sale. Otherwise as 20261127120000_work_caps.
create or replace function public.post_sales(_payloads jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_max_sales constant int := 50;
  c_max_lines constant int := 60;
  v_lines bigint;
  v_payload jsonb;
  v record;
  v_out jsonb[] := '{}';
begin
  perform private.assert_writable();
  if jsonb_typeof(_payloads) is distinct from 'array' or jsonb_array_length(_payloads) = 0 then
    raise exception 'send the sales as a list' using errcode = '22023';
  elsif jsonb_array_length(_payloads) > c_max_sales then
    raise exception 'send at most % sales at a time', c_max_sales using errcode = '22023';
  end if;
  select coalesce(sum(case when jsonb_typeof(p -> 'lines') = 'array' then jsonb_array_length(p -> 'lines') else 0 end), 0)
    into v_lines
    from jsonb_array_elements(_payloads) p
   where jsonb_typeof(p) = 'object';
  if v_lines > c_max_lines then
    raise exception 'send at most % sale lines in one batch (this one has %): send fewer sales at a time', c_max_lines, v_lines
      using errcode = '22023';
  end if;
  for v_payload in select value from jsonb_array_elements(_payloads) loop
    begin
      select * into v from private.post_sale_core(v_payload);
      v_out := v_out || jsonb_build_object('id', v_payload ->> 'id', 'ok', true, 'replayed', v.o_replayed,
                                           'receipt_number', v.o_receipt);
    exception when others then
      v_out := v_out || jsonb_build_object('id', v_payload ->> 'id', 'ok', false, 'code', sqlstate, 'message', sqlerrm);
    end;
  end loop;
  return to_jsonb(v_out);
end;
$$;

create or replace function public.post_sale(_payload jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v record;
begin
  perform private.assert_writable();
  select * into v from private.post_sale_core(_payload);
  return private.sale_json(v.o_id) || jsonb_build_object('replayed', v.o_replayed);
end;
$$;
