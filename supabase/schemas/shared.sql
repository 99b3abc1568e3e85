-- Shared: the private schema, the extensions, the domains every area's columns use (names, emails, money
-- codes, tax rates), set_updated_at, and the email outbox the database queues mail in (support replies,
-- purchase orders, receipts), which the send-email Edge Function drains (docs/adr/0121).
-- Invariants: an outbox row is claimed by one sender at a time and is never lost: a failed send keeps its
-- last_error and is retried with backoff.
--
-- Written by scripts/schema-extract.ts from the migrations and kept equal to them by
-- tests/hosted/schema-files.test.ts: change an object here, then generate its migration (README, Contributing).

-- Function bodies are checked when they run, not when created: the files need no order among functions.
set check_function_bodies = off;

-- ==== Schemas, extensions, domains and sequences ==========================================================

-- Private schema: not exposed through the data API; holds the admin roles and the admin totals.
create schema if not exists private;

create extension if not exists pg_trgm with schema extensions;

grant usage on schema private to authenticated;
grant usage on schema private to service_role;

-- ---------------------------------------------------------------------------------------------------
-- Value rules shared by several tables, as domains (one definition, one test: tests/db/workspace-constraints).
create domain public.business_type as text
  check (value in ('Grocery', 'Clothing', 'Medical', 'Electronics', 'Others'));

create domain public.member_role as text check (value in ('owner', 'manager', 'cashier'));

create domain public.entity_name as text check (char_length(btrim(value)) between 2 and 100);

