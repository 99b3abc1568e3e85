-- Issue 26: an owner deletes the business, and a shop erases one of its customers (docs/adr/0220).
-- A deletion waits 30 days (pending: a banner and a way to cancel), then the business-deletion Edge Function cancels
-- the subscription at the payment provider and runs the erasure steps below one transaction at a time: customers
-- (in batches, each customer erased whole with its trail entries), staff (memberships, invitations, names in the
-- trail), tickets, the business's contact details. Fiscal records (sales, refunds, tenders, taxes, Z reports,
-- invoices) stay, the business suspended, until the retention period of its country has passed; then
-- private.purge_expired_retention() (pg_cron daily on hosted, the local stack's periodic task here) deletes the
-- business, which cascades to everything left. Every step writes the proof log; an admin can hold a deletion.

-- ==== Country and retention =================================================================================

alter table public.businesses add column country text;
alter table public.businesses add constraint businesses_country_check check (country is null or country ~ '^[A-Z]{2}$');
comment on column public.businesses.country is 'ISO 3166-1 alpha-2 country of the business; sets how long fiscal records are kept after a deletion (private.retention_years, 10 years when unknown).';
grant update (country) on table public.businesses to authenticated;

-- Years fiscal records are kept after a business is deleted, by country; 10 when the country is unknown or not
-- listed, the longest common period (GDPR Art. 17(3)(b): a legal obligation to keep them; Art. 5(1)(e): erased
-- after). A function rather than a table: the periods are law, changed by a migration, not by anyone at run time.
create or replace function private.retention_years(_country text)
returns integer
language sql
immutable
set search_path = ''
as $$
  select case _country
    when 'DE' then 10  -- AO 147, HGB 257: books, invoices and vouchers
    when 'FR' then 10  -- Code de commerce L123-22: accounting documents
    when 'GB' then 6   -- HMRC: VAT and business records
    when 'NL' then 7   -- Algemene wet inzake rijksbelastingen 52
    when 'US' then 7   -- IRS: covers every assessment period
    else 10 end;
$$;
revoke all on function private.retention_years(text) from public;

-- ==== The deletion queue and its proof log ==================================================================

create table private.business_deletions (
  business_id uuid not null,
  business_name text not null,
  country text,
  requested_by uuid not null,
  requested_at timestamp with time zone default now() not null,
  erase_after timestamp with time zone not null,
  state text default 'pending'::text not null,
  step text,
  canceled_at timestamp with time zone,
  legal_hold boolean default false not null,
  legal_hold_reason text,
  subscription_canceled_at timestamp with time zone,
  erased_at timestamp with time zone,
  retain_until timestamp with time zone,
  purged_at timestamp with time zone,
  updated_at timestamp with time zone default now() not null,
  constraint business_deletions_pkey primary key (business_id),
  constraint business_deletions_state_check check (state = any (array['pending'::text, 'canceled'::text, 'erasing'::text, 'retained'::text, 'purged'::text])),
  constraint business_deletions_step_check check (step is null or step = any (array['begin'::text, 'customers'::text, 'staff'::text, 'tickets'::text, 'contact'::text])),
  constraint business_deletions_legal_hold_reason_check check (legal_hold_reason is null or char_length(legal_hold_reason) between 3 and 500),
  constraint business_deletions_retained_check check (state <> 'retained' or (erased_at is not null and retain_until is not null))
);
alter table private.business_deletions enable row level security;
comment on table private.business_deletions is 'Businesses their owners asked to delete: pending 30 days, then erasing, retained (fiscal records only) and purged. No foreign key to the business: the row and its proofs outlive it. Read and written only by the deletion functions.';
comment on column private.business_deletions.requested_by is 'The owner who asked; kept with the proof log (who asked for the erasure is part of the proof).';
create index business_deletions_due_idx on private.business_deletions (state, erase_after);

-- What was erased when: one row per step (per batch for customers). Kept after the business is purged.
create table private.business_erasure_proofs (
  id bigint generated always as identity not null,
  business_id uuid not null,
  what text not null,
  rows_affected integer not null,
  at timestamp with time zone default now() not null,
  constraint business_erasure_proofs_pkey primary key (id),
  constraint business_erasure_proofs_rows_check check (rows_affected >= 0),
  constraint business_erasure_proofs_what_check check (char_length(what) between 1 and 200)
);
alter table private.business_erasure_proofs enable row level security;
comment on table private.business_erasure_proofs is 'Proof log of a business deletion: what was erased (or canceled, held, purged) and when, with row counts only, never the data.';
create index business_erasure_proofs_business_idx on private.business_erasure_proofs (business_id, at);

-- ==== Customers: erased, and their trail entries redacted ===================================================

alter table public.customers add column erased_at timestamp with time zone;
comment on column public.customers.erased_at is 'When the customer''s name, email and phone were erased (the row stays, anonymous, so receipts stay whole).';

-- The trail is append-only. The one exception is a redaction: an erasure function sets storewise.trail_redaction
-- for its transaction and may then change what an entry says about a person (before, after, the actor's label and
-- email), never who, what or when. API roles cannot set the setting (no SQL), and only definer functions set it.
create or replace function private.activity_is_append_only()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' and not exists (select 1 from public.businesses b where b.id = old.business_id) then
    return old;
  end if;
  if tg_op = 'UPDATE' and coalesce(current_setting('storewise.trail_redaction', true), '') = 'on'
     and new.id = old.id and new.business_id = old.business_id and new.store_id is not distinct from old.store_id
     and new.actor_id is not distinct from old.actor_id and new.kind = old.kind and new.entity_type = old.entity_type
     and new.entity_id is not distinct from old.entity_id and new.at = old.at then
    return new;
  end if;
  raise exception 'the activity trail is append-only' using errcode = '42501';
end;
$$;
revoke all on function private.activity_is_append_only() from public;

-- What a redacted entry keeps of a row: everything but the person's name and contact details.
create or replace function private.redact_person_fields(_row jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case when _row is null then null
              else (_row - array['name', 'email', 'phone', 'full_name']) || jsonb_build_object('redacted', true) end;
$$;
revoke all on function private.redact_person_fields(jsonb) from public;

-- Erases the given customers of one business in the caller's transaction: name "Anonymous customer", email and
-- phone gone, erased_at set, and every trail entry about them redacted (including the one the audit trigger has
-- just written for this update). Already erased customers are skipped. Returns how many were erased.
create or replace function private.erase_customers(_business_id uuid, _ids uuid[])
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_erased uuid[];
begin
  with done as (
    update public.customers c
       set name = 'Anonymous customer', email = null, phone = null, erased_at = now()
     where c.business_id = _business_id and c.id = any(_ids) and c.erased_at is null
    returning c.id
  )
  select coalesce(array_agg(d.id), '{}') into v_erased from done d;
  if cardinality(v_erased) > 0 then
    perform set_config('storewise.trail_redaction', 'on', true);
    update public.activity a
       set before = private.redact_person_fields(a.before), after = private.redact_person_fields(a.after)
     where a.business_id = _business_id and a.entity_type = 'customer' and a.entity_id = any(v_erased);
    perform set_config('storewise.trail_redaction', 'off', true);
  end if;
  return cardinality(v_erased);
end;
$$;
revoke all on function private.erase_customers(uuid, uuid[]) from public;

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
    raise exception 'no such customer' using errcode = 'P0002';
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
revoke all on function public.erase_customer(uuid) from public;
grant execute on function public.erase_customer(uuid) to authenticated;

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
    raise exception 'no such customer' using errcode = 'P0002';
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
revoke all on function public.export_customer(uuid) from public;
grant execute on function public.export_customer(uuid) to authenticated;

-- ==== The owner asks, cancels, and everyone in the business sees the banner ================================

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
    raise exception 'no such business' using errcode = 'P0002';
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
revoke all on function public.request_business_deletion(uuid, text) from public;
grant execute on function public.request_business_deletion(uuid, text) to authenticated;

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
    raise exception 'no such business' using errcode = 'P0002';
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
revoke all on function public.cancel_business_deletion(uuid) from public;
grant execute on function public.cancel_business_deletion(uuid) to authenticated;

-- The banner: a pending deletion of a business the caller belongs to (null when there is none).
create or replace function public.business_deletion_status(_business_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('state', d.state, 'requested_at', d.requested_at, 'erase_after', d.erase_after)
    from private.business_deletions d
   where d.business_id = _business_id and d.state in ('pending', 'erasing')
     and private.my_role(_business_id) is not null;
$$;
revoke all on function public.business_deletion_status(uuid) from public;
grant execute on function public.business_deletion_status(uuid) to authenticated;

-- ==== The erasure, step by step (service role: the business-deletion Edge Function) =========================

-- Deletions to work on now: due and not held, or begun and not finished.
create or replace function public.business_deletions_due()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select d.business_id from private.business_deletions d
   where not d.legal_hold
     and ((d.state = 'pending' and d.erase_after <= now()) or d.state = 'erasing')
   order by d.erase_after;
$$;
revoke all on function public.business_deletions_due() from public;
grant execute on function public.business_deletions_due() to service_role;

-- The provider subscriptions to cancel before the erasure (the live ones).
create or replace function public.business_deletion_subscriptions(_business_id uuid)
returns setof text
language sql
stable
security definer
set search_path = ''
as $$
  select s.id from public.billing_subscriptions s
   where s.business_id = _business_id and s.status in ('trialing', 'active', 'past_due', 'unpaid', 'incomplete', 'paused');
$$;
revoke all on function public.business_deletion_subscriptions(uuid) from public;
grant execute on function public.business_deletion_subscriptions(uuid) to service_role;

-- The function records what it did outside the database (the provider's cancellation, uploads removed).
create or replace function public.business_deletion_record(_business_id uuid, _what text, _rows integer)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if _what not in ('subscription canceled at the provider', 'uploads removed') then
    raise exception 'unknown erasure record' using errcode = '22023';
  end if;
  if not exists (select 1 from private.business_deletions d where d.business_id = _business_id and d.state in ('pending', 'erasing')) then
    raise exception 'no deletion under way' using errcode = 'P0002';
  end if;
  if _what = 'subscription canceled at the provider' then
    update private.business_deletions d set subscription_canceled_at = coalesce(d.subscription_canceled_at, now()), updated_at = now()
     where d.business_id = _business_id;
  end if;
  insert into private.business_erasure_proofs (business_id, what, rows_affected) values (_business_id, _what, greatest(_rows, 0));
end;
$$;
revoke all on function public.business_deletion_record(uuid, text, integer) from public;
grant execute on function public.business_deletion_record(uuid, text, integer) to service_role;

-- One step of the erasure in one transaction (the call's): returns the step it did, or 'done'. A process killed
-- during a call loses only that call's transaction; calling again redoes it. Customers go in batches of _batch,
-- each customer whole (its row and its trail entries in the same transaction).
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
    raise exception 'no deletion of this business' using errcode = 'P0002';
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
    update private.business_deletions d set step = 'tickets', updated_at = now() where d.business_id = _business_id;
    insert into private.business_erasure_proofs (business_id, what, rows_affected) values (_business_id, 'staff memberships, invitations and names erased', v_rows);
    return 'staff';
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
revoke all on function public.business_erasure_step(uuid, integer) from public;
grant execute on function public.business_erasure_step(uuid, integer) to service_role;

-- The scheduled job: deletes the businesses whose retention period has passed (not on legal hold). Deleting the
-- business cascades to its fiscal records; the append-only trail and ledger allow exactly that cascade. Returns
-- how many were purged. Hosted: pg_cron runs it daily (private.schedule_retention_purge); locally the stack's
-- periodic task calls it.
create or replace function private.purge_expired_retention()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_deletion record;
  v_purged integer := 0;
  v_sales integer;
begin
  for v_deletion in
    select d.business_id from private.business_deletions d
     where d.state = 'retained' and d.retain_until <= now() and not d.legal_hold
     order by d.retain_until
     for update skip locked
  loop
    select count(*) into v_sales from public.sales s where s.business_id = v_deletion.business_id;
    delete from public.businesses b where b.id = v_deletion.business_id;
    update private.business_deletions d set state = 'purged', purged_at = now(), updated_at = now()
     where d.business_id = v_deletion.business_id;
    insert into private.business_erasure_proofs (business_id, what, rows_affected)
    values (v_deletion.business_id, 'retention ended: business and fiscal records (sales counted) purged', v_sales);
    v_purged := v_purged + 1;
  end loop;
  return v_purged;
end;
$$;
revoke all on function private.purge_expired_retention() from public;

-- Schedules the purge daily with pg_cron where the server offers it (hosted); a notice elsewhere. Idempotent.
create or replace function private.schedule_retention_purge()
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_cron text := 'cron';
begin
  if not exists (select 1 from pg_catalog.pg_available_extensions e where e.name = 'pg_cron') then
    return 'pg_cron is not available here: the local stack runs private.purge_expired_retention() itself';
  end if;
  begin
    create extension if not exists pg_cron with schema pg_catalog;
    execute format('select %I.schedule(''storewise-retention-purge'', ''17 3 * * *'', ''select private.purge_expired_retention()'')', v_cron);
  exception when others then
    return 'could not schedule the retention purge: ' || sqlerrm;
  end;
  return 'scheduled storewise-retention-purge daily at 03:17';
end;
$$;
revoke all on function private.schedule_retention_purge() from public;

-- ==== Admin: the queue, the legal hold, the proof log =======================================================

create or replace function public.admin_business_deletions()
returns table (business_id uuid, business_name text, country text, state text, step text, requested_at timestamp with time zone,
               erase_after timestamp with time zone, legal_hold boolean, legal_hold_reason text,
               erased_at timestamp with time zone, retain_until timestamp with time zone, purged_at timestamp with time zone)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  return query
    select d.business_id, d.business_name, d.country, d.state, d.step, d.requested_at, d.erase_after, d.legal_hold,
           d.legal_hold_reason, d.erased_at, d.retain_until, d.purged_at
      from private.business_deletions d
     where d.state <> 'canceled'
     order by d.requested_at desc
     limit 500;
end;
$$;
revoke all on function public.admin_business_deletions() from public;
grant execute on function public.admin_business_deletions() to authenticated;

create or replace function public.admin_business_erasure_proofs(_business_id uuid)
returns table (what text, rows_affected integer, at timestamp with time zone)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  return query select p.what, p.rows_affected, p.at from private.business_erasure_proofs p
                where p.business_id = _business_id order by p.at, p.id;
end;
$$;
revoke all on function public.admin_business_erasure_proofs(uuid) from public;
grant execute on function public.admin_business_erasure_proofs(uuid) to authenticated;

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
    raise exception 'no deletion of this business' using errcode = 'P0002';
  end if;
  insert into private.business_erasure_proofs (business_id, what, rows_affected)
  values (_business_id, case when _hold then 'legal hold placed' else 'legal hold lifted' end, 0);
end;
$$;
revoke all on function public.admin_set_legal_hold(uuid, boolean, text) from public;
grant execute on function public.admin_set_legal_hold(uuid, boolean, text) to authenticated;

do $$
begin
  raise notice 'retention purge: %', private.schedule_retention_purge();
end;
$$;
