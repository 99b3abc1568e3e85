-- Workspace (shared/features/workspace): businesses, stores, registers, members with roles and store access,
-- invitations, the activity trail and in-app notifications; the helpers every policy uses to ask which
-- businesses and stores the caller may see (private.my_business_ids and friends).
-- Invariants: a business has one owner (businesses.owner_id, who is also its owner member); the activity trail is
-- append-only; invitation tokens are kept hashed in private; store-limited members see only their listed stores.
--
-- Written by scripts/schema-extract.ts from the migrations and kept equal to them by
-- tests/hosted/schema-files.test.ts: change an object here, then generate its migration (README, Contributing).

-- Function bodies are checked when they run, not when created: the files need no order among functions.
set check_function_bodies = off;

-- ==== Functions the tables below call in defaults, checks or indexes ======================================

create or replace function private.pack_names()
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array['scale_barcodes', 'lots_fefo', 'serials', 'size_grid', 'prescriptions']::text[];
$$;
revoke all on function private.pack_names() from public;
grant execute on function private.pack_names() to authenticated;
grant execute on function private.pack_names() to service_role;

-- ==== Tables: columns, constraints, row level security, grants and comments ===============================

create table public.businesses (
  id uuid default gen_random_uuid() not null,
  name public.entity_name not null,
  type public.business_type default 'Others'::text not null,
  email public.email_address,
  phone public.phone_number,
  owner_id uuid not null,
  suspended_at timestamp with time zone,
  suspended_reason public.short_text,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  managers_need_two_factor boolean default false not null,
  setup_dismissed_at timestamp with time zone,
  packs text[] default '{}'::text[] not null,
  country text,
  constraint businesses_pkey primary key (id),
  constraint businesses_country_check check (((country is null) or (country ~ '^[A-Z]{2}$'::text))),
  constraint businesses_packs_known check ((packs <@ private.pack_names())),
  constraint businesses_owner_id_fkey foreign key (owner_id) references auth.users(id) on delete cascade
);
alter table public.businesses enable row level security;
comment on table public.businesses is 'Members read their (unsuspended) businesses; the owner also reads a suspended one to see why, and updates name, type, email and phone. Created at sign-up by a trigger; suspended through admin functions only.';
comment on column public.businesses.managers_need_two_factor is 'Managers must sign in with a second factor (aal2) to act in this business; set by the owner with set_managers_need_two_factor.';
comment on column public.businesses.setup_dismissed_at is 'When the owner dismissed the Overview''s setup guide (dismiss_setup); null while it shows.';
comment on column public.businesses.packs is 'The packs switched on (private.pack_names): set from the business type when the business is created, then by the owner with set_business_pack.';
comment on column public.businesses.country is 'ISO 3166-1 alpha-2 country of the business; sets how long fiscal records are kept after a deletion (private.retention_years, 10 years when unknown).';
grant delete, insert, select, update on table public.businesses to service_role;
grant select on table public.businesses to authenticated;
grant update (name, type, email, phone, country) on table public.businesses to authenticated;
alter table private.pos_catalog_packs add constraint pos_catalog_packs_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade;
alter table private.email_sends add constraint email_sends_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade;