create domain public.email_address as text
  check (char_length(value) <= 255 and value ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$');

create domain public.phone_number as text check (char_length(btrim(value)) between 10 and 20);

create domain public.short_text as text check (char_length(value) <= 500);

-- Active ISO 4217 codes (as Intl.supportedValuesOf('currency') lists them), so a typo cannot become a currency.
create domain public.currency_code as text check (value in (
  'AED', 'AFN', 'ALL', 'AMD', 'ANG', 'AOA', 'ARS', 'AUD', 'AWG', 'AZN', 'BAM', 'BBD', 'BDT', 'BGN', 'BHD',
  'BIF', 'BMD', 'BND', 'BOB', 'BRL', 'BSD', 'BTN', 'BWP', 'BYN', 'BZD', 'CAD', 'CDF', 'CHF', 'CLP', 'CNY',
  'COP', 'CRC', 'CUC', 'CUP', 'CVE', 'CZK', 'DJF', 'DKK', 'DOP', 'DZD', 'EGP', 'ERN', 'ETB', 'EUR', 'FJD',
  'FKP', 'GBP', 'GEL', 'GHS', 'GIP', 'GMD', 'GNF', 'GTQ', 'GYD', 'HKD', 'HNL', 'HRK', 'HTG', 'HUF', 'IDR',
  'ILS', 'INR', 'IQD', 'IRR', 'ISK', 'JMD', 'JOD', 'JPY', 'KES', 'KGS', 'KHR', 'KMF', 'KPW', 'KRW', 'KWD',
  'KYD', 'KZT', 'LAK', 'LBP', 'LKR', 'LRD', 'LSL', 'LYD', 'MAD', 'MDL', 'MGA', 'MKD', 'MMK', 'MNT', 'MOP',
  'MRU', 'MUR', 'MVR', 'MWK', 'MXN', 'MYR', 'MZN', 'NAD', 'NGN', 'NIO', 'NOK', 'NPR', 'NZD', 'OMR', 'PAB',
  'PEN', 'PGK', 'PHP', 'PKR', 'PLN', 'PYG', 'QAR', 'RON', 'RSD', 'RUB', 'RWF', 'SAR', 'SBD', 'SCR', 'SDG',
  'SEK', 'SGD', 'SHP', 'SLE', 'SLL', 'SOS', 'SRD', 'SSP', 'STN', 'SVC', 'SYP', 'SZL', 'THB', 'TJS', 'TMT',
  'TND', 'TOP', 'TRY', 'TTD', 'TWD', 'TZS', 'UAH', 'UGX', 'USD', 'UYU', 'UZS', 'VES', 'VND', 'VUV', 'WST',
  'XAF', 'XCD', 'XCG', 'XOF', 'XPF', 'YER', 'ZAR', 'ZMW', 'ZWG', 'ZWL'));

-- Percent with up to three decimals (7.5, 20, 8.875).
create domain public.tax_rate as numeric(6, 3) check (value >= 0 and value <= 100);

create domain public.receipt_prefix as text check (value ~ '^[A-Z0-9]{1,8}$');

create sequence private.pos_catalog_rev;

-- ==== Functions the tables below call in defaults, checks or indexes ======================================

-- The FAQ entries: an array of {question, answer}, each non-empty and bounded (the table check bounds the whole).
create or replace function private.valid_faq(_faq jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select jsonb_typeof(_faq) = 'array'
     and not exists (
       select 1 from jsonb_array_elements(_faq) e
        where jsonb_typeof(e) <> 'object'
           or (select count(*) from jsonb_object_keys(e)) <> 2
           or jsonb_typeof(e -> 'question') <> 'string' or jsonb_typeof(e -> 'answer') <> 'string'
           or char_length(btrim(e ->> 'question')) not between 1 and 200
           or char_length(btrim(e ->> 'answer')) not between 1 and 2000);
$$;
revoke all on function private.valid_faq(jsonb) from public;

-- ==== Tables: columns, constraints, row level security, grants and comments ===============================

create table public.refund_reviews (
  refund_id uuid not null,
  business_id uuid not null,
  store_id uuid not null,
  note text not null,
  reviewed_by uuid,
  reviewed_at timestamp with time zone default now() not null,
  constraint refund_reviews_pkey primary key (refund_id),
  constraint refund_reviews_note_check check (((char_length(btrim(note)) >= 1) and (char_length(btrim(note)) <= 500))),
  constraint refund_reviews_reviewed_by_fkey foreign key (reviewed_by) references auth.users(id) on delete set null
);
alter table public.refund_reviews enable row level security;
comment on table public.refund_reviews is 'One review per flagged refund. Owners and managers of the store read; written only by public.review_refund.';
grant select on table public.refund_reviews to authenticated;
grant select on table public.refund_reviews to service_role;

create table private.billing_signature_failures (
  day date not null,
  failures integer default 0 not null,
  last_at timestamp with time zone default now() not null,
  constraint billing_signature_failures_pkey primary key (day)
);
alter table private.billing_signature_failures enable row level security;
comment on table private.billing_signature_failures is 'Signature failures of billing-webhook per day; no policies: only security definer functions read and write it.';

create table private.pos_catalog_packs (
  business_id uuid not null,
  bits integer not null,
  packed_at timestamp with time zone default now() not null,
  constraint pos_catalog_packs_pkey primary key (business_id),
  constraint pos_catalog_packs_bits_check check (((bits >= 0) and (bits <= 12)))
);
alter table private.pos_catalog_packs enable row level security;
comment on table private.pos_catalog_packs is 'How a business''s register catalog is cut into blocks (ADR 0445). No API access: the pos_catalog_block* functions read and write it as their owner.';

create table private.pos_catalog_blocks (
  business_id uuid not null,
  n integer not null,
  body_rev bigint not null,
  price_rev bigint not null,
  body_stale boolean default true not null,
  price_stale boolean default true not null,
  items integer default 0 not null,
  body json,
  prices json,
  built_at timestamp with time zone,
  constraint pos_catalog_blocks_pkey primary key (business_id, n),
  constraint pos_catalog_blocks_n_check check ((n >= 0)),
  constraint pos_catalog_blocks_business_id_fkey foreign key (business_id) references private.pos_catalog_packs(business_id) on delete cascade
);
alter table private.pos_catalog_blocks enable row level security;
comment on table private.pos_catalog_blocks is 'The register''s catalog per business, pre-serialised in blocks by id range (ADR 0445); a cache of variants, products and barcodes. No API access: triggers mark blocks stale, the pos_catalog_block* functions rebuild and read them as their owner.';

create table public.email_outbox (
  id bigint generated always as identity not null,
  to_email text not null,
  template text not null,
  params jsonb default '{}'::jsonb not null,
  created_at timestamp with time zone default now() not null,
  attempts integer default 0 not null,
  next_attempt_at timestamp with time zone default now() not null,
  claimed_until timestamp with time zone,
  last_error text,
  sent_at timestamp with time zone,
  constraint email_outbox_pkey primary key (id),
  constraint email_outbox_template_check check ((template = any (array['ticket_reply'::text, 'ticket_resolved'::text, 'purchase_order'::text, 'receipt'::text, 'billing_payment_failed'::text, 'test_email'::text])))
);
alter table public.email_outbox enable row level security;
comment on table public.email_outbox is 'Emails the database asks to send. Only the service role reads them, through claim_email_outbox and finish_email_outbox (the local outbox relay; on hosted the send-email Edge Function, docs/adr/0121). A failed or unknown-template row stays and is retried with backoff; sent rows are purged after 7 days.';
comment on column public.email_outbox.claimed_until is 'A deliverer''s lease: no other run claims the row before then (a crashed run''s rows come back after it).';
grant delete, insert, select on table public.email_outbox to service_role;

create table private.email_sends (
  id bigint generated always as identity not null,
  business_id uuid not null,
  user_id uuid,
  kind text not null,
  at timestamp with time zone default now() not null,
  constraint email_sends_pkey primary key (id),
  constraint email_sends_kind_check check ((kind = any (array['purchase_order'::text, 'receipt'::text, 'invitation'::text])))
);
alter table private.email_sends enable row level security;
comment on table private.email_sends is 'Emails members had the platform send, counted per business and per account over the last hour by private.spend_email. No API role reads or writes it; rows older than a day are removed as the account sends.';

-- ==== Indexes =============================================================================================

create index email_outbox_due_idx on public.email_outbox (next_attempt_at, id) where sent_at is null;

create index email_outbox_sent_idx on public.email_outbox (sent_at) where sent_at is not null;

create index refund_reviews_business_reviewed_idx on public.refund_reviews (business_id, reviewed_at desc);

create index refund_reviews_refund_business_idx on public.refund_reviews (refund_id, business_id);

create index refund_reviews_reviewed_by_idx on public.refund_reviews (reviewed_by);

create index email_sends_business_at_idx on private.email_sends (business_id, at);

create index email_sends_user_at_idx on private.email_sends (user_id, at);

-- ==== Functions ===========================================================================================

-- ---------------------------------------------------------------------------------------------------
-- Shared trigger function: keep updated_at honest whatever the client sends.
create or replace function public.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;
revoke all on function public.set_updated_at() from public;

-- Claims up to _limit due rows for _lease_seconds; each claim counts as an attempt.
create or replace function public.claim_email_outbox(_limit integer default 20, _lease_seconds integer default 120)
returns table (id bigint, to_email text, template text, params jsonb, attempts integer)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  -- Sent rows keep an address: they go after a week (long enough to answer "did it go out?").
  delete from public.email_outbox o where o.sent_at < now() - interval '7 days';
  return query
    with due as (
      select o.id
        from public.email_outbox o
       where o.sent_at is null
         and o.next_attempt_at <= clock_timestamp()
         and (o.claimed_until is null or o.claimed_until <= clock_timestamp())
       order by o.next_attempt_at, o.id
       limit least(greatest(coalesce(_limit, 20), 1), 100)
         for update of o skip locked
    )
    update public.email_outbox o
       set claimed_until = clock_timestamp()
                           + make_interval(secs => least(greatest(coalesce(_lease_seconds, 120), 10), 3600)),
           attempts = o.attempts + 1
      from due
     where o.id = due.id
    returning o.id, o.to_email, o.template, o.params, o.attempts;
end;
$$;
comment on function public.claim_email_outbox(integer,integer) is 'Service role only: claims up to _limit (1..100) due outbox rows for a lease; rows locked or leased by another run are skipped, so two deliverers never send the same row.';
revoke all on function public.claim_email_outbox(integer,integer) from public;
grant execute on function public.claim_email_outbox(integer,integer) to service_role;

-- Reports one claimed row: _error null means sent. Returns false when the row is not claimed any more.
create or replace function public.finish_email_outbox(_id bigint, _error text default null)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.email_outbox o
     set sent_at = case when _error is null then clock_timestamp() end,
         claimed_until = null,
         last_error = case when _error is null then null else left(_error, 500) end,
         next_attempt_at = case when _error is null then o.next_attempt_at
                                else clock_timestamp() + least(interval '30 seconds' * power(2, least(o.attempts - 1, 20)),
                                                               interval '1 hour') end
   where o.id = _id and o.sent_at is null;
  return found;
end;
$$;
comment on function public.finish_email_outbox(bigint,text) is 'Service role only: marks a claimed outbox row sent (_error null) or failed: the row stays, with the error (no address in it), and is retried after 30 s doubling per attempt, at most an hour.';
revoke all on function public.finish_email_outbox(bigint,text) from public;
grant execute on function public.finish_email_outbox(bigint,text) to service_role;

-- ---------------------------------------------------------------------------------------------------
-- Hosted: pg_cron calls the send-email Edge Function every minute while rows are due. The function's URL and
-- the token it expects come from Supabase Vault (secrets storewise_project_url, storewise_outbox_sender_token;
-- README, hosted deploy), never from the repository. Dynamic SQL: net and vault do not exist locally, and the
-- function must still compile there (and pass plpgsql_check in the hosted check).
create or replace function private.kick_email_outbox_sender()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_url text;
  v_token text;
  v_vault text := 'vault';
  v_net text := 'net';
begin
  if not exists (select 1 from public.email_outbox o
                  where o.sent_at is null and o.next_attempt_at <= now()
                    and (o.claimed_until is null or o.claimed_until <= now())) then
    return;
  end if;
  if to_regnamespace('net') is null or to_regclass('vault.decrypted_secrets') is null then
    return;
  end if;
  -- The schema name goes in through format(): plpgsql_check (supabase db lint) checks constant dynamic SQL and
  -- would report vault missing wherever it is not installed.
  execute format('select (select decrypted_secret from %1$I.decrypted_secrets where name = ''storewise_project_url''),
                  (select decrypted_secret from %1$I.decrypted_secrets where name = ''storewise_outbox_sender_token'')',
                 v_vault)
     into v_url, v_token;
  if v_url is null or v_token is null then
    raise warning 'email outbox: set the vault secrets storewise_project_url and storewise_outbox_sender_token';
    return;
  end if;
  execute format('select %I.http_post(url := $1, body := ''{}''::jsonb, headers := $2, timeout_milliseconds := 55000)',
                 v_net)
    using rtrim(v_url, '/') || '/functions/v1/send-email',
          jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || v_token);
end;
$$;
revoke all on function private.kick_email_outbox_sender() from public;

-- Enables pg_cron and pg_net where the server offers them and schedules the kick; a notice elsewhere. Idempotent:
-- the README's hosted steps run it again after enabling the extensions by hand, should this migration have
-- been pushed before they were available.
create or replace function private.schedule_email_outbox_sender()
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_cron text := 'cron';
begin
  if not exists (select 1 from pg_catalog.pg_available_extensions e where e.name = 'pg_cron')
     or not exists (select 1 from pg_catalog.pg_available_extensions e where e.name = 'pg_net') then
    return 'pg_cron or pg_net is not available here: deliver the outbox another way (the local stack relays it)';
  end if;
  begin
    create extension if not exists pg_net with schema extensions;
    create extension if not exists pg_cron with schema pg_catalog;
    -- Through format() for the same reason as the vault read above (cron exists only once pg_cron does).
    execute format('select %I.schedule(''storewise-email-outbox'', ''* * * * *'', ''select private.kick_email_outbox_sender()'')',
                   v_cron);
  exception when others then
    -- e.g. pg_cron installed but not preloaded: the migration must still apply.
    return 'could not schedule the email outbox sender: ' || sqlerrm;
  end;
  return 'scheduled storewise-email-outbox every minute';
end;
$$;
revoke all on function private.schedule_email_outbox_sender() from public;

-- Managers change their stores' settings, but not how much their cashiers may pay back without them: owners only.
create or replace function private.stores_refund_limit_guard()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (select auth.uid()) is not null and private.my_role(new.business_id) is distinct from 'owner' then
    raise exception 'permission denied: only the owner changes the refund limit without a manager' using errcode = '42501';
  end if;
  return new;
end;
$$;
revoke all on function private.stores_refund_limit_guard() from public;

-- ---------------------------------------------------------------------------------------------------
-- Who reads what was rung: owners and managers in their stores; a cashier their own shifts and what was rung in
-- them (their own sales without a shift too).
create or replace function private.my_shift_ids()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select s.id from public.shifts s
   where s.cashier_id = (select auth.uid()) and s.business_id in (select private.my_business_ids());
$$;
comment on function private.my_shift_ids() is 'The caller''s own shifts in the businesses they belong to (RLS helper).';
revoke all on function private.my_shift_ids() from public;
grant execute on function private.my_shift_ids() to authenticated;

create or replace function private.my_rung_sale_ids()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select x.id from public.sales x
   where x.shift_id in (select private.my_shift_ids())
  union
  select x.id from public.sales x
   where x.cashier_id = (select auth.uid()) and x.business_id in (select private.my_business_ids());
$$;
comment on function private.my_rung_sale_ids() is 'Sales rung in the caller''s own shifts, or by the caller (RLS helper for a cashier''s reads).';
revoke all on function private.my_rung_sale_ids() from public;
grant execute on function private.my_rung_sale_ids() to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Reviews by a second person: a manager does not clear a flag about their own sale, refund or shift (the owner,
-- who has nobody above, may).
create or replace function private.assert_second_reviewer(_business_id uuid, _subject uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if _subject = (select auth.uid()) and private.my_role(_business_id) <> 'owner' then
    raise exception 'permission denied: another manager or the owner reviews what you rang yourself' using errcode = '42501';
  end if;
end;
$$;
revoke all on function private.assert_second_reviewer(uuid,uuid) from public;

-- The flagged refunds of a business (optionally one store), newest first, with the sale each refunds: beside
-- flagged_sales in the manager's review list. Security invoker: RLS limits a manager to their stores.
create or replace function public.flagged_refunds(_business_id uuid, _store_id uuid default null,
                                                  _include_reviewed boolean default false,
                                                  _limit integer default 50, _offset integer default 0)
returns table (refund_id uuid, store_id uuid, store_name text, sale_id uuid, sale_receipt_number text,
               sale_total bigint, sale_review_reasons text[], actor_name text, occurred_at timestamptz,
               recorded_at timestamptz, total bigint, tender_kind text, currency text, offline boolean,
               review_reasons text[], reason text, reviewed_at timestamptz, reviewer_name text, note text,
               total_count bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if _limit is null or _limit < 1 or _limit > 200 or _offset is null or _offset < 0 then
    raise exception 'ask for 1 to 200 refunds from offset 0 or more' using errcode = '22023';
  end if;
  return query
    select f.id, f.store_id, st.name::text, s.id, s.receipt_number, s.total, s.review_reasons, n.name, f.occurred_at,
           f.recorded_at, f.total, f.tender_kind, s.currency::text, f.offline, f.review_reasons, f.reason::text,
           r.reviewed_at, rn.name, r.note, count(*) over ()
      from public.refunds f
      join public.sales s on s.id = f.sale_id
      join public.stores st on st.id = f.store_id
      left join public.refund_reviews r on r.refund_id = f.id
      left join private.member_names(_business_id) n on n.user_id = f.actor_id
      left join private.member_names(_business_id) rn on rn.user_id = r.reviewed_by
     where f.business_id = _business_id
       and f.flagged_for_review
       and (_store_id is null or f.store_id = _store_id)
       and (_include_reviewed or r.refund_id is null)
     order by f.occurred_at desc, f.id
     limit _limit offset _offset;
end;
$$;
comment on function public.flagged_refunds(uuid,uuid,boolean,integer,integer) is 'Refunds flagged for review (no approval, offline terms, after close), with the sale each refunds (ADR 0171).';
revoke all on function public.flagged_refunds(uuid,uuid,boolean,integer,integer) from public;
grant execute on function public.flagged_refunds(uuid,uuid,boolean,integer,integer) to authenticated;

create or replace function public.review_refund(_refund_id uuid, _note text)
returns public.refund_reviews
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_refund public.refunds;
  v_business uuid;
  v_row public.refund_reviews;
begin
  select f.* into v_refund from public.refunds f where f.id = _refund_id;
  if v_refund.id is null then
    raise exception 'no such refund' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_refund.store_id, array['owner', 'manager']);
  perform private.assert_second_reviewer(v_business, v_refund.actor_id);
  if not v_refund.flagged_for_review then
    raise exception 'this refund is not flagged for review' using errcode = '22023';
  elsif _note is null or char_length(btrim(_note)) not between 1 and 500 then
    raise exception 'write what you found (1 to 500 characters)' using errcode = '22023';
  end if;
  insert into public.refund_reviews (refund_id, business_id, store_id, note, reviewed_by)
  values (v_refund.id, v_business, v_refund.store_id, btrim(_note), (select auth.uid()))
  on conflict (refund_id) do nothing
  returning * into v_row;
  if v_row.refund_id is null then
    raise exception 'this refund was already reviewed' using errcode = '23505';
  end if;
  perform private.log_activity(v_business, v_refund.store_id, 'refund.reviewed', 'refund', v_refund.id, null,
    jsonb_build_object('sale_id', v_refund.sale_id, 'total', v_refund.total,
                       'review_reasons', to_jsonb(v_refund.review_reasons)));
  return v_row;
end;
$$;
revoke all on function public.review_refund(uuid,text) from public;
grant execute on function public.review_refund(uuid,text) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- A receipt for a refund at the counter: any member of the store finds a sale of the store by its receipt number
-- (the customer hands it over), with its tenders and what is left of each line. Nothing else of the store's sales
-- is readable to a cashier.
create or replace function public.find_sale_for_refund(_store_id uuid, _receipt_number text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid;
  v_sale public.sales;
begin
  v_business := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
  if _receipt_number is null or char_length(btrim(_receipt_number)) not between 1 and 40 then
    raise exception 'type or scan the receipt number' using errcode = '22023';
  end if;
  select s.* into v_sale from public.sales s
   where s.business_id = v_business and s.store_id = _store_id and s.receipt_number = upper(btrim(_receipt_number));
  if v_sale.id is null then
    return null;
  end if;
  return jsonb_build_object(
    'id', v_sale.id, 'receipt_number', v_sale.receipt_number, 'occurred_at', v_sale.occurred_at, 'total', v_sale.total,
    'store_id', v_sale.store_id, 'currency', v_sale.currency,
    'tenders', coalesce((select jsonb_agg(jsonb_build_object('kind', t.kind, 'amount', t.amount) order by t.amount desc, t.kind)
                           from public.sale_tenders t where t.sale_id = v_sale.id), '[]'),
    'lines', coalesce((select jsonb_agg(jsonb_build_object(
                         'id', l.id, 'line_no', l.line_no, 'description', l.description, 'qty', l.qty,
                         'line_total', l.line_total, 'refunded', coalesce(r.qty, 0), 'refundedAmount', coalesce(r.amount, 0))
                         order by l.line_no)
                         from public.sale_lines l
                         left join private.sale_line_refunds(v_sale.id) r on r.sale_line_id = l.id
                        where l.sale_id = v_sale.id), '[]'));
end;
$$;
comment on function public.find_sale_for_refund(uuid,text) is 'A sale of the store by its receipt number, with tenders and what is left of each line: how a cashier finds a receipt to refund without reading the store''s sales (ADR 0171).';
revoke all on function public.find_sale_for_refund(uuid,text) from public;
grant execute on function public.find_sale_for_refund(uuid,text) to authenticated;

-- The caps for a business: low on Free and trials (a trial is where a new account would abuse it), higher on a
-- paid plan in force.
create or replace function private.email_caps(_business_id uuid)
returns table (per_business int, per_account int, plan_label text)
language sql
stable
security definer
set search_path = ''
as $$
  select case when paid.ok then 300 else 20 end, case when paid.ok then 100 else 10 end,
         case when paid.ok then l.plan || ' plan' when l.plan = 'Free' then 'Free plan' else 'trial' end
    from private.plan_limits(_business_id) l
    cross join lateral (
      select exists (select 1 from public.businesses b join public.user_plans up on up.user_id = b.owner_id
                      where b.id = _business_id and up.status in ('active', 'past_due')
                        and l.plan <> 'Free') as ok
    ) paid;
$$;
comment on function private.email_caps(uuid) is 'Hourly email caps of a business: per business and per account (Free and trials 20 and 10; paid 300 and 100).';
revoke all on function private.email_caps(uuid) from public;

-- Counts one email of _kind for the business and the calling account, or raises PT429 (HTTP 429 in PostgREST and
-- the local gateway) saying how long to wait. Locks per business, then per account, so concurrent calls queue.
create or replace function private.spend_email(_business_id uuid, _kind text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_caps record;
  v_business_sent int;
  v_account_sent int;
  v_oldest timestamptz;
  v_wait int;
  v_hint text;
begin
  select * into v_caps from private.email_caps(_business_id);
  v_hint := case when v_caps.plan_label in ('Free plan', 'trial') then 'Paid plans send more emails per hour.'
                 else 'The count goes down as the hour passes; support can help with more.' end;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('email_sends:' || _business_id::text, 0));
  if v_uid is not null then
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('email_sends:' || v_uid::text, 0));
    delete from private.email_sends s where s.user_id = v_uid and s.at < now() - interval '1 day';
  end if;
  select count(*) into v_business_sent from private.email_sends s
   where s.business_id = _business_id and s.at > now() - interval '1 hour';
  select count(*) into v_account_sent from private.email_sends s
   where v_uid is not null and s.user_id = v_uid and s.at > now() - interval '1 hour';
  if v_account_sent >= v_caps.per_account then
    select min(s.at) into v_oldest from private.email_sends s
     where s.user_id = v_uid and s.at > now() - interval '1 hour';
    v_wait := greatest(1, ceil(extract(epoch from (v_oldest + interval '1 hour' - now())) / 60)::int);
    raise exception 'you have sent % emails in the last hour, the most one person may send on the %; try again in % minutes',
        v_account_sent, v_caps.plan_label, v_wait
      using errcode = 'PT429', hint = v_hint;
  end if;
  if v_business_sent >= v_caps.per_business then
    select min(s.at) into v_oldest from private.email_sends s
     where s.business_id = _business_id and s.at > now() - interval '1 hour';
    v_wait := greatest(1, ceil(extract(epoch from (v_oldest + interval '1 hour' - now())) / 60)::int);
    raise exception 'this business has sent % emails in the last hour, the most the % allows; try again in % minutes',
        v_business_sent, v_caps.plan_label, v_wait
      using errcode = 'PT429', hint = v_hint;
  end if;
  insert into private.email_sends (business_id, user_id, kind) values (_business_id, v_uid, _kind);
end;
$$;
comment on function private.spend_email(uuid,text) is 'Counts one member-triggered email against the hourly caps of the business and the account, or raises PT429.';
revoke all on function private.spend_email(uuid,text) from public;

-- ---------------------------------------------------------------------------------------------------
-- A sample catalog for each kind of shop (issue 25's setup guide): eight everyday items with prices in minor units,
-- so a new owner can ring a test sale before entering their own. SKUs start with SAMPLE- so they are easy to find
-- and archive.
create or replace function private.sample_catalog(_business_type text)
returns table (name text, unit text, sku text, price bigint)
language sql
immutable
set search_path = ''
as $$
  select x.name, x.unit, x.sku, x.price
    from (values
      ('Grocery', 'Bananas', 'kg', 'SAMPLE-BANANA', 129), ('Grocery', 'Whole milk 1 L', 'each', 'SAMPLE-MILK', 249),
      ('Grocery', 'Sourdough loaf', 'each', 'SAMPLE-BREAD', 450), ('Grocery', 'Free-range eggs, 12', 'each', 'SAMPLE-EGGS', 399),
      ('Grocery', 'Gala apples', 'kg', 'SAMPLE-APPLE', 299), ('Grocery', 'Orange juice 1 L', 'each', 'SAMPLE-OJ', 329),
      ('Grocery', 'Cheddar 200 g', 'each', 'SAMPLE-CHEDDAR', 389), ('Grocery', 'Coffee beans 500 g', 'each', 'SAMPLE-COFFEE', 899),
      ('Clothing', 'Classic tee', 'each', 'SAMPLE-TEE', 1500), ('Clothing', 'Slim jeans', 'each', 'SAMPLE-JEANS', 4900),
      ('Clothing', 'Hoodie', 'each', 'SAMPLE-HOODIE', 3900), ('Clothing', 'Socks, 3 pairs', 'each', 'SAMPLE-SOCKS', 1200),
      ('Clothing', 'Baseball cap', 'each', 'SAMPLE-CAP', 1800), ('Clothing', 'Wool scarf', 'each', 'SAMPLE-SCARF', 2200),
      ('Clothing', 'Polo shirt', 'each', 'SAMPLE-POLO', 2900), ('Clothing', 'Leather belt', 'each', 'SAMPLE-BELT', 2500),
      ('Medical', 'Paracetamol 500 mg, 16 tablets', 'each', 'SAMPLE-PARA', 299),
      ('Medical', 'Ibuprofen 200 mg, 24 tablets', 'each', 'SAMPLE-IBU', 449),
      ('Medical', 'Vitamin C 1000 mg, 30 tablets', 'each', 'SAMPLE-VITC', 799),
      ('Medical', 'Hand sanitiser 100 ml', 'each', 'SAMPLE-SANI', 349), ('Medical', 'Plasters, 20', 'each', 'SAMPLE-PLAST', 259),
      ('Medical', 'Digital thermometer', 'each', 'SAMPLE-THERMO', 1299), ('Medical', 'Cough syrup 150 ml', 'each', 'SAMPLE-SYRUP', 699),
      ('Medical', 'Face masks, 10', 'each', 'SAMPLE-MASK', 499),
      ('Electronics', 'USB-C cable 1 m', 'each', 'SAMPLE-USBC', 1299), ('Electronics', 'Phone charger 20 W', 'each', 'SAMPLE-CHARGER', 2499),
      ('Electronics', 'Wireless earbuds', 'each', 'SAMPLE-BUDS', 5999), ('Electronics', 'Power bank 10000 mAh', 'each', 'SAMPLE-POWER', 3499),
      ('Electronics', 'HDMI cable 2 m', 'each', 'SAMPLE-HDMI', 1499), ('Electronics', 'Bluetooth speaker', 'each', 'SAMPLE-SPEAKER', 4999),
      ('Electronics', 'Screen protector', 'each', 'SAMPLE-SCREEN', 999), ('Electronics', 'AA batteries, 4', 'each', 'SAMPLE-AA', 599),
      ('Others', 'Gift card', 'each', 'SAMPLE-GIFT', 2500), ('Others', 'Notebook A5', 'each', 'SAMPLE-NOTE', 499),
      ('Others', 'Pen set', 'each', 'SAMPLE-PENS', 699), ('Others', 'Tote bag', 'each', 'SAMPLE-TOTE', 1299),
      ('Others', 'Ceramic mug', 'each', 'SAMPLE-MUG', 999), ('Others', 'Scented candle', 'each', 'SAMPLE-CANDLE', 1599),
      ('Others', 'Greeting card', 'each', 'SAMPLE-CARD', 349), ('Others', 'Keyring', 'each', 'SAMPLE-KEY', 499)
    ) as x (business_type, name, unit, sku, price)
   where x.business_type = coalesce(_business_type, 'Others');
$$;
revoke all on function private.sample_catalog(text) from public;

-- Adds the sample catalog of the business's type, once (23505 the second time), within the plan's item limit (the
-- catalog triggers refuse past it, and nothing is added then). Owners and managers, as for adding products.
create or replace function public.add_sample_catalog(_business_id uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_type text;
  v_n integer := 0;
  r record;
  v_product uuid;
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  select b.type into v_type from public.businesses b where b.id = _business_id;
  if exists (select 1 from public.variants v where v.business_id = _business_id and v.sku like 'SAMPLE-%') then
    raise exception 'the sample products are already in your catalog' using errcode = '23505';
  end if;
  for r in select * from private.sample_catalog(v_type) loop
    insert into public.products (business_id, name, unit) values (_business_id, r.name, r.unit) returning id into v_product;
    insert into public.variants (business_id, product_id, sku, price) values (_business_id, v_product, r.sku, r.price);
    v_n := v_n + 1;
  end loop;
  return v_n;
end;
$$;
comment on function public.add_sample_catalog(uuid) is 'Adds eight sample products for the business''s type (the setup guide), once.';
revoke all on function public.add_sample_catalog(uuid) from public;
grant execute on function public.add_sample_catalog(uuid) to authenticated;

-- The owner hides the setup guide, or shows it again.
create or replace function public.dismiss_setup(_business_id uuid, _dismissed boolean default true)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner']);
  update public.businesses b
     set setup_dismissed_at = case when coalesce(_dismissed, true) then now() end
   where b.id = _business_id;
end;
$$;
comment on function public.dismiss_setup(uuid,boolean) is 'The owner hides (or shows again) the Overview''s setup guide.';
revoke all on function public.dismiss_setup(uuid,boolean) from public;
grant execute on function public.dismiss_setup(uuid,boolean) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The Overview's setup guide for a new owner (issue 25): which first-day steps are done, read in one call:
-- business details, a store, a register, products, staff (a member or an invitation), a first sale.
create or replace function public.setup_progress(_business_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business public.businesses;
begin
  perform private.assert_role(_business_id, array['owner']);
  select b.* into v_business from public.businesses b where b.id = _business_id;
  return jsonb_build_object(
    'business_type', v_business.type,
    'dismissed', v_business.setup_dismissed_at is not null,
    'details', v_business.email is not null and v_business.phone is not null,
    'store', exists (select 1 from public.stores s where s.business_id = _business_id and s.archived_at is null),
    'register', exists (select 1 from public.registers r where r.business_id = _business_id and r.archived_at is null),
    'products', exists (select 1 from public.variants v where v.business_id = _business_id and v.archived_at is null),
    'team', exists (select 1 from public.business_members m where m.business_id = _business_id and m.role <> 'owner')
            or exists (select 1 from public.invitations i where i.business_id = _business_id and i.revoked_at is null),
    'sale', exists (select 1 from public.sales x where x.business_id = _business_id));
end;
$$;
comment on function public.setup_progress(uuid) is 'The owner''s first-day steps and whether each is done (the Overview''s setup guide).';
revoke all on function public.setup_progress(uuid) from public;
grant execute on function public.setup_progress(uuid) to authenticated;

-- The settings an admin sees and edits, as one JSON object (the names are the column names).
create or replace function private.platform_settings_json()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select to_jsonb(s) - 'id' from private.platform_settings s where s.id;
$$;
revoke all on function private.platform_settings_json() from public;

-- The values the rest of the schema reads (trial start, billing grace).
create or replace function private.platform_trial_days()
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select s.trial_days from private.platform_settings s where s.id), 7);
$$;
revoke all on function private.platform_trial_days() from public;
grant execute on function private.platform_trial_days() to authenticated;
grant execute on function private.platform_trial_days() to service_role;

create or replace function private.platform_grace()
returns interval
language sql
stable
security definer
set search_path = ''
as $$
  select make_interval(days => coalesce((select s.payment_grace_days from private.platform_settings s where s.id), 14));
$$;
revoke all on function private.platform_grace() from public;
grant execute on function private.platform_grace() to authenticated;
grant execute on function private.platform_grace() to service_role;

-- A published version is the record of what users were shown: it is never edited or removed.
create or replace function private.legal_versions_keep_published()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.status = 'published' then
    raise exception 'a published legal version never changes; publish a new one' using errcode = '42501';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;
revoke all on function private.legal_versions_keep_published() from public;

-- Everyone: one published version of a legal page (the one in force without _version), for the public page and
-- its stable address of each earlier version. Drafts are never returned.
create or replace function public.legal_version(_slug text, _version integer default null)
returns table (slug text, version integer, body_md text, effective_at timestamptz, published_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if _version is null then
    return query select v.slug, v.version, v.body_md, v.effective_at, v.published_at
                   from private.current_legal_version(_slug) v where v.id is not null;
  else
    return query select v.slug, v.version, v.body_md, v.effective_at, v.published_at
                   from private.legal_versions v
                  where v.slug = _slug and v.version = _version and v.status = 'published';
  end if;
end;
$$;
comment on function public.legal_version(text,integer) is 'Anyone: a published version of a legal page, the one in force when no version is given.';
revoke all on function public.legal_version(text,integer) from public;
grant execute on function public.legal_version(text,integer) to anon;
grant execute on function public.legal_version(text,integer) to authenticated;
grant execute on function public.legal_version(text,integer) to service_role;

create or replace function public.legal_version_list(_slug text)
returns table (version integer, effective_at timestamptz, published_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select v.version, v.effective_at, v.published_at from private.legal_versions v
   where v.slug = _slug and v.status = 'published' order by v.version desc limit 200;
$$;
comment on function public.legal_version_list(text) is 'Anyone: the published versions of a legal page, newest first (future ones included, with their date).';
revoke all on function public.legal_version_list(text) from public;
grant execute on function public.legal_version_list(text) to anon;
grant execute on function public.legal_version_list(text) to authenticated;
grant execute on function public.legal_version_list(text) to service_role;

-- The signed-in user's changed terms: the Terms of Service and the Privacy Policy in force now, when that version
-- took effect after the user signed up (they accepted an earlier one) and they have not dismissed its notice.
create or replace function public.my_legal_notices()
returns table (slug text, version integer, effective_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select c.slug, c.version, c.effective_at
    from unnest(array['terms-of-service', 'privacy-policy']) s(slug)
    cross join lateral private.current_legal_version(s.slug) c
    join auth.users u on u.id = (select auth.uid())
   where c.id is not null and c.effective_at > u.created_at
     and not exists (select 1 from private.legal_acknowledgements a
                      where a.user_id = u.id and a.slug = c.slug and a.version >= c.version);
$$;
comment on function public.my_legal_notices() is 'The signed-in user''s legal pages that changed since they accepted them and whose notice they have not dismissed.';
revoke all on function public.my_legal_notices() from public;
grant execute on function public.my_legal_notices() to authenticated;

create or replace function public.acknowledge_legal_version(_slug text, _version integer)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
begin
  if v_uid is null then
    raise exception 'sign in first' using errcode = '42501';
  end if;
  if not exists (select 1 from private.legal_versions v where v.slug = _slug and v.version = _version and v.status = 'published') then
    raise exception 'no published version % of %', coalesce(_version::text, 'null'), coalesce(_slug, 'null') using errcode = '22023';
  end if;
  insert into private.legal_acknowledgements as a (user_id, slug, version) values (v_uid, _slug, _version)
  on conflict (user_id, slug) do update set version = greatest(a.version, excluded.version), acknowledged_at = now();
end;
$$;
comment on function public.acknowledge_legal_version(text,integer) is 'The signed-in user dismisses the notice of a changed legal page (records the version read).';
revoke all on function public.acknowledge_legal_version(text,integer) from public;
grant execute on function public.acknowledge_legal_version(text,integer) to authenticated;

-- Everyone (the prerendered public pages read it after their first paint, the dashboard on load): the banner
-- while its window is open, read-only mode, the announcement bar, the status line (the platform's real state:
-- read-only or a critical banner override the admin's line), support promises and FAQ, and each legal page's
-- version in force. Nothing private: no sender, no sign-up mode, no draft.
create or replace function public.public_site_state()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'banner', case when s.banner_text <> '' and (s.banner_starts_at is null or s.banner_starts_at <= now())
                        and (s.banner_ends_at is null or s.banner_ends_at > now())
                   then jsonb_build_object('text', s.banner_text, 'severity', s.banner_severity, 'ends_at', s.banner_ends_at) end,
    'read_only', case when s.read_only then jsonb_build_object('message', s.read_only_message) end,
    'announcement', case when s.announcement_text <> '' then jsonb_build_object('text', s.announcement_text, 'link', nullif(s.announcement_link, '')) end,
    'status', case
                when s.read_only then jsonb_build_object('level', 'maintenance', 'text', 'Read-only maintenance')
                when s.banner_text <> '' and s.banner_severity = 'critical' and (s.banner_starts_at is null or s.banner_starts_at <= now())
                     and (s.banner_ends_at is null or s.banner_ends_at > now())
                  then jsonb_build_object('level', 'incident', 'text', 'Service disruption')
                else jsonb_build_object('level', 'ok', 'text', s.status_line) end,
    'support', jsonb_build_object('response_hours', s.support_response_hours, 'email', s.support_email),
    'faq', s.faq,
    'legal', (select coalesce(jsonb_object_agg(l.slug, jsonb_build_object('version', c.version, 'effective_at', c.effective_at)), '{}'::jsonb)
                from unnest(array['privacy-policy', 'terms-of-service', 'cookie-policy', 'gdpr-compliance', 'data-security-policy']) l(slug)
                cross join lateral private.current_legal_version(l.slug) c where c.id is not null))
  from private.platform_settings s where s.id;
$$;
comment on function public.public_site_state() is 'Anyone: what the public site and the dashboard show from the platform settings (banner, read-only, announcement, status, support, FAQ, legal versions in force).';
revoke all on function public.public_site_state() from public;
grant execute on function public.public_site_state() to anon;
grant execute on function public.public_site_state() to authenticated;
grant execute on function public.public_site_state() to service_role;

-- GoTrue's before-user-created hook (hosted: Authentication > Hooks, a Postgres function; the embedded auth service
-- calls it before every sign-up, OAuth or OTP user it creates). Open: everyone; invitation-only: an address
-- with a pending invitation; closed: nobody. Refusals are GoTrue's hook error object, answered with 403.
create or replace function public.hook_before_user_created(event jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_mode text := coalesce((select s.signup_mode from private.platform_settings s where s.id), 'open');
  v_email text := lower(btrim(coalesce(event -> 'user' ->> 'email', '')));
begin
  if v_mode = 'open' then
    return '{}'::jsonb;
  end if;
  if v_mode = 'invitation_only' and v_email <> '' and exists (
       select 1 from public.invitations i
        where lower(i.email::text) = v_email and i.accepted_at is null and i.revoked_at is null and i.expires_at > now()) then
    return '{}'::jsonb;
  end if;
  return jsonb_build_object('error', jsonb_build_object('http_code', 403, 'message',
    case v_mode when 'closed' then 'Sign-ups are closed for now. Existing accounts can still sign in.'
         else 'Storewise is invitation-only for now: sign up with the address your invitation was sent to.' end));
end;
$$;
comment on function public.hook_before_user_created(jsonb) is 'Auth hook: refuses new users while sign-ups are closed, or invitation-only without a pending invitation (docs/adr/0260). On hosted Supabase grant execute to supabase_auth_admin and enable it under Authentication > Hooks.';
revoke all on function public.hook_before_user_created(jsonb) from public;
grant execute on function public.hook_before_user_created(jsonb) to service_role;

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
-- callers cannot. The common case (read-only off) costs one look at a one-row table per statement. It looks before
-- it calls assert_writable (whose exemptions it keeps that way) rather than always calling it: a call into a second
-- security definer function with its own search_path doubled the guard's cost per statement when read-only is off
-- (PGlite, 10,000 one-row inserts: about 10 µs a statement against 20 µs; review of 20261202170100).
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

-- The sender as the deliverers use it now.
create or replace function public.email_sender()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select jsonb_build_object('name', btrim(s.email_sender_name), 'reply_to', s.email_reply_to)
       from private.platform_settings s where s.id),
    jsonb_build_object('name', 'Storewise', 'reply_to', 'support@storewise.app'));
$$;
comment on function public.email_sender() is 'Service role only: the display name and reply-to address every email is sent with (System Settings > Email), read at send time (docs/adr/0281).';
revoke all on function public.email_sender() from public;
grant execute on function public.email_sender() to service_role;

create or replace function private.minor_to_plain(_minor numeric, _currency text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when _minor is null then null
              else round(_minor / (10::numeric ^ private.currency_digits(coalesce(_currency, 'USD'))),
                         private.currency_digits(coalesce(_currency, 'USD')))::text end;
$$;
revoke all on function private.minor_to_plain(numeric,text) from public;

create or replace function private.platform_writable()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(auth.role(), '') not in ('authenticated', 'anon')
      or not exists (select 1 from private.platform_settings s where s.id and s.read_only);
$$;
comment on function private.platform_writable() is 'False while read-only maintenance is on for signed-in and anonymous callers (the Storage policies'' form of private.assert_writable, docs/adr/0280).';
revoke all on function private.platform_writable() from public;
grant execute on function private.platform_writable() to authenticated;

-- An item's name as the catalog says it today, for items without a sale line in the range to take it from.
create or replace function private.variant_description(_variant_id uuid)
returns text
language sql
stable
security invoker
set search_path = ''
as $$
  select p.name || coalesce(' ' || nullif(concat_ws(' / ', v.option1, v.option2, v.option3), ''), '')
    from public.variants v join public.products p on p.id = v.product_id
   where v.id = _variant_id;
$$;
comment on function private.variant_description(uuid) is 'An item''s name and options as the catalog says today (report_top_products, for items without a sale line in the range).';
revoke all on function private.variant_description(uuid) from public;
grant execute on function private.variant_description(uuid) to authenticated;

-- The refund line's variant is its sale line's, whatever the insert gave.
create or replace function private.refund_lines_variant()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select l.variant_id into new.variant_id from public.sale_lines l
   where l.id = new.sale_line_id and l.business_id = new.business_id;
  return new;
end;
$$;
revoke all on function private.refund_lines_variant() from public;

-- _variant_ids null: every item refunded in the range. Given items: their refund lines (index on variant and
-- variant), then the refund's day and store; otherwise every refund of the range, then its lines.
create or replace function private.variant_refunds(_business_id uuid, _from date, _to date, _store_id uuid,
                                                   _variant_ids uuid[])
returns table (variant_id uuid, units numeric, revenue numeric, cost numeric)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  if _variant_ids is not null then
    return query
      select rl.variant_id, sum(rl.qty),
             sum(rl.amount - case when l.line_total = 0 then 0
                                  else round(rl.amount::numeric * l.tax_amount / l.line_total) end),
             sum(case when rl.disposition = 'restock' then round(rl.qty * coalesce(c.unit_cost, 0)) else 0 end)
        from public.refund_lines rl
        -- One probe per line (the limit keeps it a probe): joined as a set, the planner read every refund.
        cross join lateral (select r.store_id, r.occurred_at from public.refunds r
                             where r.id = rl.refund_id and r.business_id = rl.business_id limit 1) r
        join public.stores st on st.id = r.store_id
        join public.sale_lines l on l.id = rl.sale_line_id and l.business_id = rl.business_id
        left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
       where rl.business_id = _business_id and rl.variant_id = any (_variant_ids)
         and st.business_id = _business_id and (_store_id is null or st.id = _store_id)
         and (r.occurred_at at time zone st.time_zone)::date between _from and _to
       group by rl.variant_id;
    return;
  end if;
  return query
    select rl.variant_id, sum(rl.qty),
           sum(rl.amount - case when l.line_total = 0 then 0 else round(rl.amount::numeric * l.tax_amount / l.line_total) end),
           sum(case when rl.disposition = 'restock' then round(rl.qty * coalesce(c.unit_cost, 0)) else 0 end)
      from public.stores st
      join public.refunds r on r.store_id = st.id and r.business_id = _business_id
                           and r.occurred_at >= (_from::timestamp at time zone st.time_zone) - interval '2 hours'
                           and r.occurred_at < ((_to + 1)::timestamp at time zone st.time_zone) + interval '2 hours'
                           and (r.occurred_at at time zone st.time_zone)::date between _from and _to
      join public.refund_lines rl on rl.refund_id = r.id and rl.business_id = r.business_id
      join public.sale_lines l on l.id = rl.sale_line_id and l.business_id = rl.business_id
      left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
     where st.business_id = _business_id and (_store_id is null or st.id = _store_id)
     group by rl.variant_id;
end;
$$;
comment on function private.variant_refunds(uuid,date,date,uuid,uuid[]) is 'Refunds in a range of some items (all items when _variant_ids is null): units, net sales and restocked cost given back (report_top_products, ADR 0172).';
revoke all on function private.variant_refunds(uuid,date,date,uuid,uuid[]) from public;
grant execute on function private.variant_refunds(uuid,date,date,uuid,uuid[]) to authenticated;

-- ==== Triggers ============================================================================================

create trigger read_only_guard before insert or update or delete on private.billing_signature_failures
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.refund_reviews
  for each statement execute function private.read_only_guard();

-- ==== Policies ============================================================================================

-- The service role bypasses RLS anyway; the policy states who may read and remove outbox rows.
create policy "email_outbox: the service role delivers" on public.email_outbox
  for all to service_role using (true) with check (true);

-- ==== Run once on apply ===================================================================================

do $$
begin
  raise notice 'email outbox: %', private.schedule_email_outbox_sender();
end;
$$;
