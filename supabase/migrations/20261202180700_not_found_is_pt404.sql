-- "Not found" answers HTTP 404, not 500 (ADR 0331). These 21 functions raised errcode P0002 (no_data_found) for an
-- unknown or foreign id; PostgREST answers every P0xxx but P0001 with HTTP 500 (mapSQLtoHTTP, src/PostgREST/Error.hs),
-- so e.g. erase_customer with an unknown id was a server error "no such customer" to the client, to the logs and to
-- the monitoring. They raise PT404 now, which PostgREST answers with HTTP 404 (a code PTxyz is HTTP xyz), as
-- PT429 and PT503 already do here. The edge functions' refusal maps and the billing store read PT404 as not found.
-- Each function as its latest definition otherwise (the schema files, which equal the migrations before this one);
-- create or replace keeps their grants and comments.

-- Admin: suspend (with a reason the owner sees) or lift a suspension. The audit trigger records who.
create or replace function public.admin_set_business_suspension(_business_id uuid, _suspended boolean, _reason text default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_reason text := nullif(btrim(coalesce(_reason, '')), '');
begin
  perform private.assert_admin();
  if _suspended and (v_reason is null or char_length(v_reason) > 500) then
    raise exception 'give the owner a reason (1 to 500 characters)' using errcode = '22023';
  end if;
  update public.businesses b
     set suspended_at = case when _suspended then coalesce(b.suspended_at, now()) end,
         suspended_reason = case when _suspended then v_reason end
   where b.id = _business_id;
  if not found then
    raise exception 'no such business' using errcode = 'PT404';
  end if;
end;
$$;

-- An administrator (with a second factor) removes a user's two-factor sign-in, e.g. after a lost phone with no
-- recovery codes left. Deleting auth.mfa_factors rows is Supabase's documented reset; written to the trail.
create or replace function public.admin_reset_two_factor(_user_id uuid)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_removed integer;
begin
  perform private.assert_admin();
  perform private.assert_aal2();
  if not exists (select 1 from auth.users u where u.id = _user_id) then
    raise exception 'no such user' using errcode = 'PT404';
  end if;
  delete from auth.mfa_factors f where f.user_id = _user_id;
  get diagnostics v_removed = row_count;
  delete from private.mfa_recovery_codes c where c.user_id = _user_id;
  insert into private.account_security_events (user_id, actor_id, kind)
  values (_user_id, (select auth.uid()), 'mfa.reset_by_admin');
  return v_removed;
end;
$$;

-- A legal hold (litigation, an authority's request) stops the erasure and the purge until it is lifted.
create or replace function public.admin_set_legal_hold(_business_id uuid, _hold boolean, _reason text default null)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  perform private.assert_aal2_if_enrolled();
  if _hold and (_reason is null or char_length(btrim(_reason)) not between 3 and 500) then
    raise exception 'give the reason for the hold (3 to 500 characters)' using errcode = '22023';
  end if;
  update private.business_deletions d
     set legal_hold = _hold, legal_hold_reason = case when _hold then btrim(_reason) end, updated_at = now()
   where d.business_id = _business_id and d.state <> 'canceled';
  if not found then
    raise exception 'no deletion of this business' using errcode = 'PT404';
  end if;
  insert into private.business_erasure_proofs (business_id, what, rows_affected)
  values (_business_id, case when _hold then 'legal hold placed' else 'legal hold lifted' end, 0);
end;
$$;

create or replace function public.erase_member_personal_data(_user_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if _user_id is null or not exists (select 1 from auth.users u where u.id = _user_id) then
    raise exception 'no such user' using errcode = 'PT404';
  end if;
  if private.owns_live_business(_user_id) then
    raise exception 'the user owns a business: transfer it or delete the business first' using errcode = 'P0001';
  end if;
  insert into private.account_security_events (user_id, actor_id, kind) values (_user_id, _user_id, 'account.deleted');
  delete from public.member_store_access a where a.user_id = _user_id;
  delete from public.business_members m where m.user_id = _user_id;
  update public.profiles p
     set full_name = 'Former staff member', phone = null, business_name = null, business_email = null
   where p.id = _user_id;
  delete from private.mfa_recovery_codes c where c.user_id = _user_id;
end;
$$;

-- The business of a provider customer (stored before checkout), or of the metadata the checkout carried.
create or replace function private.billing_business_of(_customer_id text, _business_hint text)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid;
begin
  select c.business_id into v_business from public.billing_customers c where c.provider_customer_id = _customer_id;
  if v_business is null and _business_hint ~ '^[0-9a-f-]{36}$' then
    -- Only a business whose customer is not recorded yet may be claimed by metadata.
    select b.id into v_business from public.businesses b
     where b.id = _business_hint::uuid
       and not exists (select 1 from public.billing_customers c
                        where c.business_id = b.id and c.provider_customer_id is not null);
    if v_business is not null then
      perform public.billing_save_customer(v_business, _customer_id);
    end if;
  end if;
  if v_business is null then
    raise exception 'no business for provider customer %', _customer_id using errcode = 'PT404';
  end if;
  return v_business;
end;
$$;

-- Admin refunds (billing-refund): who may, which invoice, and the audit line in the business's trail.
create or replace function public.billing_admin_invoice(_admin_id uuid, _invoice_id text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_row public.billing_history;
begin
  if not public.is_admin(_admin_id) then
    raise exception 'permission denied: administrators only' using errcode = '42501';
  end if;
  select h.* into v_row from public.billing_history h where h.provider_invoice_id = _invoice_id;
  if v_row.id is null then
    raise exception 'no such invoice' using errcode = 'PT404';
  end if;
  return jsonb_build_object('id', v_row.id, 'business_id', v_row.business_id, 'status', v_row.status, 'amount', v_row.amount);
end;
$$;

-- The main picture: one statement cannot swap it (the unique index is checked row by row), so the old main is
-- cleared first, then the new one set, in one call. Security invoker: the table's policies decide (a cashier's
-- update reaches no row and is refused).
create or replace function public.set_main_product_image(_image_id uuid)
returns void
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_product uuid;
begin
  select i.product_id into v_product from public.product_images i where i.id = _image_id;
  if v_product is null then
    raise exception 'picture not found' using errcode = 'PT404';
  end if;
  update public.product_images set is_main = false where product_id = v_product and is_main and id <> _image_id;
  update public.product_images set is_main = true where id = _image_id;
  if not found then
    raise exception 'only owners and managers choose the main picture' using errcode = '42501';
  end if;
end;
$$;

-- The signed-in invitee joins the business: once, before it expires, unrevoked, with the invited address.
create or replace function public.accept_invitation(_token text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_invitation public.invitations;
  v_email text;
begin
  if v_uid is null then
    raise exception 'sign in to accept an invitation' using errcode = '42501';
  end if;
  select i.* into v_invitation
    from private.invitation_tokens t join public.invitations i on i.id = t.invitation_id
   where t.token_hash = encode(extensions.digest(coalesce(_token, ''), 'sha256'), 'hex')
   for update of i;
  if v_invitation.id is null then
    raise exception 'this invitation link is not valid' using errcode = 'PT404';
  elsif v_invitation.accepted_at is not null then
    raise exception 'this invitation was already used' using errcode = '22023';
  elsif v_invitation.revoked_at is not null then
    raise exception 'this invitation was withdrawn' using errcode = '22023';
  elsif v_invitation.expires_at <= now() then
    raise exception 'this invitation has expired: ask for a new one' using errcode = '22023';
  end if;
  select lower(u.email) into v_email from auth.users u where u.id = v_uid and u.email_confirmed_at is not null;
  if v_email is distinct from lower(v_invitation.email) then
    raise exception 'this invitation was sent to another email address' using errcode = '42501';
  end if;
  if exists (select 1 from public.business_members m where m.business_id = v_invitation.business_id and m.user_id = v_uid) then
    raise exception 'you are already a member of this business' using errcode = '23505';
  end if;
  if exists (select 1 from public.businesses b where b.id = v_invitation.business_id and b.suspended_at is not null) then
    raise exception 'this business is suspended' using errcode = '42501';
  end if;
  perform private.assert_plan_allows(v_invitation.business_id, 'members');
  insert into public.business_members (business_id, user_id, role, all_stores)
  values (v_invitation.business_id, v_uid, v_invitation.role, v_invitation.all_stores);
  insert into public.member_store_access (business_id, user_id, store_id)
  select v_invitation.business_id, v_uid, s.id
    from public.stores s
   where not v_invitation.all_stores and s.business_id = v_invitation.business_id and s.id = any (v_invitation.store_ids);
  update public.invitations i set accepted_at = now(), accepted_by = v_uid where i.id = v_invitation.id;
  return v_invitation.business_id;
end;
$$;

-- The owner changes a member's role and store access (not their own: ownership moves by transfer).
-- Issue 26: a caller with an authenticator must have given its code in this session (docs/adr/0207).
create or replace function public.set_member_role(
  _business_id uuid, _user_id uuid, _role text, _all_stores boolean default true, _store_ids uuid[] default '{}'
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_current text;
begin
  perform private.assert_aal2_if_enrolled();
  perform private.assert_role(_business_id, array['owner']);
  if _role is null or _role not in ('manager', 'cashier') then
    raise exception 'a member is a manager or a cashier' using errcode = '22023';
  end if;
  select m.role into v_current from public.business_members m
   where m.business_id = _business_id and m.user_id = _user_id for update;
  if v_current is null then
    raise exception 'not a member of this business' using errcode = 'PT404';
  elsif v_current = 'owner' then
    raise exception 'the owner''s role changes only by transferring ownership' using errcode = '42501';
  end if;
  update public.business_members m set role = _role, all_stores = coalesce(_all_stores, true)
   where m.business_id = _business_id and m.user_id = _user_id
     and (m.role is distinct from _role or m.all_stores is distinct from coalesce(_all_stores, true));
  perform private.write_store_access(_business_id, _user_id, coalesce(_all_stores, true), _store_ids);
end;
$$;

-- The owner removes a member; their next request finds no membership (RLS reads it live).
-- Issue 26: a caller with an authenticator must have given its code in this session (docs/adr/0207).
create or replace function public.remove_member(_business_id uuid, _user_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_current text;
begin
  perform private.assert_aal2_if_enrolled();
  perform private.assert_role(_business_id, array['owner']);
  select m.role into v_current from public.business_members m
   where m.business_id = _business_id and m.user_id = _user_id for update;
  if v_current is null then
    raise exception 'not a member of this business' using errcode = 'PT404';
  elsif v_current = 'owner' then
    raise exception 'the owner cannot be removed; transfer ownership first' using errcode = '42501';
  end if;
  delete from public.business_members m where m.business_id = _business_id and m.user_id = _user_id;
end;
$$;

-- A shop erases one of its customers on request (GDPR Art. 17): owners and managers of the business, aal2 when
-- the caller has an authenticator. Receipts keep pointing at the now anonymous customer. Returns the customer id.
create or replace function public.erase_customer(_customer_id uuid)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_business uuid;
begin
  select c.business_id into v_business from public.customers c where c.id = _customer_id;
  if v_business is null or private.my_role(v_business) is null then
    raise exception 'no such customer' using errcode = 'PT404';
  end if;
  if private.my_role(v_business) not in ('owner', 'manager') then
    raise exception 'permission denied: only owners and managers erase a customer' using errcode = '42501';
  end if;
  perform private.assert_aal2_if_enrolled();
  perform private.erase_customers(v_business, array[_customer_id]);
  perform private.log_activity(v_business, null, 'customer.erased', 'customer', _customer_id, null,
                               jsonb_build_object('erased', true));
  return _customer_id;
end;
$$;

-- A shop exports what it holds about one customer (GDPR Art. 15 and 20): the customer, their sales with lines and
-- tenders, their refunds. Any member who may read the customer; aal2 when the caller has an authenticator.
create or replace function public.export_customer(_customer_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_customer public.customers;
begin
  select * into v_customer from public.customers c where c.id = _customer_id;
  if v_customer.id is null or coalesce(private.my_role(v_customer.business_id), '') not in ('owner', 'manager') then
    raise exception 'no such customer' using errcode = 'PT404';
  end if;
  perform private.assert_aal2_if_enrolled();
  return jsonb_build_object(
    'format', 'storewise-customer/1',
    'exported_at', now(),
    'customer', jsonb_build_object('id', v_customer.id, 'name', v_customer.name, 'email', v_customer.email,
                                   'phone', v_customer.phone, 'created_at', v_customer.created_at),
    'sales', (select coalesce(jsonb_agg(jsonb_build_object(
                 'id', s.id, 'receipt_number', s.receipt_number, 'occurred_at', s.occurred_at, 'total', s.total,
                 'lines', (select coalesce(jsonb_agg(to_jsonb(l) - 'business_id'), '[]'::jsonb) from public.sale_lines l where l.sale_id = s.id),
                 'tenders', (select coalesce(jsonb_agg(to_jsonb(t) - 'business_id'), '[]'::jsonb) from public.sale_tenders t where t.sale_id = s.id))
                 order by s.occurred_at), '[]'::jsonb)
                from public.sales s where s.customer_id = _customer_id),
    'refunds', (select coalesce(jsonb_agg(to_jsonb(r) - 'business_id' order by r.occurred_at), '[]'::jsonb)
                  from public.refunds r join public.sales s on s.id = r.sale_id where s.customer_id = _customer_id)
  );
end;
$$;

-- The owner asks for the deletion by typing the business's name (aal2 when enrolled; managers and cashiers are
-- refused). Asking again while pending changes nothing; after a cancel it starts a new 30 days.
create or replace function public.request_business_deletion(_business_id uuid, _confirm_name text)
returns timestamp with time zone
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_business public.businesses;
  v_deletion private.business_deletions;
begin
  if (select auth.uid()) is null then
    raise exception 'sign in first' using errcode = '42501';
  end if;
  select * into v_business from public.businesses b where b.id = _business_id;
  if v_business.id is null or private.my_role(_business_id) is null then
    raise exception 'no such business' using errcode = 'PT404';
  end if;
  if private.my_role(_business_id) <> 'owner' then
    raise exception 'permission denied: only the owner can delete the business' using errcode = '42501';
  end if;
  perform private.assert_aal2_if_enrolled();
  if _confirm_name is null or lower(btrim(_confirm_name)) <> lower(btrim(v_business.name)) then
    raise exception 'type the business''s name exactly to confirm the deletion' using errcode = '22023';
  end if;
  select * into v_deletion from private.business_deletions d where d.business_id = _business_id for update;
  if v_deletion.state = 'pending' then
    return v_deletion.erase_after;
  end if;
  if v_deletion.state is not null and v_deletion.state <> 'canceled' then
    raise exception 'this business is already being deleted' using errcode = 'P0001';
  end if;
  insert into private.business_deletions as d (business_id, business_name, country, requested_by, erase_after)
  values (_business_id, v_business.name, v_business.country, (select auth.uid()), now() + interval '30 days')
  on conflict (business_id) do update
    set state = 'pending', requested_by = excluded.requested_by, requested_at = now(), erase_after = excluded.erase_after,
        canceled_at = null, step = null, updated_at = now()
  returning * into v_deletion;
  insert into private.business_erasure_proofs (business_id, what, rows_affected) values (_business_id, 'deletion requested', 0);
  perform private.log_activity(_business_id, null, 'business.deletion_requested', 'business', _business_id, null,
                               jsonb_build_object('erase_after', v_deletion.erase_after));
  return v_deletion.erase_after;
end;
$$;

create or replace function public.cancel_business_deletion(_business_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_state text;
begin
  if private.my_role(_business_id) is null then
    raise exception 'no such business' using errcode = 'PT404';
  end if;
  if private.my_role(_business_id) <> 'owner' then
    raise exception 'permission denied: only the owner can cancel the deletion' using errcode = '42501';
  end if;
  perform private.assert_aal2_if_enrolled();
  select d.state into v_state from private.business_deletions d where d.business_id = _business_id for update;
  if v_state is distinct from 'pending' then
    raise exception 'there is no pending deletion to cancel' using errcode = 'P0001';
  end if;
  update private.business_deletions d set state = 'canceled', canceled_at = now(), updated_at = now()
   where d.business_id = _business_id;
  insert into private.business_erasure_proofs (business_id, what, rows_affected) values (_business_id, 'deletion canceled by the owner', 0);
  perform private.log_activity(_business_id, null, 'business.deletion_canceled', 'business', _business_id, null, null);
end;
$$;

-- One page of one table of a job's business (service role), in primary key order after _after (the last row of
-- the previous page, null for the first). Keyset paging: each page costs the same however deep the table is.
create or replace function public.business_export_rows(_export_id uuid, _table text, _after jsonb default null,
                                                       _limit integer default 1000)
returns setof jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid;
  v_keys text[];
  v_key_t text;
  v_key_r text;
begin
  if _limit is null or _limit not between 1 and 5000 then
    raise exception 'limit must be between 1 and 5000' using errcode = '22023';
  end if;
  select e.business_id into v_business from private.business_exports e where e.id = _export_id and e.state = 'building';
  if v_business is null then
    raise exception 'no export being built with this id' using errcode = 'PT404';
  end if;
  select x.key_columns into v_keys from private.business_export_tables() x where x.table_name = _table;
  if v_keys is null then
    raise exception 'not a table of the export' using errcode = '22023';
  end if;
  select string_agg(format('t.%I', k), ', '), string_agg(format('r.%I', k), ', ') into v_key_t, v_key_r from unnest(v_keys) k;
  return query execute format(
    'select to_jsonb(t) from public.%I t where t.%I = $1 %s order by %s limit $3',
    _table, case when _table = 'businesses' then 'id' else 'business_id' end,
    case when _after is null then ''
         else format('and (%s) > (select %s from jsonb_populate_record(null::public.%I, $2) r)', v_key_t, v_key_r, _table) end,
    v_key_t)
    using v_business, _after, _limit;
end;
$$;

-- The function reports progress while it writes (service role), and the end: ready with the ZIP's name, or failed.
create or replace function public.business_export_progress(_export_id uuid, _rows_done bigint, _state text default 'building',
                                                           _object_name text default null)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if _state not in ('building', 'ready', 'failed') or _rows_done is null or _rows_done < 0 then
    raise exception 'state must be building, ready or failed, with the rows done' using errcode = '22023';
  end if;
  if _state = 'ready' and _object_name is null then
    raise exception 'a ready export names its file' using errcode = '22023';
  end if;
  update private.business_exports e
     set rows_done = least(_rows_done, e.rows_total), state = _state, object_name = coalesce(_object_name, e.object_name),
         finished_at = case when _state = 'building' then null else now() end
   where e.id = _export_id and e.state = 'building';
  if not found then
    raise exception 'no export being built with this id' using errcode = 'PT404';
  end if;
end;
$$;

-- The file of a ready export, for the download link (owner, aal2 when enrolled: the link is the export itself).
create or replace function public.business_export_file(_export_id uuid)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_export private.business_exports;
begin
  select * into v_export from private.business_exports e where e.id = _export_id;
  if v_export.id is null or private.my_role(v_export.business_id) is distinct from 'owner' then
    raise exception 'no such export' using errcode = 'PT404';
  end if;
  perform private.assert_aal2_if_enrolled();
  if v_export.state <> 'ready' then
    raise exception 'the export is %', case v_export.state when 'failed' then 'failed: export again' else 'not ready yet' end
      using errcode = 'P0001';
  end if;
  return v_export.object_name;
end;
$$;

-- The function records what it did outside the database: the provider's cancellation, and the files removed from
-- each bucket (one proof row per bucket and batch).
create or replace function public.business_deletion_record(_business_id uuid, _what text, _rows integer)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if _what not in ('subscription canceled at the provider', 'uploads removed',
                   'uploads removed from product-images', 'uploads removed from product-thumbnails',
                   'uploads removed from business-logos', 'uploads removed from exports',
                   'uploads removed from support-attachments') then
    raise exception 'unknown erasure record' using errcode = '22023';
  end if;
  if not exists (select 1 from private.business_deletions d where d.business_id = _business_id and d.state in ('pending', 'erasing')) then
    raise exception 'no deletion under way' using errcode = 'PT404';
  end if;
  if _what = 'subscription canceled at the provider' then
    update private.business_deletions d set subscription_canceled_at = coalesce(d.subscription_canceled_at, now()), updated_at = now()
     where d.business_id = _business_id;
  end if;
  insert into private.business_erasure_proofs (business_id, what, rows_affected) values (_business_id, _what, greatest(_rows, 0));
end;
$$;

-- One step of the erasure in one transaction (the call's): returns the step it did, or 'done'. A process killed
-- during a call loses only that call's transaction; calling again redoes it. Customers go in batches of _batch,
-- each customer whole (its row and its trail entries in the same transaction). 'uploads' is returned as long as
-- Storage holds files of the business: the caller removes them (business_erasure_uploads) and calls again; the
-- step advances only when none is left, so files and rows go together however often the run is cut off.
create or replace function public.business_erasure_step(_business_id uuid, _batch integer default 500)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_deletion private.business_deletions;
  v_ids uuid[];
  v_rows integer;
  v_years integer;
begin
  if _batch is null or _batch not between 1 and 10000 then
    raise exception 'batch must be between 1 and 10000' using errcode = '22023';
  end if;
  select * into v_deletion from private.business_deletions d where d.business_id = _business_id for update;
  if v_deletion.business_id is null then
    raise exception 'no deletion of this business' using errcode = 'PT404';
  end if;
  if v_deletion.legal_hold then
    raise exception 'this deletion is on legal hold' using errcode = 'P0001';
  end if;
  if v_deletion.state in ('retained', 'purged') then
    return 'done';
  end if;
  if v_deletion.state = 'canceled' or (v_deletion.state = 'pending' and v_deletion.erase_after > now()) then
    raise exception 'this deletion is not due' using errcode = 'P0001';
  end if;
  if v_deletion.subscription_canceled_at is null and exists (select public.business_deletion_subscriptions(_business_id)) then
    raise exception 'cancel the subscription at the provider first' using errcode = 'P0001';
  end if;

  if v_deletion.state = 'pending' then
    -- begin: nobody works in the business any more; the owner still sees it, suspended, to know why.
    update public.businesses b set suspended_at = coalesce(b.suspended_at, now()), suspended_reason = 'Deleted by its owner'
     where b.id = _business_id;
    update private.business_deletions d set state = 'erasing', step = 'customers', updated_at = now() where d.business_id = _business_id;
    insert into private.business_erasure_proofs (business_id, what, rows_affected) values (_business_id, 'erasure begun, business suspended', 1);
    return 'begin';
  end if;

  if v_deletion.step = 'customers' then
    select array_agg(c.id) into v_ids
      from (select c.id from public.customers c where c.business_id = _business_id and c.erased_at is null
             order by c.id limit _batch) c;
    if v_ids is not null then
      v_rows := private.erase_customers(_business_id, v_ids);
      insert into private.business_erasure_proofs (business_id, what, rows_affected) values (_business_id, 'customers erased', v_rows);
      return 'customers';
    end if;
    update private.business_deletions d set step = 'staff', updated_at = now() where d.business_id = _business_id;
    return 'customers';
  end if;

  if v_deletion.step = 'staff' then
    delete from public.member_store_access a where a.business_id = _business_id;
    delete from public.business_members m where m.business_id = _business_id and m.role <> 'owner';
    get diagnostics v_rows = row_count;
    delete from public.invitations i where i.business_id = _business_id;
    -- Staff names and emails in the trail (who did what keeps its actor id).
    perform set_config('storewise.trail_redaction', 'on', true);
    update public.activity a
       set actor_label = null, actor_email = null,
           before = case when a.entity_type in ('member', 'invitation', 'customer') then private.redact_person_fields(a.before) else a.before end,
           after = case when a.entity_type in ('member', 'invitation', 'customer') then private.redact_person_fields(a.after) else a.after end
     where a.business_id = _business_id
       and (a.actor_label is not null or a.actor_email is not null or a.entity_type in ('member', 'invitation'));
    perform set_config('storewise.trail_redaction', 'off', true);
    update private.business_deletions d set step = 'uploads', updated_at = now() where d.business_id = _business_id;
    insert into private.business_erasure_proofs (business_id, what, rows_affected) values (_business_id, 'staff memberships, invitations and names erased', v_rows);
    return 'staff';
  end if;

  if v_deletion.step = 'uploads' then
    if exists (select 1 from public.business_erasure_uploads(_business_id, 1)) then
      return 'uploads';
    end if;
    update private.business_deletions d set step = 'tickets', updated_at = now() where d.business_id = _business_id;
    insert into private.business_erasure_proofs (business_id, what, rows_affected) values (_business_id, 'uploads removed', 0);
    return 'uploads';
  end if;

  if v_deletion.step = 'tickets' then
    delete from public.support_tickets t where t.business_id = _business_id;
    get diagnostics v_rows = row_count;
    update private.business_deletions d set step = 'contact', updated_at = now() where d.business_id = _business_id;
    insert into private.business_erasure_proofs (business_id, what, rows_affected) values (_business_id, 'support tickets erased', v_rows);
    return 'tickets';
  end if;

  -- contact: the business's own email and phone; then the fiscal records wait out the retention period.
  update public.businesses b set email = null, phone = null where b.id = _business_id;
  v_years := private.retention_years(v_deletion.country);
  update private.business_deletions d
     set state = 'retained', step = null, erased_at = now(), retain_until = now() + make_interval(years => v_years), updated_at = now()
   where d.business_id = _business_id;
  insert into private.business_erasure_proofs (business_id, what, rows_affected)
  values (_business_id, format('personal data erased; fiscal records kept %s years', v_years), 1);
  return 'contact';
end;
$$;

-- begin_business_export held the business row FOR UPDATE while it counted every table, which blocked every insert
-- with a foreign key to businesses (sales, the trail) in that business for as long (review of 20261202110000).
-- One export at a time per business is now a transaction advisory lock on the business's export key (as
-- spend_email and admin_send_test_email do), which nothing else takes; the role is read once. Every other rule
-- is as before.
create or replace function public.begin_business_export(_business_id uuid)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_tables jsonb := '[]'::jsonb;
  v_total bigint := 0;
  v_rows bigint;
  v_id uuid;
  v_role text;
  t record;
begin
  if (select auth.uid()) is null then
    raise exception 'sign in first' using errcode = '42501';
  end if;
  v_role := private.my_role(_business_id);
  if v_role is null then
    raise exception 'no such business' using errcode = 'PT404';
  end if;
  if v_role <> 'owner' then
    raise exception 'permission denied: only the owner exports the business' using errcode = '42501';
  end if;
  perform private.assert_aal2_if_enrolled();
  -- A second request waits here until the first one's transaction ends, then sees its job as building.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('business_export:' || _business_id::text, 0));
  update private.business_exports e set state = 'failed', finished_at = now()
   where e.business_id = _business_id and e.state = 'building' and e.requested_at < now() - interval '1 hour';
  if exists (select 1 from private.business_exports e where e.business_id = _business_id and e.state = 'building') then
    raise exception 'an export of this business is being built: wait for it to finish' using errcode = 'P0001';
  end if;
  for t in select x.table_name from private.business_export_tables() x loop
    execute format('select count(*) from public.%I t where t.%I = $1', t.table_name,
                   case when t.table_name = 'businesses' then 'id' else 'business_id' end)
      into v_rows using _business_id;
    v_tables := v_tables || jsonb_build_array(jsonb_build_object('table', t.table_name, 'rows', v_rows));
    v_total := v_total + v_rows;
  end loop;
  insert into private.business_exports (business_id, requested_by, tables, rows_total)
  values (_business_id, (select auth.uid()), v_tables, v_total)
  returning id into v_id;
  perform private.log_activity(_business_id, null, 'business.exported', 'business', _business_id, null,
                               jsonb_build_object('export_id', v_id, 'rows', v_total));
  return v_id;
end;
$$;

create or replace function public.business_export_csv_rows(_export_id uuid, _file text, _after text default null,
                                                           _limit integer default 1000)
returns setof jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_key constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  v_pair constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  v_business uuid;
  v_first_store uuid;
  v_catalog_currency text;
begin
  if _limit is null or _limit not between 1 and 5000 then
    raise exception 'limit must be between 1 and 5000' using errcode = '22023';
  end if;
  select e.business_id into v_business from private.business_exports e where e.id = _export_id and e.state = 'building';
  if v_business is null then
    raise exception 'no export being built with this id' using errcode = 'PT404';
  end if;
  -- The key the previous page ended on, as each row carries it: a uuid, or the stock's store/variant pair.
  if _after is not null and not ((_file = 'stock' and _after ~ v_pair) or (_file <> 'stock' and _after ~ v_key)) then
    raise exception 'after is the key of the previous page''s last row' using errcode = '22023';
  end if;
  if _file = 'products' then
    select s.id into v_first_store from public.stores s
     where s.business_id = v_business and s.archived_at is null order by s.created_at, s.id limit 1;
    -- The import reads prices in the stores' one currency (two decimals when they differ), as the screens do.
    select case when count(distinct upper(s.currency)) = 1 then min(s.currency) end into v_catalog_currency
      from public.stores s where s.business_id = v_business and s.archived_at is null;
    return query
      select jsonb_build_object(
               'key', v.id::text, 'product_name', p.name, 'unit', p.unit, 'category', coalesce(c.name, ''),
               'brand', coalesce(p.brand, ''), 'option_name', concat_ws(' / ', p.option1_name, p.option2_name, p.option3_name),
               'option_value', concat_ws(' / ', v.option1, v.option2, v.option3), 'sku', v.sku, 'price', private.minor_to_plain(v.price, v_catalog_currency),
               'cost', coalesce(private.minor_to_plain(vc.cost, v_catalog_currency), ''),
               'barcode', coalesce((select b.code from public.barcodes b where b.variant_id = v.id order by b.created_at, b.code limit 1), ''),
               'opening_qty', coalesce((select nullif(greatest(sum(sb.qty), 0), 0)::text from public.stock_balances sb
                                         where sb.variant_id = v.id and sb.store_id = v_first_store), ''))
        from public.variants v
        join public.products p on p.id = v.product_id and p.archived_at is null
        left join public.categories c on c.id = p.category_id
        left join public.variant_costs vc on vc.variant_id = v.id
       where v.business_id = v_business and v.archived_at is null and (_after is null or v.id > _after::uuid)
       order by v.id
       limit _limit;
  elsif _file = 'stock' then
    return query
      select jsonb_build_object(
               'key', x.store_id::text || '/' || x.variant_id::text, 'store', s.name, 'sku', v.sku, 'product_name', p.name,
               'variant', concat_ws(' / ', v.option1, v.option2, v.option3), 'unit', p.unit, 'on_hand', x.qty,
               'reorder_point', coalesce(rp.reorder_point::text, ''), 'target_level', coalesce(rp.target_level::text, ''))
        from (select sb.store_id, sb.variant_id, sum(sb.qty) as qty from public.stock_balances sb
               where sb.business_id = v_business
                 and (_after is null or (sb.store_id, sb.variant_id)
                                         > (split_part(_after, '/', 1)::uuid, split_part(_after, '/', 2)::uuid))
               group by sb.store_id, sb.variant_id) x
        join public.stores s on s.id = x.store_id
        join public.variants v on v.id = x.variant_id
        join public.products p on p.id = v.product_id
        left join public.reorder_points rp on rp.store_id = x.store_id and rp.variant_id = x.variant_id
       order by x.store_id, x.variant_id
       limit _limit;
  elsif _file = 'sales' then
    return query
      select jsonb_build_object(
               'key', sa.id::text, 'receipt_number', sa.receipt_number, 'occurred_at', sa.occurred_at, 'store', st.name,
               'customer', coalesce(cu.name, ''), 'currency', sa.currency, 'subtotal', private.minor_to_plain(sa.subtotal, sa.currency),
               'discount_total', private.minor_to_plain(sa.discount_total, sa.currency), 'tax_total', private.minor_to_plain(sa.tax_total, sa.currency), 'cash_rounding', private.minor_to_plain(sa.cash_rounding, sa.currency),
               'total', private.minor_to_plain(sa.total, sa.currency), 'tendered_total', private.minor_to_plain(sa.tendered_total, sa.currency), 'change_total', private.minor_to_plain(sa.change_total, sa.currency))
        from public.sales sa
        join public.stores st on st.id = sa.store_id
        left join public.customers cu on cu.id = sa.customer_id
       where sa.business_id = v_business and (_after is null or sa.id > _after::uuid)
       order by sa.id
       limit _limit;
  elsif _file = 'customers' then
    return query
      select jsonb_build_object('key', cu.id::text, 'name', cu.name, 'email', coalesce(cu.email::text, ''),
                                'phone', coalesce(cu.phone::text, ''))
        from public.customers cu
       where cu.business_id = v_business and (_after is null or cu.id > _after::uuid)
       order by cu.id
       limit _limit;
  else
    raise exception 'the export''s CSV files are products, stock, sales and customers' using errcode = '22023';
  end if;
end;
$$;