create table public.business_members (
  business_id uuid not null,
  user_id uuid not null,
  role public.member_role not null,
  all_stores boolean default true not null,
  created_at timestamp with time zone default now() not null,
  constraint business_members_pkey primary key (business_id, user_id),
  constraint business_members_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint business_members_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table public.business_members enable row level security;
comment on table public.business_members is 'Owners and managers read their business''s team; every member reads its own row. Written only by the team functions (accept_invitation, set_member_role, remove_member, transfer_ownership).';
grant delete, insert, select, update on table public.business_members to service_role;
grant select on table public.business_members to authenticated;

create table public.stores (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  name public.entity_name not null,
  address public.short_text,
  phone public.phone_number,
  time_zone text default 'UTC'::text not null,
  currency public.currency_code default 'USD'::text not null,
  tax_inclusive boolean default false not null,
  default_tax_rate public.tax_rate default 0 not null,
  receipt_header public.short_text,
  receipt_footer public.short_text,
  archived_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  offline_refund_limit bigint default 5000 not null,
  cash_rounding_step bigint default 0 not null,
  constraint stores_pkey primary key (id),
  constraint stores_id_business_id_key unique (id, business_id),
  constraint stores_cash_rounding_step_range check (((cash_rounding_step >= 0) and (cash_rounding_step <= 100000))),
  constraint stores_offline_refund_limit_range check (((offline_refund_limit >= 0) and (offline_refund_limit <= 100000000))),
  constraint stores_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table public.stores enable row level security;
comment on table public.stores is 'Members read the stores they may access; owners create and archive (never delete); owners and managers edit the settings of stores they may access. Creation is limited by the plan (private.plan_limits).';
comment on column public.stores.offline_refund_limit is 'The most (minor units) a cashier refunds offline without a manager''s approval, to the original tender, in their own shift; flagged for review. Owners change it with the store''s settings.';
comment on column public.stores.cash_rounding_step is 'Cash is paid in multiples of this many minor units (5 = CHF 0.05; 0 = exact). Owners and managers set it with the store''s settings.';
grant delete, insert, select, update on table public.stores to service_role;
grant select on table public.stores to authenticated;
grant insert (business_id, name, address, phone, time_zone, currency, tax_inclusive, default_tax_rate, receipt_header, receipt_footer, offline_refund_limit, cash_rounding_step) on table public.stores to authenticated;
grant update (name, address, phone, time_zone, currency, tax_inclusive, default_tax_rate, receipt_header, receipt_footer, archived_at, offline_refund_limit, cash_rounding_step) on table public.stores to authenticated;

create table public.member_store_access (
  business_id uuid not null,
  user_id uuid not null,
  store_id uuid not null,
  constraint member_store_access_pkey primary key (business_id, user_id, store_id),
  constraint member_store_access_business_id_user_id_fkey foreign key (business_id, user_id) references public.business_members(business_id, user_id) on delete cascade,
  constraint member_store_access_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade
);
alter table public.member_store_access enable row level security;
comment on table public.member_store_access is 'Same readers as business_members; written only by the team functions.';
grant delete, insert, select, update on table public.member_store_access to service_role;
grant select on table public.member_store_access to authenticated;

create table public.registers (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  store_id uuid not null,
  name public.entity_name not null,
  receipt_prefix public.receipt_prefix not null,
  archived_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint registers_pkey primary key (id),
  constraint registers_business_id_receipt_prefix_key unique (business_id, receipt_prefix),
  constraint registers_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade
);
alter table public.registers enable row level security;
comment on table public.registers is 'Members read the registers of stores they may access; owners and managers of such a store create, rename and archive them (never delete).';
grant delete, insert, select, update on table public.registers to service_role;
grant select on table public.registers to authenticated;
grant insert (business_id, store_id, name, receipt_prefix) on table public.registers to authenticated;
grant update (name, receipt_prefix, archived_at) on table public.registers to authenticated;

create table public.invitations (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  email public.email_address not null,
  role public.member_role not null,
  all_stores boolean default true not null,
  store_ids uuid[] default '{}'::uuid[] not null,
  invited_by uuid,
  created_at timestamp with time zone default now() not null,
  expires_at timestamp with time zone default (now() + '7 days'::interval) not null,
  accepted_at timestamp with time zone,
  accepted_by uuid,
  revoked_at timestamp with time zone,
  constraint invitations_pkey primary key (id),
  constraint invitations_accepted_by_fkey foreign key (accepted_by) references auth.users(id) on delete set null,
  constraint invitations_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint invitations_invited_by_fkey foreign key (invited_by) references auth.users(id) on delete set null
);
alter table public.invitations enable row level security;
comment on table public.invitations is 'Owners read their business''s invitations; written only by create_invitation, revoke_invitation and accept_invitation.';
grant delete, insert, select, update on table public.invitations to service_role;
grant select on table public.invitations to authenticated;

create table private.invitation_tokens (
  invitation_id uuid not null,
  token_hash text not null,
  constraint invitation_tokens_pkey primary key (invitation_id),
  constraint invitation_tokens_token_hash_key unique (token_hash),
  constraint invitation_tokens_invitation_id_fkey foreign key (invitation_id) references public.invitations(id) on delete cascade
);
alter table private.invitation_tokens enable row level security;
comment on table private.invitation_tokens is 'SHA-256 of each invitation token; read only by the invitation functions.';

create table public.activity (
  id bigint generated always as identity not null,
  business_id uuid not null,
  store_id uuid,
  actor_id uuid,
  actor_label text,
  kind text not null,
  entity_type text not null,
  entity_id uuid,
  before jsonb,
  after jsonb,
  at timestamp with time zone default now() not null,
  actor_email text,
  constraint activity_pkey primary key (id),
  constraint activity_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table public.activity enable row level security;
alter publication supabase_realtime add table public.activity;
comment on table public.activity is 'Owners read their business''s trail; managers the entries of the business and of stores they may access, except invitation entries. Nobody inserts, updates or deletes through the API; triggers and security definer functions append, naming the actor by user id and account email.';
comment on column public.activity.actor_label is 'The actor''s profile name when the entry was written (editable by them: never the identity, see actor_email).';
comment on column public.activity.actor_email is 'The actor''s account email when the entry was written (set by the writers from auth.users, not chosen by the actor). actor_label is the profile name at the time, a secondary label; entries before 20261127110000 have no email and the Activity page looks it up by actor_id.';
grant delete, insert, select, update on table public.activity to service_role;
grant select on table public.activity to authenticated;

create table public.notifications (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  kind text not null,
  title text not null,
  body text,
  link text,
  created_at timestamp with time zone default now() not null,
  read_at timestamp with time zone,
  constraint notifications_pkey primary key (id),
  constraint notifications_body_check check (((body is null) or (char_length(body) <= 500))),
  constraint notifications_kind_check check (((char_length(kind) >= 1) and (char_length(kind) <= 60))),
  constraint notifications_link_check check (((link is null) or (link ~ '^/[A-Za-z0-9/_-]*$'::text))),
  constraint notifications_title_check check (((char_length(title) >= 1) and (char_length(title) <= 200))),
  constraint notifications_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table public.notifications enable row level security;
comment on table public.notifications is 'Each user reads and marks read (read_at) only their own; security definer functions insert them.';
grant delete, insert, select, update on table public.notifications to service_role;
grant select on table public.notifications to authenticated;
grant update (read_at) on table public.notifications to authenticated;

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
  constraint business_deletions_legal_hold_reason_check check (((legal_hold_reason is null) or ((char_length(legal_hold_reason) >= 3) and (char_length(legal_hold_reason) <= 500)))),
  constraint business_deletions_retained_check check (((state <> 'retained'::text) or ((erased_at is not null) and (retain_until is not null)))),
  constraint business_deletions_state_check check ((state = any (array['pending'::text, 'canceled'::text, 'erasing'::text, 'retained'::text, 'purged'::text]))),
  constraint business_deletions_step_check check (((step is null) or (step = any (array['begin'::text, 'customers'::text, 'staff'::text, 'uploads'::text, 'tickets'::text, 'contact'::text]))))
);
alter table private.business_deletions enable row level security;
comment on table private.business_deletions is 'Businesses their owners asked to delete: pending 30 days, then erasing, retained (fiscal records only) and purged. No foreign key to the business: the row and its proofs outlive it. Read and written only by the deletion functions.';
comment on column private.business_deletions.requested_by is 'The owner who asked; kept with the proof log (who asked for the erasure is part of the proof).';

create table private.business_erasure_proofs (
  id bigint generated always as identity not null,
  business_id uuid not null,
  what text not null,
  rows_affected integer not null,
  at timestamp with time zone default now() not null,
  constraint business_erasure_proofs_pkey primary key (id),
  constraint business_erasure_proofs_rows_check check ((rows_affected >= 0)),
  constraint business_erasure_proofs_what_check check (((char_length(what) >= 1) and (char_length(what) <= 200)))
);
alter table private.business_erasure_proofs enable row level security;
comment on table private.business_erasure_proofs is 'Proof log of a business deletion: what was erased (or canceled, held, purged) and when, with row counts only, never the data.';

create table public.desktop_heartbeats (
  id bigint generated always as identity not null,
  business_id uuid not null,
  device_id uuid not null,
  app_version text not null,
  channel text not null,
  platform text not null,
  arch text not null,
  reported_on date default ((now() at time zone 'utc'::text))::date not null,
  reported_at timestamp with time zone default now() not null,
  constraint desktop_heartbeats_pkey primary key (id),
  constraint desktop_heartbeats_once_a_day unique (business_id, device_id, app_version, reported_on),
  constraint desktop_heartbeats_app_version_check check ((app_version ~ '^[0-9]{1,5}\.[0-9]{1,5}\.[0-9]{1,5}(-[0-9A-Za-z.-]{1,40})?$'::text)),
  constraint desktop_heartbeats_arch_check check ((arch = any (array['x64'::text, 'arm64'::text, 'ia32'::text]))),
  constraint desktop_heartbeats_channel_check check ((channel = any (array['stable'::text, 'beta'::text]))),
  constraint desktop_heartbeats_platform_check check ((platform = any (array['win32'::text, 'darwin'::text, 'linux'::text]))),
  constraint desktop_heartbeats_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table public.desktop_heartbeats enable row level security;
comment on table public.desktop_heartbeats is 'Which Storewise desktop version each store PC runs (docs/adr/0270): device id, version, channel, platform; no personal data.';
grant select on table public.desktop_heartbeats to service_role;
grant insert (business_id, device_id, app_version, channel, platform, arch) on table public.desktop_heartbeats to authenticated;

create table private.business_exports (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  requested_by uuid not null,
  requested_at timestamp with time zone default now() not null,
  state text default 'building'::text not null,
  tables jsonb not null,
  rows_total bigint not null,
  rows_done bigint default 0 not null,
  object_name text,
  finished_at timestamp with time zone,
  constraint business_exports_pkey primary key (id),
  constraint business_exports_object_name_check check (((object_name is null) or (object_name ~ '^[0-9a-f-]{36}/[A-Za-z0-9._-]{1,120}\.zip$'::text))),
  constraint business_exports_rows_check check (((rows_total >= 0) and (rows_done >= 0))),
  constraint business_exports_state_check check ((state = any (array['building'::text, 'ready'::text, 'failed'::text]))),
  constraint business_exports_tables_check check ((jsonb_typeof(tables) = 'array'::text)),
  constraint business_exports_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade
);
alter table private.business_exports enable row level security;
comment on table private.business_exports is 'Business exports asked for by owners: the row counts of the manifest, the progress of the build and the ZIP''s name in the exports bucket. Read and written only by the export functions.';
comment on column private.business_exports.requested_by is 'The owner who asked (the trail has the same entry).';

-- ==== Indexes =============================================================================================

create index businesses_owner_id_idx on public.businesses (owner_id);

create index businesses_created_at_idx on public.businesses (created_at desc, id);

create index businesses_name_trgm_idx on public.businesses using gin (name extensions.gin_trgm_ops);

create index business_members_user_id_idx on public.business_members (user_id);

-- Exactly one owner per business: at most one here, and create/transfer always write one.
create unique index business_members_one_owner_idx on public.business_members (business_id) where role = 'owner';

create index stores_business_id_idx on public.stores (business_id, created_at);

create index member_store_access_store_idx on public.member_store_access (store_id, business_id);

create index registers_store_idx on public.registers (store_id, business_id);

create index invitations_business_idx on public.invitations (business_id, created_at desc);

create index invitations_invited_by_idx on public.invitations (invited_by);

create index invitations_accepted_by_idx on public.invitations (accepted_by);

create index activity_business_at_idx on public.activity (business_id, at desc, id desc);

create index activity_business_actor_idx on public.activity (business_id, actor_id, at desc);

create index activity_business_store_idx on public.activity (business_id, store_id, at desc);

create index activity_business_kind_idx on public.activity (business_id, kind, at desc);

create index notifications_user_idx on public.notifications (user_id, created_at desc);

create index notifications_unread_idx on public.notifications (user_id) where read_at is null;

create index activity_platform_idx on public.activity (at desc, id desc)
  where kind in ('business.suspended', 'business.unsuspended');

create index desktop_heartbeats_reported_at_idx on public.desktop_heartbeats (reported_at desc);

create index business_deletions_due_idx on private.business_deletions (state, erase_after);

create index business_erasure_proofs_business_idx on private.business_erasure_proofs (business_id, at);

create index business_exports_business_idx on private.business_exports (business_id, requested_at);

-- The personal export reads a user's own entries across businesses.
create index activity_actor_at_idx on public.activity (actor_id, at desc);

-- ==== Functions ===========================================================================================

-- Raises 42501 unless the caller has one of the roles in an unsuspended business.
create or replace function private.assert_role(_business_id uuid, _roles text[])
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_role text := private.my_role(_business_id);
begin
  if v_role is null or not (v_role = any (_roles)) then
    raise exception 'permission denied: your role in this business does not allow this' using errcode = '42501';
  end if;
  return v_role;
end;
$$;
revoke all on function private.assert_role(uuid,text[]) from public;
grant execute on function private.assert_role(uuid,text[]) to authenticated;

-- One audit trigger for the workspace tables: kind = <entity>.<created|updated|archived|restored|deleted>.
create or replace function private.audit_row()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_entity text := tg_argv[0];
  v_old jsonb := case when tg_op <> 'INSERT' then to_jsonb(old) end;
  v_new jsonb := case when tg_op <> 'DELETE' then to_jsonb(new) end;
  v_row jsonb := coalesce(v_new, v_old);
  v_verb text;
begin
  if tg_op = 'UPDATE' then
    -- updated_at alone is no change worth a line.
    if (v_old - 'updated_at') = (v_new - 'updated_at') then
      return null;
    end if;
    v_verb := case
      when v_entity = 'business' and (v_old ->> 'suspended_at') is null and (v_new ->> 'suspended_at') is not null then 'suspended'
      when v_entity = 'business' and (v_old ->> 'suspended_at') is not null and (v_new ->> 'suspended_at') is null then 'unsuspended'
      when (v_old ->> 'archived_at') is null and (v_new ->> 'archived_at') is not null then 'archived'
      when (v_old ->> 'archived_at') is not null and (v_new ->> 'archived_at') is null then 'restored'
      when v_entity = 'member' and (v_old ->> 'role') is distinct from (v_new ->> 'role') then 'role_changed'
      when v_entity = 'invitation' and (v_old ->> 'accepted_at') is null and (v_new ->> 'accepted_at') is not null then 'accepted'
      when v_entity = 'invitation' and (v_old ->> 'revoked_at') is null and (v_new ->> 'revoked_at') is not null then 'revoked'
      else 'updated' end;
  else
    v_verb := case tg_op when 'INSERT' then (case when v_entity = 'member' then 'added' else 'created' end)
                         else (case when v_entity = 'member' then 'removed' else 'deleted' end) end;
  end if;
  perform private.log_activity(
    case when v_entity = 'business' then (v_row ->> 'id')::uuid else (v_row ->> 'business_id')::uuid end,
    case when v_entity = 'store' then (v_row ->> 'id')::uuid else (v_row ->> 'store_id')::uuid end,
    v_entity || '.' || v_verb,
    v_entity,
    case when v_entity = 'member' then (v_row ->> 'user_id')::uuid else (v_row ->> 'id')::uuid end,
    v_old, v_new);
  return null;
end;
$$;
revoke all on function private.audit_row() from public;

-- ---------------------------------------------------------------------------------------------------
-- Store rules: a real time zone, the plan's store limit on create and on restore, archive by owners only.
create or replace function private.stores_guard()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from pg_catalog.pg_timezone_names z where z.name = new.time_zone) then
    raise exception 'unknown time zone: %', new.time_zone using errcode = '22023';
  end if;
  if tg_op = 'INSERT' and new.archived_at is null
     or tg_op = 'UPDATE' and old.archived_at is not null and new.archived_at is null then
    perform private.assert_plan_allows(new.business_id, 'stores');
  end if;
  -- Managers edit settings; archiving and restoring is the owner's call. auth.uid() is null for the
  -- database owner (migrations, seed, admin tooling), which may do both.
  if tg_op = 'UPDATE' and new.archived_at is distinct from old.archived_at and (select auth.uid()) is not null
     and private.my_role(new.business_id) is distinct from 'owner' then
    raise exception 'permission denied: only the owner archives or restores a store' using errcode = '42501';
  end if;
  return new;
end;
$$;
revoke all on function private.stores_guard() from public;

-- ---------------------------------------------------------------------------------------------------
-- A business per owner: at sign-up from the metadata (ADR 0040), and now for every existing account.
create or replace function private.create_business_for(_user_id uuid, _meta jsonb, _fallback_name text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_name text := btrim(coalesce(_meta ->> 'business_name', ''));
  v_type text := _meta ->> 'business_type';
  v_email text := btrim(coalesce(_meta ->> 'business_email', ''));
  v_phone text := btrim(coalesce(_meta ->> 'phone', ''));
  v_id uuid;
begin
  if char_length(v_name) not between 2 and 100 then
    v_name := left(btrim(coalesce(_fallback_name, '')), 100);
    if char_length(v_name) < 2 then
      v_name := 'My business';
    end if;
  end if;
  insert into public.businesses (name, type, email, phone, owner_id)
  values (
    v_name,
    case when v_type in ('Grocery', 'Clothing', 'Medical', 'Electronics', 'Others') then v_type else 'Others' end,
    case when char_length(v_email) <= 255 and v_email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' then v_email end,
    case when char_length(v_phone) between 10 and 20 then v_phone end,
    _user_id)
  returning id into v_id;
  insert into public.business_members (business_id, user_id, role, all_stores) values (v_id, _user_id, 'owner', true);
  return v_id;
end;
$$;
revoke all on function private.create_business_for(uuid,jsonb,text) from public;

-- Someone who signs up from an invitation (metadata invited = true, no business name) joins a business
-- instead of founding one.
create or replace function private.on_auth_user_created_business()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  meta jsonb := case when jsonb_typeof(new.raw_user_meta_data) = 'object' then new.raw_user_meta_data else '{}' end;
begin
  if coalesce(meta ->> 'invited', '') = 'true' and coalesce(meta ->> 'business_name', '') = '' then
    return new;
  end if;
  perform private.create_business_for(new.id, meta,
    coalesce(nullif(btrim(coalesce(meta ->> 'full_name', meta ->> 'name', '')), '') || '''s business', ''));
  return new;
end;
$$;
revoke all on function private.on_auth_user_created_business() from public;

-- ---------------------------------------------------------------------------------------------------
-- The workspaces of the caller with role, plan and usage: the switcher and the usage line ("2 of 3 stores").
-- An owner also sees a suspended business (with the reason); other members do not see it at all.
create or replace function public.my_workspaces()
returns table (
  id uuid, name text, type text, role text, owner_id uuid, suspended_at timestamptz, suspended_reason text,
  plan text, max_stores int, max_products int, max_members int, stores_used bigint, members_used bigint
)
language sql
stable
security definer
set search_path = ''
as $$
  select b.id, b.name::text, b.type::text, m.role::text, b.owner_id, b.suspended_at, b.suspended_reason::text,
         l.plan, l.max_stores, l.max_products, l.max_members,
         (select count(*) from public.stores s where s.business_id = b.id and s.archived_at is null),
         (select count(*) from public.business_members x where x.business_id = b.id)
    from public.business_members m
    join public.businesses b on b.id = m.business_id
    cross join lateral private.plan_limits(b.id) l
   where m.user_id = (select auth.uid())
     and (b.suspended_at is null or m.role = 'owner')
   order by (m.role = 'owner') desc, b.name, b.id;
$$;
revoke all on function public.my_workspaces() from public;
grant execute on function public.my_workspaces() to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The team with names and emails (profiles and auth.users are not readable across users otherwise).
create or replace function public.business_team(_business_id uuid)
returns table (
  user_id uuid, full_name text, email text, role text, all_stores boolean, store_ids uuid[], joined_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  return query
    select m.user_id, p.full_name, u.email::text, m.role::text, m.all_stores,
           coalesce((select array_agg(a.store_id order by a.store_id) from public.member_store_access a
                      where a.business_id = m.business_id and a.user_id = m.user_id), '{}'),
           m.created_at
      from public.business_members m
      join auth.users u on u.id = m.user_id
      left join public.profiles p on p.id = m.user_id
     where m.business_id = _business_id
     order by (m.role = 'owner') desc, m.role, p.full_name, m.user_id;
end;
$$;
revoke all on function public.business_team(uuid) from public;
grant execute on function public.business_team(uuid) to authenticated;

-- Store ids must be stores of the business; an empty list with all_stores off means no store at all.
create or replace function private.write_store_access(_business_id uuid, _user_id uuid, _all_stores boolean, _store_ids uuid[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_before uuid[];
  v_after uuid[] := case when _all_stores then '{}'::uuid[]
                         else (select coalesce(array_agg(distinct x order by x), '{}') from unnest(coalesce(_store_ids, '{}')) x) end;
begin
  if exists (select 1 from unnest(v_after) x
              where not exists (select 1 from public.stores s where s.id = x and s.business_id = _business_id)) then
    raise exception 'a chosen store does not belong to this business' using errcode = '22023';
  end if;
  select coalesce(array_agg(a.store_id order by a.store_id), '{}') into v_before
    from public.member_store_access a where a.business_id = _business_id and a.user_id = _user_id;
  if v_before = v_after then
    return;
  end if;
  delete from public.member_store_access a where a.business_id = _business_id and a.user_id = _user_id;
  insert into public.member_store_access (business_id, user_id, store_id)
  select _business_id, _user_id, x from unnest(v_after) x;
  perform private.log_activity(_business_id, null, 'member.access_changed', 'member', _user_id,
    jsonb_build_object('store_ids', v_before), jsonb_build_object('store_ids', v_after));
end;
$$;
revoke all on function private.write_store_access(uuid,uuid,boolean,uuid[]) from public;

-- ---------------------------------------------------------------------------------------------------
-- Invitations. The token is returned once to the owner (for the email link) and stored as a SHA-256.
create or replace function public.create_invitation(
  _business_id uuid, _email text, _role text, _all_stores boolean default true, _store_ids uuid[] default '{}'
)
returns table (invitation_id uuid, token text, expires_at timestamptz)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := lower(btrim(coalesce(_email, '')));
  v_token text := encode(extensions.gen_random_bytes(32), 'hex');
  v_store_ids uuid[] := case when coalesce(_all_stores, true) then '{}'::uuid[]
                             else (select coalesce(array_agg(distinct x), '{}') from unnest(coalesce(_store_ids, '{}')) x) end;
  v_invitation public.invitations;
begin
  perform private.assert_role(_business_id, array['owner']);
  if _role is null or _role not in ('manager', 'cashier') then
    raise exception 'invite a manager or a cashier' using errcode = '22023';
  end if;
  if char_length(v_email) > 255 or v_email !~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' then
    raise exception 'enter a valid email address' using errcode = '22023';
  end if;
  if exists (select 1 from unnest(v_store_ids) x
              where not exists (select 1 from public.stores s where s.id = x and s.business_id = _business_id)) then
    raise exception 'a chosen store does not belong to this business' using errcode = '22023';
  end if;
  perform private.assert_plan_allows(_business_id, 'members');
  if exists (select 1 from public.business_members m join auth.users u on u.id = m.user_id
              where m.business_id = _business_id and lower(u.email) = v_email) then
    raise exception 'this person is already a member of the business' using errcode = '23505';
  end if;
  -- One open invitation per address: a new one replaces the old.
  update public.invitations i set revoked_at = now()
   where i.business_id = _business_id and lower(i.email) = v_email
     and i.accepted_at is null and i.revoked_at is null;
  insert into public.invitations (business_id, email, role, all_stores, store_ids, invited_by)
  values (_business_id, v_email, _role, coalesce(_all_stores, true), v_store_ids, (select auth.uid()))
  returning * into v_invitation;
  insert into private.invitation_tokens (invitation_id, token_hash)
  values (v_invitation.id, encode(extensions.digest(v_token, 'sha256'), 'hex'));
  return query select v_invitation.id, v_token, v_invitation.expires_at;
end;
$$;
revoke all on function public.create_invitation(uuid,text,text,boolean,uuid[]) from public;
grant execute on function public.create_invitation(uuid,text,text,boolean,uuid[]) to authenticated;

create or replace function public.revoke_invitation(_invitation_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid;
begin
  select i.business_id into v_business from public.invitations i where i.id = _invitation_id;
  perform private.assert_role(v_business, array['owner']);
  update public.invitations i set revoked_at = now()
   where i.id = _invitation_id and i.accepted_at is null and i.revoked_at is null;
  if not found then
    raise exception 'this invitation was already accepted or revoked' using errcode = '22023';
  end if;
end;
$$;
revoke all on function public.revoke_invitation(uuid) from public;
grant execute on function public.revoke_invitation(uuid) to authenticated;

-- The invitation behind a token, for its accept page: who invites, for which role and whether it still works.
create or replace function public.invitation_preview(_token text)
returns table (business_name text, role text, email text, expires_at timestamptz, status text)
language sql
stable
security definer
set search_path = ''
as $$
  select b.name::text, i.role::text, i.email::text, i.expires_at,
         case when i.accepted_at is not null then 'accepted'
              when i.revoked_at is not null then 'revoked'
              when i.expires_at <= now() then 'expired'
              else 'pending' end
    from private.invitation_tokens t
    join public.invitations i on i.id = t.invitation_id
    join public.businesses b on b.id = i.business_id
   where (select auth.uid()) is not null
     and t.token_hash = encode(extensions.digest(coalesce(_token, ''), 'sha256'), 'hex');
$$;
revoke all on function public.invitation_preview(text) from public;
grant execute on function public.invitation_preview(text) to authenticated;

-- The business of a store the caller may use with one of the roles (raises otherwise).
create or replace function private.assert_store_role(_store_id uuid, _roles text[])
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid;
begin
  select s.business_id into v_business from public.stores s where s.id = _store_id and s.archived_at is null;
  if v_business is null then
    raise exception 'no such store' using errcode = '42501';
  end if;
  perform private.assert_role(v_business, _roles);
  if not (v_business in (select private.my_full_access_business_ids())
          or _store_id in (select private.my_listed_store_ids())) then
    raise exception 'permission denied: you do not have access to this store' using errcode = '42501';
  end if;
  return v_business;
end;
$$;
revoke all on function private.assert_store_role(uuid,text[]) from public;

-- The owner hears when someone accepts an invitation (accept_invitation sets accepted_at exactly once).
create or replace function private.notify_invitation_accepted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_owner uuid;
  v_business text;
begin
  if new.accepted_at is null or old.accepted_at is not null then
    return new;
  end if;
  select b.owner_id, b.name into v_owner, v_business from public.businesses b where b.id = new.business_id;
  if v_owner is null or v_owner = new.accepted_by then
    return new;
  end if;
  insert into public.notifications (user_id, kind, title, body, link)
  values (v_owner, 'invitation.accepted', left(format('%s joined %s', new.email, v_business), 200),
          format('They accepted your invitation and joined as %s.', new.role), '/dashboard/business/team');
  return new;
end;
$$;
revoke all on function private.notify_invitation_accepted() from public;

-- The transfer screen's path: the owner types the business name back (case and outer spaces ignored), then
-- transfer_ownership does the work and its audit lines follow; this adds the one line an owner looks for.
create or replace function public.transfer_ownership_confirmed(_business_id uuid, _new_owner uuid, _confirm_name text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_name text;
  v_new_label text;
begin
  perform private.assert_role(_business_id, array['owner']);
  select b.name::text into v_name from public.businesses b where b.id = _business_id;
  if lower(btrim(coalesce(_confirm_name, ''))) <> lower(btrim(v_name)) then
    raise exception 'type the business name exactly to confirm the transfer' using errcode = '22023';
  end if;
  perform public.transfer_ownership(_business_id, _new_owner);
  select coalesce(p.full_name, u.email) into v_new_label
    from auth.users u left join public.profiles p on p.id = u.id where u.id = _new_owner;
  perform private.log_activity(_business_id, null, 'business.ownership_transferred', 'business', _business_id,
    jsonb_build_object('owner_id', v_uid), jsonb_build_object('owner_id', _new_owner, 'owner_label', v_new_label));
end;
$$;
comment on function public.transfer_ownership_confirmed(uuid,uuid,text) is 'Owner only (42501): hands the business to another member after the business name is typed back (22023).';
revoke all on function public.transfer_ownership_confirmed(uuid,uuid,text) from public;
grant execute on function public.transfer_ownership_confirmed(uuid,uuid,text) to authenticated;
grant execute on function public.transfer_ownership_confirmed(uuid,uuid,text) to service_role;

-- log_activity (20261122100000_workspace.sql): the actor is the user id with the account email; the name follows.
create or replace function private.log_activity(
  _business_id uuid, _store_id uuid, _kind text, _entity_type text, _entity_id uuid, _before jsonb, _after jsonb
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor uuid := (select auth.uid());
begin
  -- A business being deleted (its owner's account removed) takes its trail with it: nothing to log.
  if not exists (select 1 from public.businesses b where b.id = _business_id) then
    return;
  end if;
  insert into public.activity (business_id, store_id, actor_id, actor_email, actor_label, kind, entity_type, entity_id,
                               before, after)
  select _business_id, _store_id, v_actor, u.email::text, p.full_name, _kind, _entity_type, _entity_id, _before, _after
    from (select 1) one
    left join auth.users u on u.id = v_actor
    left join public.profiles p on p.id = v_actor;
end;
$$;
comment on function private.log_activity(uuid,uuid,text,text,uuid,jsonb,jsonb) is 'Appends one trail entry as the signed-in user: actor_id and actor_email identify them, actor_label is their name.';
revoke all on function private.log_activity(uuid,uuid,text,text,uuid,jsonb,jsonb) from public;

-- Audit trigger for rows named by another row (a store's price of a variant, a variant's cost, a reorder point):
-- tg_argv[0] is the entity, tg_argv[1] the column that names it. kind = <entity>.<created|updated|deleted>,
-- before and after the whole row. An update that changes nothing but updated_at writes nothing.
create or replace function private.audit_keyed_row()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_entity text := tg_argv[0];
  v_old jsonb := case when tg_op <> 'INSERT' then to_jsonb(old) end;
  v_new jsonb := case when tg_op <> 'DELETE' then to_jsonb(new) end;
  v_row jsonb := coalesce(v_new, v_old);
begin
  if tg_op = 'UPDATE' and (v_old - 'updated_at') = (v_new - 'updated_at') then
    return null;
  end if;
  perform private.log_activity((v_row ->> 'business_id')::uuid, (v_row ->> 'store_id')::uuid,
    v_entity || '.' || case tg_op when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'deleted' end,
    v_entity, (v_row ->> tg_argv[1])::uuid, v_old, v_new);
  return null;
end;
$$;
comment on function private.audit_keyed_row() is 'Trail trigger for store_prices, variant_costs, reorder_points, barcodes and categories: before and after rows.';
revoke all on function private.audit_keyed_row() from public;

-- A draft purchase order's deletion, with its lines: before the delete, while the lines are still there.
create or replace function private.audit_purchase_order_deleted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.log_activity(old.business_id, old.store_id, 'purchase_order.deleted', 'purchase_order', old.id,
    to_jsonb(old) || jsonb_build_object('lines', coalesce((
      select jsonb_agg(jsonb_build_object('variant_id', l.variant_id, 'qty_ordered', l.qty_ordered,
                                          'unit_cost', l.unit_cost) order by l.variant_id)
        from public.purchase_order_lines l where l.purchase_order_id = old.id), '[]'::jsonb)),
    null);
  return old;
end;
$$;
comment on function private.audit_purchase_order_deleted() is 'Trail trigger: a deleted purchase order (drafts only, by policy) with its lines as they were.';
revoke all on function private.audit_purchase_order_deleted() from public;

-- Invitations: each one is an email the inviting screen sends (docs/adr/0105), so creating one spends from the caps.
create or replace function private.invitations_spend_email()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.spend_email(new.business_id, 'invitation');
  return new;
end;
$$;
comment on function private.invitations_spend_email() is 'Trigger on invitations: a new invitation counts as one email against the hourly caps (PT429 past them).';
revoke all on function private.invitations_spend_email() from public;

-- The owner hands the business to another member, who becomes the one owner; the old owner stays as a
-- manager of every store.
-- Issue 26: a caller with an authenticator must have given its code in this session (docs/adr/0207).
create or replace function public.transfer_ownership(_business_id uuid, _new_owner uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
begin
  perform private.assert_aal2_if_enrolled();
  perform private.assert_role(_business_id, array['owner']);
  perform 1 from public.businesses b where b.id = _business_id for update;
  if _new_owner is null or _new_owner = v_uid
     or not exists (select 1 from public.business_members m where m.business_id = _business_id and m.user_id = _new_owner) then
    raise exception 'ownership goes to another member of this business' using errcode = '22023';
  end if;
  update public.business_members m set role = 'manager', all_stores = true
   where m.business_id = _business_id and m.user_id = v_uid;
  update public.business_members m set role = 'owner', all_stores = true
   where m.business_id = _business_id and m.user_id = _new_owner;
  delete from public.member_store_access a where a.business_id = _business_id and a.user_id in (v_uid, _new_owner);
  update public.businesses b set owner_id = _new_owner where b.id = _business_id;
end;
$$;
revoke all on function public.transfer_ownership(uuid,uuid) from public;
grant execute on function public.transfer_ownership(uuid,uuid) to authenticated;

-- Businesses the caller belongs to that are not suspended (optionally only with one of the given roles).
create or replace function private.my_business_ids(_roles text[] default null)
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select m.business_id
    from public.business_members m
    join public.businesses b on b.id = m.business_id
   where m.user_id = (select auth.uid())
     and b.suspended_at is null
     and not (m.role = 'manager' and b.managers_need_two_factor and coalesce((select auth.jwt()) ->> 'aal', '') <> 'aal2')
     and (_roles is null or m.role = any (_roles));
$$;
revoke all on function private.my_business_ids(text[]) from public;
grant execute on function private.my_business_ids(text[]) to authenticated;

-- Store access comes in two halves, so a policy never needs to list every store of a business (and a store
-- inserted by the statement itself is visible to its own RETURNING): businesses where the caller uses every
-- store (owners, all_stores members), and the stores listed for the other members.
create or replace function private.my_full_access_business_ids()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select m.business_id
    from public.business_members m
    join public.businesses b on b.id = m.business_id
   where m.user_id = (select auth.uid())
     and b.suspended_at is null
     and not (m.role = 'manager' and b.managers_need_two_factor and coalesce((select auth.jwt()) ->> 'aal', '') <> 'aal2')
     and (m.role = 'owner' or m.all_stores);
$$;
revoke all on function private.my_full_access_business_ids() from public;
grant execute on function private.my_full_access_business_ids() to authenticated;

create or replace function private.my_listed_store_ids()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select a.store_id
    from public.member_store_access a
    join public.business_members m on m.business_id = a.business_id and m.user_id = a.user_id
    join public.businesses b on b.id = a.business_id
   where a.user_id = (select auth.uid())
     and b.suspended_at is null
     and not (m.role = 'manager' and b.managers_need_two_factor and coalesce((select auth.jwt()) ->> 'aal', '') <> 'aal2')
     and not (m.role = 'owner' or m.all_stores);
$$;
revoke all on function private.my_listed_store_ids() from public;
grant execute on function private.my_listed_store_ids() to authenticated;

-- The caller's role in a business (null when not a member or the business is suspended).
create or replace function private.my_role(_business_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select m.role::text
    from public.business_members m
    join public.businesses b on b.id = m.business_id and b.suspended_at is null
   where m.business_id = _business_id and m.user_id = (select auth.uid())
     and not (m.role = 'manager' and b.managers_need_two_factor and coalesce((select auth.jwt()) ->> 'aal', '') <> 'aal2');
$$;
revoke all on function private.my_role(uuid) from public;
grant execute on function private.my_role(uuid) to authenticated;

-- The owner turns the requirement on or off; the owner must have given a second factor in this session (one cannot
-- require of others what one has not set up). The business audit trigger records the change.
create or replace function public.set_managers_need_two_factor(_business_id uuid, _required boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner']);
  perform private.assert_aal2();
  if _required is null then
    raise exception 'say whether managers need two-factor sign-in' using errcode = '22023';
  end if;
  update public.businesses b set managers_need_two_factor = _required
   where b.id = _business_id and b.managers_need_two_factor is distinct from _required;
end;
$$;
revoke all on function public.set_managers_need_two_factor(uuid,boolean) from public;
grant execute on function public.set_managers_need_two_factor(uuid,boolean) to authenticated;

-- The packs a business type starts with.
create or replace function private.default_packs(_business_type text)
returns text[]
language sql
immutable
set search_path = ''
as $$
  select case _business_type
    when 'Grocery' then array['scale_barcodes', 'lots_fefo']
    when 'Medical' then array['lots_fefo', 'prescriptions']
    when 'Electronics' then array['serials']
    when 'Clothing' then array['size_grid']
    else array[]::text[] end;
$$;
revoke all on function private.default_packs(text) from public;

create or replace function private.businesses_default_packs()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.packs is null or new.packs = '{}' then
    new.packs := private.default_packs(new.type);
  end if;
  return new;
end;
$$;
revoke all on function private.businesses_default_packs() from public;

-- The owner turns one pack on or off. Packs are kept sorted so the audit trail's before/after compare plainly.
create or replace function public.set_business_pack(_business_id uuid, _pack text, _enabled boolean)
returns text[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_packs text[];
begin
  perform private.assert_role(_business_id, array['owner']);
  if _pack is null or not (_pack = any (private.pack_names())) then
    raise exception 'no such pack: choose one of %', array_to_string(private.pack_names(), ', ') using errcode = '22023';
  end if;
  if _enabled is null then
    raise exception 'say whether the pack is on or off' using errcode = '22023';
  end if;
  update public.businesses b
     set packs = (select coalesce(array_agg(p order by p), '{}')
                    from unnest(array_remove(b.packs, _pack) || case when _enabled then array[_pack] else '{}'::text[] end) p)
   where b.id = _business_id
  returning b.packs into v_packs;
  return v_packs;
end;
$$;
revoke all on function public.set_business_pack(uuid,text,boolean) from public;
grant execute on function public.set_business_pack(uuid,text,boolean) to authenticated;

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
revoke all on function private.erase_customers(uuid,uuid[]) from public;

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

create or replace function public.invitation_email_facts(_token text, _email text)
returns table (business_name text, role text, inviter_name text, expires_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select b.name::text, i.role::text,
         coalesce(nullif(btrim(p.full_name), ''), nullif(btrim(u.raw_user_meta_data ->> 'full_name'), '')),
         i.expires_at
    from private.invitation_tokens t
    join public.invitations i on i.id = t.invitation_id
    join public.businesses b on b.id = i.business_id
    left join public.profiles p on p.id = i.invited_by
    left join auth.users u on u.id = i.invited_by
   where t.token_hash = encode(extensions.digest(coalesce(_token, ''), 'sha256'), 'hex')
     and lower(i.email) = lower(btrim(coalesce(_email, '')))
     and i.accepted_at is null and i.revoked_at is null and i.expires_at > now();
$$;
comment on function public.invitation_email_facts(text,text) is 'For the auth email of an invitation (local auth server, hosted send-email hook): business, role and inviter of a pending invitation to this address. Service role only.';
revoke all on function public.invitation_email_facts(text,text) from public;
grant execute on function public.invitation_email_facts(text,text) to service_role;

-- The job as the function builds it (service role): business, tables and counts, state.
create or replace function public.business_export_job(_export_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('id', e.id, 'business_id', e.business_id, 'business_name', b.name, 'requested_at', e.requested_at,
                            'state', e.state, 'tables', e.tables, 'rows_total', e.rows_total)
    from private.business_exports e join public.businesses b on b.id = e.business_id
   where e.id = _export_id;
$$;
revoke all on function public.business_export_job(uuid) from public;
grant execute on function public.business_export_job(uuid) to service_role;

-- The owner's progress bar: the state of one of their exports (null for anyone else).
create or replace function public.business_export_status(_export_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('state', e.state, 'rows_done', e.rows_done, 'rows_total', e.rows_total,
                            'requested_at', e.requested_at, 'finished_at', e.finished_at)
    from private.business_exports e
   where e.id = _export_id and private.my_role(e.business_id) = 'owner';
$$;
revoke all on function public.business_export_status(uuid) from public;
grant execute on function public.business_export_status(uuid) to authenticated;

-- The business export leaves out the tables whose rows are one person's own (review of 20261202110000): RLS shows a
-- support ticket, a billing history entry or a payment method only to the person it belongs to (and the admins),
-- so the owner must not get other people's through the export either. Their own are in their personal data export
-- (export_my_personal_data). Ticket replies, notifications, sign-ins and sessions have no business_id and were
-- never exported.
create or replace function private.business_export_tables()
returns table (table_name text, key_columns text[])
language sql
stable
security definer
set search_path = ''
as $$
  select c.relname::text,
         (select array_agg(a.attname::text order by k.ord)
            from pg_catalog.pg_index i
            cross join unnest(i.indkey::int2[]) with ordinality as k (attnum, ord)
            join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
           where i.indrelid = c.oid and i.indisprimary)
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
   where n.nspname = 'public' and c.relkind in ('r', 'p')
     and (c.relname = 'businesses'
          or exists (select 1 from pg_catalog.pg_attribute a
                      where a.attrelid = c.oid and a.attname = 'business_id' and not a.attisdropped))
     -- One person's own rows (RLS: that person or an admin), never the business's.
     and c.relname not in ('support_tickets', 'billing_history', 'payment_methods')
   order by 1;
$$;
revoke all on function private.business_export_tables() from public;

-- The business's files in Storage (service role: the business-deletion function removes them through the Storage
-- API): product pictures, logos and exports under `<business id>/`, support attachments under `<ticket id>/` of its
-- tickets (docs/adr/0231). Read here because the API's list is one folder level at a time. The folder is matched as
-- a prefix, also written as a byte-order range ('<id>/' <= name < '<id>0') so Storage's name_prefix_search index
-- (text_pattern_ops) serves it in this function's generic plan, where a LIKE on a parameter is no index condition.
create or replace function public.business_erasure_uploads(_business_id uuid, _limit integer default 500)
returns table (bucket_id text, name text)
language sql
stable
security definer
set search_path = ''
as $$
  select f.bucket_id, f.name
    from (select o.bucket_id, o.name from storage.objects o
           where o.bucket_id in ('product-images', 'product-thumbnails', 'business-logos', 'exports')
             and o.name like _business_id::text || '/%'
             and o.name ~>=~ (_business_id::text || '/') and o.name ~<~ (_business_id::text || '0')
          union all
          select o.bucket_id, o.name from public.support_tickets t
            join storage.objects o
              on o.bucket_id = 'support-attachments'
             and o.name like t.id::text || '/%'
             and o.name ~>=~ (t.id::text || '/') and o.name ~<~ (t.id::text || '0')
           where t.business_id = _business_id) f
   order by f.bucket_id, f.name
   limit greatest(least(coalesce(_limit, 500), 1000), 1);
$$;
revoke all on function public.business_erasure_uploads(uuid,integer) from public;
grant execute on function public.business_erasure_uploads(uuid,integer) to service_role;

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
revoke all on function public.accept_invitation(text) from public;
grant execute on function public.accept_invitation(text) to authenticated;

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
revoke all on function public.set_member_role(uuid,uuid,text,boolean,uuid[]) from public;
grant execute on function public.set_member_role(uuid,uuid,text,boolean,uuid[]) to authenticated;

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
revoke all on function public.remove_member(uuid,uuid) from public;
grant execute on function public.remove_member(uuid,uuid) to authenticated;

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
revoke all on function public.export_customer(uuid) from public;
grant execute on function public.export_customer(uuid) to authenticated;

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
revoke all on function public.request_business_deletion(uuid,text) from public;
grant execute on function public.request_business_deletion(uuid,text) to authenticated;

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
revoke all on function public.cancel_business_deletion(uuid) from public;
grant execute on function public.cancel_business_deletion(uuid) to authenticated;

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
revoke all on function public.business_export_rows(uuid,text,jsonb,integer) from public;
grant execute on function public.business_export_rows(uuid,text,jsonb,integer) to service_role;

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
revoke all on function public.business_export_progress(uuid,bigint,text,text) from public;
grant execute on function public.business_export_progress(uuid,bigint,text,text) to service_role;

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
revoke all on function public.business_export_file(uuid) from public;
grant execute on function public.business_export_file(uuid) to authenticated;

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
revoke all on function public.business_deletion_record(uuid,text,integer) from public;
grant execute on function public.business_deletion_record(uuid,text,integer) to service_role;

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
revoke all on function public.business_erasure_step(uuid,integer) from public;
grant execute on function public.business_erasure_step(uuid,integer) to service_role;

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
revoke all on function public.begin_business_export(uuid) from public;
grant execute on function public.begin_business_export(uuid) to authenticated;

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
revoke all on function public.business_export_csv_rows(uuid,text,text,integer) from public;
grant execute on function public.business_export_csv_rows(uuid,text,text,integer) to service_role;

create or replace function private.customer_import_rows(_business_id uuid, _rows jsonb, _first_row int)
returns table (row_index int, customer_id uuid, action text, changes jsonb, message text)
language sql
stable
security definer
set search_path = ''
as $$
  with r as (
    select (x.ord)::int + _first_row - 1 as n,
           nullif(btrim(coalesce(x.value ->> 'name', '')), '') as name,
           nullif(btrim(coalesce(x.value ->> 'email', '')), '') as email,
           nullif(btrim(coalesce(x.value ->> 'phone', '')), '') as phone
      from jsonb_array_elements(_rows) with ordinality as x (value, ord)
  ),
  -- The business's customers by email (lower case); several customers may share one, which an import cannot pick.
  e as (
    select lower(c.email::text) as key, array_agg(c.id order by c.created_at, c.id) as ids
      from public.customers c
     where c.business_id = _business_id and c.email is not null and c.erased_at is null
     group by 1
  ),
  k as (
    select r.*, e.ids, ex.id as exact_id,
           case when r.email is null then null else min(r.n) over (partition by lower(r.email)) end as first_email_row,
           coalesce(ex.id, case when cardinality(e.ids) = 1 then e.ids[1] end, ne.id) as match_id
      from r
      left join e on e.key = lower(r.email)
      -- The customer with this email that the row repeats as it is (name, and phone when given): an exported row
      -- even where several customers share the email.
      left join lateral (select c.id from public.customers c
                          where c.id = any (e.ids) and c.name::text = r.name and (r.phone is null or c.phone::text = r.phone)
                          order by c.created_at, c.id limit 1) ex on true
      -- Without an email: the customer without one whose name and phone are the row's (an exported row).
      left join lateral (select c.id from public.customers c
                          where c.business_id = _business_id and c.email is null and c.name::text = r.name
                            and c.phone::text is not distinct from r.phone
                          order by c.created_at, c.id limit 1) ne on r.email is null and r.name is not null
  ),
  checked as (
    select k.*, case
      when k.name is null then 'the name is missing'
      when char_length(k.name) not between 2 and 100 then 'the name must be 2 to 100 characters'
      when k.email is not null and (char_length(k.email) > 255 or k.email !~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$') then
        format('"%s" is not an email address', left(k.email, 60))
      when k.phone is not null and char_length(k.phone) not between 10 and 20 then
        'the phone number must be 10 to 20 characters'
      -- Rows sharing an email no customer has create one customer each (the export writes shared emails so); rows
      -- sharing a customer's email may not both change it.
      when k.first_email_row < k.n and k.exact_id is null and k.ids is not null then
        format('this email is also on row %s', k.first_email_row)
      when cardinality(k.ids) > 1 and k.exact_id is null then
        format('%s customers have this email: edit them on the Customers page, or leave the row out', cardinality(k.ids))
    end as message
      from k
  )
  select ch.n, ch.match_id,
         case when ch.message is not null then 'error' when ch.match_id is null then 'new'
              when d.changes = '{}'::jsonb then 'same' else 'update' end,
         coalesce(d.changes, '{}'::jsonb), ch.message
    from checked ch
    left join lateral (
      select coalesce(jsonb_object_agg(f.field, f.change), '{}'::jsonb) as changes
        from public.customers c
        cross join lateral (values
          ('name', case when ch.name <> c.name::text then jsonb_build_object('old', c.name, 'new', ch.name) end),
          -- An empty cell changes nothing (as in the catalog import).
          ('phone', case when ch.phone is not null and ch.phone is distinct from c.phone::text
                         then jsonb_build_object('old', c.phone, 'new', ch.phone) end)
        ) as f (field, change)
       where c.id = ch.match_id and f.change is not null) d on ch.match_id is not null
   order by ch.n;
$$;
comment on function private.customer_import_rows(uuid,jsonb,integer) is 'For each row of a customer file: the customer of the business it updates (by email, or by name and phone when the row has no email), its action (new, update, same, error), what it changes ({field: {old, new}}) and the row''s problem. Read by public.preview_customer_import and applied by public.import_customers.';
revoke all on function private.customer_import_rows(uuid,jsonb,integer) from public;

-- The arguments both calls check the same way.
create or replace function private.customer_import_args(_business_id uuid, _rows jsonb, _first_row int)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if jsonb_typeof(_rows) is distinct from 'array' or jsonb_array_length(_rows) = 0 then
    raise exception 'the file has no rows' using errcode = '22023';
  end if;
  if jsonb_array_length(_rows) > 2000 then
    raise exception 'import at most 2,000 customers at once: split the file' using errcode = '22023';
  end if;
  if exists (select 1 from jsonb_array_elements(_rows) x where jsonb_typeof(x) <> 'object') then
    raise exception 'each row is an object of the file''s columns' using errcode = '22023';
  end if;
  if _first_row is null or _first_row < 1 or _first_row > 1000000 then
    raise exception 'the first row number must be between 1 and 1,000,000' using errcode = '22023';
  end if;
end;
$$;
revoke all on function private.customer_import_args(uuid,jsonb,integer) from public;

-- What a customer file would do: each row new, update (with its changes) or same, and each row's problem. Writes
-- nothing.
create or replace function public.preview_customer_import(_business_id uuid, _rows jsonb, _first_row int default 1)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.customer_import_args(_business_id, _rows, _first_row);
  return jsonb_build_object(
    'rows', coalesce((select jsonb_agg(jsonb_build_object('row_index', c.row_index, 'action', c.action, 'changes', c.changes)
                                       order by c.row_index)
                        from private.customer_import_rows(_business_id, _rows, _first_row) c where c.message is null), '[]'::jsonb),
    'problems', coalesce((select jsonb_agg(jsonb_build_object('row_index', c.row_index, 'message', c.message) order by c.row_index)
                            from private.customer_import_rows(_business_id, _rows, _first_row) c where c.message is not null), '[]'::jsonb));
end;
$$;
comment on function public.preview_customer_import(uuid,jsonb,integer) is 'Owners and managers: what a customer file (up to 2,000 rows of name, email, phone) would do in their business: each row new, update ({field: {old, new}}) or same, and each failing row''s message. Writes nothing.';
revoke all on function public.preview_customer_import(uuid,jsonb,integer) from public;
grant execute on function public.preview_customer_import(uuid,jsonb,integer) to authenticated;

-- Imports a customer file, all or nothing: any row's problem returns every problem and writes nothing; otherwise
-- each new row is created and each update writes only what changes (the customers' audit trigger records each write
-- under the person importing).
create or replace function public.import_customers(_business_id uuid, _rows jsonb, _first_row int default 1)
returns table (row_index int, message text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_problems jsonb;
  r record;
  v_n int;
begin
  perform private.customer_import_args(_business_id, _rows, _first_row);
  select coalesce(jsonb_agg(jsonb_build_object('row', c.row_index, 'message', c.message) order by c.row_index), '[]'::jsonb)
    into v_problems
    from private.customer_import_rows(_business_id, _rows, _first_row) c where c.message is not null;
  if jsonb_array_length(v_problems) = 0 then
    begin
      for r in select c.*, x.value as v
                 from private.customer_import_rows(_business_id, _rows, _first_row) c
                 join jsonb_array_elements(_rows) with ordinality as x (value, ord) on (x.ord)::int + _first_row - 1 = c.row_index
                where c.action in ('new', 'update') order by c.row_index loop
        v_n := r.row_index;
        if r.action = 'new' then
          insert into public.customers (business_id, name, email, phone)
          values (_business_id, btrim(r.v ->> 'name'), nullif(btrim(coalesce(r.v ->> 'email', '')), ''),
                  nullif(btrim(coalesce(r.v ->> 'phone', '')), ''));
        else
          update public.customers c
             set name = case when r.changes ? 'name' then r.changes -> 'name' ->> 'new' else c.name end,
                 phone = case when r.changes ? 'phone' then r.changes -> 'phone' ->> 'new' else c.phone end
           where c.id = r.customer_id and c.business_id = _business_id and c.erased_at is null;
        end if;
      end loop;
    exception
      -- What the check could not see (a domain's rule, a change made meanwhile): nothing of the file is written.
      when check_violation or not_null_violation or string_data_right_truncation then
        v_problems := jsonb_build_array(jsonb_build_object('row', v_n, 'message', 'a value is not allowed here: ' || sqlerrm));
    end;
  end if;
  return query select (p ->> 'row')::int, p ->> 'message' from jsonb_array_elements(v_problems) p order by 1;
end;
$$;
comment on function public.import_customers(uuid,jsonb,integer) is 'Owners and managers import a customer file (up to 2,000 rows) into their business, all or nothing: rows whose email is a customer''s update its name and phone, other rows create (a row without an email that matches a customer without one by name and phone changes nothing). Returns each failing row''s message; nothing is written when there is one.';
revoke all on function public.import_customers(uuid,jsonb,integer) from public;
grant execute on function public.import_customers(uuid,jsonb,integer) to authenticated;

-- ==== Triggers ============================================================================================

create trigger businesses_set_updated_at before update on public.businesses
  for each row execute function public.set_updated_at();

create trigger stores_set_updated_at before update on public.stores
  for each row execute function public.set_updated_at();

create trigger registers_set_updated_at before update on public.registers
  for each row execute function public.set_updated_at();

create trigger activity_append_only before update or delete on public.activity
  for each row execute function private.activity_is_append_only();

create trigger audit_business after update on public.businesses
  for each row execute function private.audit_row('business');

create trigger audit_store after insert or update on public.stores
  for each row execute function private.audit_row('store');

create trigger audit_register after insert or update on public.registers
  for each row execute function private.audit_row('register');

create trigger audit_member after insert or update or delete on public.business_members
  for each row execute function private.audit_row('member');

create trigger audit_invitation after insert or update on public.invitations
  for each row execute function private.audit_row('invitation');

create trigger stores_guard before insert or update of time_zone, archived_at on public.stores
  for each row execute function private.stores_guard();

create trigger on_auth_user_created_business after insert on auth.users
  for each row execute function private.on_auth_user_created_business();

create trigger invitations_notify_accepted after update of accepted_at on public.invitations
  for each row execute function private.notify_invitation_accepted();

create trigger stores_refund_limit_guard before update of offline_refund_limit on public.stores
  for each row when (old.offline_refund_limit is distinct from new.offline_refund_limit)
  execute function private.stores_refund_limit_guard();

create trigger invitations_spend_email before insert on public.invitations
  for each row execute function private.invitations_spend_email();

create trigger businesses_default_packs before insert on public.businesses
  for each row execute function private.businesses_default_packs();

create trigger read_only_guard before insert or update or delete on private.business_deletions
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on private.business_erasure_proofs
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on private.invitation_tokens
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.business_members
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.businesses
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.invitations
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.member_store_access
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.registers
  for each statement execute function private.read_only_guard();

create trigger read_only_guard before insert or update or delete on public.stores
  for each statement execute function private.read_only_guard();

-- ==== Policies ============================================================================================

create policy "businesses: members read, the owner also when suspended" on public.businesses
  for select to authenticated
  using (id in (select private.my_business_ids()) or owner_id = (select auth.uid()));

create policy "businesses: owner updates" on public.businesses
  for update to authenticated
  using (id in (select private.my_business_ids(array['owner'])))
  with check (id in (select private.my_business_ids(array['owner'])));

create policy "business_members: team managers read all, members their own" on public.business_members
  for select to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager']))
         or (user_id = (select auth.uid()) and business_id in (select private.my_business_ids())));

create policy "stores: members read the stores they may use" on public.stores
  for select to authenticated
  using (business_id in (select private.my_full_access_business_ids())
         or id in (select private.my_listed_store_ids()));

create policy "stores: owners create" on public.stores
  for insert to authenticated
  with check (business_id in (select private.my_business_ids(array['owner'])));

create policy "stores: owners and managers edit stores they may use" on public.stores
  for update to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])))
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "member_store_access: team managers read all, members their own" on public.member_store_access
  for select to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager']))
         or (user_id = (select auth.uid()) and business_id in (select private.my_business_ids())));

create policy "registers: members read the registers of stores they may use" on public.registers
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
              or store_id in (select private.my_listed_store_ids())));

create policy "registers: owners and managers create in stores they may use" on public.registers
  for insert to authenticated
  with check ((business_id in (select private.my_full_access_business_ids())
              or store_id in (select private.my_listed_store_ids()))
              and business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "registers: owners and managers edit in stores they may use" on public.registers
  for update to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
              or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])))
  with check ((business_id in (select private.my_full_access_business_ids())
              or store_id in (select private.my_listed_store_ids()))
              and business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "invitations: owners read" on public.invitations
  for select to authenticated
  using (business_id in (select private.my_business_ids(array['owner'])));

create policy "activity: owners read all, managers their stores" on public.activity
  for select to authenticated
  using (business_id in (select private.my_business_ids(array['owner']))
         or (business_id in (select private.my_business_ids(array['manager']))
             and entity_type <> 'invitation'
             and (store_id is null or (business_id in (select private.my_full_access_business_ids())
              or store_id in (select private.my_listed_store_ids()))))
         or (kind in ('business.suspended', 'business.unsuspended') and (select public.is_admin((select auth.uid())))));

create policy "notifications: own read" on public.notifications
  for select to authenticated using (user_id = (select auth.uid()));

create policy "notifications: own mark read" on public.notifications
  for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

create policy "refund_reviews: owners and managers read in their stores" on public.refund_reviews
  for select to authenticated
  using ((business_id in (select private.my_full_access_business_ids())
          or store_id in (select private.my_listed_store_ids()))
         and business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy desktop_heartbeats_insert_member on public.desktop_heartbeats
  for insert to authenticated
  with check (business_id in (select private.my_business_ids()));

-- ==== Run once on apply ===================================================================================

do $$
begin
  raise notice 'retention purge: %', private.schedule_retention_purge();
end;
$$;
