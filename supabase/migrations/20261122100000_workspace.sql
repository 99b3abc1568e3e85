-- The business workspace (issue 11): businesses, their members and roles, stores, registers, invitations
-- and the activity trail, with plan limits the database enforces.
--
-- Who may do what is written in docs/permissions.md; every cell is enforced here:
-- * reads go through row level security using small security definer helpers in schema private, called
--   as (select private.fn()) so PostgreSQL evaluates them once per statement, not once per row;
-- * writes that need more than a row check (team changes, invitations, ownership, suspension) are
--   security definer functions; the tables grant the API roles only the columns the screens may write;
-- * activity is written only by triggers and these functions and nobody can change or delete it.
-- Hosted Supabase no longer grants new tables and functions to the API roles, so every grant is explicit.

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

-- ---------------------------------------------------------------------------------------------------
-- businesses: the tenant. owner_id mirrors the one business_members row with role 'owner'.
create table public.businesses (
  id uuid primary key default gen_random_uuid(),
  name public.entity_name not null,
  type public.business_type not null default 'Others',
  email public.email_address,
  phone public.phone_number,
  owner_id uuid not null references auth.users (id) on delete cascade,
  suspended_at timestamptz,
  suspended_reason public.short_text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.businesses enable row level security;
comment on table public.businesses is
  'Members read their (unsuspended) businesses; the owner also reads a suspended one to see why, and updates '
  'name, type, email and phone. Created at sign-up by a trigger; suspended through admin functions only.';
create index businesses_owner_id_idx on public.businesses (owner_id);
create index businesses_created_at_idx on public.businesses (created_at desc, id);
create index businesses_name_trgm_idx on public.businesses using gin (name extensions.gin_trgm_ops);
create trigger businesses_set_updated_at before update on public.businesses
  for each row execute function public.set_updated_at();

-- business_members: who belongs to which business, with which role and store access.
create table public.business_members (
  business_id uuid not null references public.businesses (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  role public.member_role not null,
  all_stores boolean not null default true,
  created_at timestamptz not null default now(),
  primary key (business_id, user_id)
);
alter table public.business_members enable row level security;
comment on table public.business_members is
  'Owners and managers read their business''s team; every member reads its own row. Written only by the '
  'team functions (accept_invitation, set_member_role, remove_member, transfer_ownership).';
create index business_members_user_id_idx on public.business_members (user_id);
-- Exactly one owner per business: at most one here, and create/transfer always write one.
create unique index business_members_one_owner_idx on public.business_members (business_id) where role = 'owner';

-- stores
create table public.stores (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null references public.businesses (id) on delete cascade,
  name public.entity_name not null,
  address public.short_text,
  phone public.phone_number,
  time_zone text not null default 'UTC',
  currency public.currency_code not null default 'USD',
  tax_inclusive boolean not null default false,
  default_tax_rate public.tax_rate not null default 0,
  receipt_header public.short_text,
  receipt_footer public.short_text,
  archived_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, business_id)
);
alter table public.stores enable row level security;
comment on table public.stores is
  'Members read the stores they may access; owners create and archive (never delete); owners and managers '
  'edit the settings of stores they may access. Creation is limited by the plan (private.plan_limits).';
create index stores_business_id_idx on public.stores (business_id, created_at);
create trigger stores_set_updated_at before update on public.stores
  for each row execute function public.set_updated_at();

-- member_store_access: the stores a member without all_stores may use.
create table public.member_store_access (
  business_id uuid not null,
  user_id uuid not null,
  store_id uuid not null,
  primary key (business_id, user_id, store_id),
  foreign key (business_id, user_id) references public.business_members (business_id, user_id) on delete cascade,
  foreign key (store_id, business_id) references public.stores (id, business_id) on delete cascade
);
alter table public.member_store_access enable row level security;
comment on table public.member_store_access is
  'Same readers as business_members; written only by the team functions.';
create index member_store_access_store_idx on public.member_store_access (store_id, business_id);

-- registers: the tills of a store; the point of sale mints receipt numbers as prefix + sequence.
create table public.registers (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null,
  store_id uuid not null,
  name public.entity_name not null,
  receipt_prefix public.receipt_prefix not null,
  archived_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (store_id, business_id) references public.stores (id, business_id) on delete cascade,
  unique (business_id, receipt_prefix)
);
alter table public.registers enable row level security;
comment on table public.registers is
  'Members read the registers of stores they may access; owners and managers of such a store create, rename '
  'and archive them (never delete).';
create index registers_store_idx on public.registers (store_id, business_id);
create trigger registers_set_updated_at before update on public.registers
  for each row execute function public.set_updated_at();

-- invitations: the token itself is never stored; its SHA-256 lives in private.invitation_tokens.
create table public.invitations (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null references public.businesses (id) on delete cascade,
  email public.email_address not null,
  role public.member_role not null,
  all_stores boolean not null default true,
  store_ids uuid[] not null default '{}',
  invited_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '7 days',
  accepted_at timestamptz,
  accepted_by uuid references auth.users (id) on delete set null,
  revoked_at timestamptz
);
alter table public.invitations enable row level security;
comment on table public.invitations is
  'Owners read their business''s invitations; written only by create_invitation, revoke_invitation and '
  'accept_invitation.';
create index invitations_business_idx on public.invitations (business_id, created_at desc);
create index invitations_invited_by_idx on public.invitations (invited_by);
create index invitations_accepted_by_idx on public.invitations (accepted_by);

create table private.invitation_tokens (
  invitation_id uuid primary key references public.invitations (id) on delete cascade,
  token_hash text not null unique
);
alter table private.invitation_tokens enable row level security;
comment on table private.invitation_tokens is 'SHA-256 of each invitation token; read only by the invitation functions.';
revoke all on table private.invitation_tokens from public, anon, authenticated;

-- activity: the audit trail. Append-only; written by triggers and functions as their owner.
create table public.activity (
  id bigint generated always as identity primary key,
  business_id uuid not null references public.businesses (id) on delete cascade,
  store_id uuid,
  actor_id uuid,
  actor_label text,
  kind text not null,
  entity_type text not null,
  entity_id uuid,
  before jsonb,
  after jsonb,
  at timestamptz not null default now()
);
alter table public.activity enable row level security;
comment on table public.activity is
  'Owners read their business''s trail; managers the entries of the business and of stores they may access. '
  'Nobody inserts, updates or deletes through the API; triggers and security definer functions append.';
create index activity_business_at_idx on public.activity (business_id, at desc, id desc);
create index activity_business_actor_idx on public.activity (business_id, actor_id, at desc);
create index activity_business_store_idx on public.activity (business_id, store_id, at desc);
create index activity_business_kind_idx on public.activity (business_id, kind, at desc);

-- Append-only even for the table owner's own code: only the cascade of a deleted business removes rows.
create or replace function private.activity_is_append_only()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' and not exists (select 1 from public.businesses b where b.id = old.business_id) then
    return old;
  end if;
  raise exception 'the activity trail is append-only' using errcode = '42501';
end;
$$;
revoke all on function private.activity_is_append_only() from public, anon, authenticated;
create trigger activity_append_only before update or delete on public.activity
  for each row execute function private.activity_is_append_only();

-- ---------------------------------------------------------------------------------------------------
-- Membership helpers for the policies. Security definer so they read business_members without recursing
-- into its own policies; each answers only about the caller.

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
     and (_roles is null or m.role = any (_roles));
$$;

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
     and (m.role = 'owner' or m.all_stores);
$$;

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
     and not (m.role = 'owner' or m.all_stores);
$$;

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
   where m.business_id = _business_id and m.user_id = (select auth.uid());
$$;

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

revoke all on function private.my_business_ids(text[]) from public, anon;
revoke all on function private.my_full_access_business_ids() from public, anon;
revoke all on function private.my_listed_store_ids() from public, anon;
revoke all on function private.my_role(uuid) from public, anon;
revoke all on function private.assert_role(uuid, text[]) from public, anon;
grant execute on function private.my_business_ids(text[]) to authenticated;
grant execute on function private.my_full_access_business_ids() to authenticated;
grant execute on function private.my_listed_store_ids() to authenticated;
grant execute on function private.my_role(uuid) to authenticated;
grant execute on function private.assert_role(uuid, text[]) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Plan limits. Free = no plan, canceled or expired. A trial counts as its plan. Null means unlimited.
-- The catalog reuses max_products for its own limit trigger.
create or replace function private.plan_limits(_business_id uuid)
returns table (plan text, max_stores int, max_products int, max_members int)
language sql
stable
security definer
set search_path = ''
as $$
  select p.plan,
         case p.plan when 'Free' then 1 when 'Starter' then 1 when 'Growth' then 3 when 'Pro' then 10 end,
         case p.plan when 'Free' then 25 when 'Starter' then 100 when 'Growth' then 300 end,
         case p.plan when 'Free' then 1 end
    from (
      select coalesce((
        select up.plan_name
          from public.businesses b
          join public.user_plans up on up.user_id = b.owner_id
         where b.id = _business_id and up.status in ('trialing', 'active', 'past_due')
      ), 'Free') as plan
    ) p;
$$;
revoke all on function private.plan_limits(uuid) from public, anon, authenticated;

-- Raises SW001 (HTTP 400) when the business cannot have one more of _what. Takes the business row lock
-- first, so two concurrent creations are counted one after the other and cannot both pass the limit.
create or replace function private.assert_plan_allows(_business_id uuid, _what text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_limits record;
  v_used bigint;
  v_max int;
begin
  perform 1 from public.businesses b where b.id = _business_id for update;
  select * into v_limits from private.plan_limits(_business_id);
  if _what = 'stores' then
    v_max := v_limits.max_stores;
    select count(*) into v_used from public.stores s where s.business_id = _business_id and s.archived_at is null;
  elsif _what = 'members' then
    v_max := v_limits.max_members;
    select count(*) into v_used from public.business_members m where m.business_id = _business_id;
  else
    raise exception 'unknown limit %', _what;
  end if;
  if v_max is not null and v_used >= v_max then
    raise exception 'plan limit reached: the % plan allows % %', v_limits.plan, v_max,
        case when _what = 'members' then 'person (the owner alone)' else _what end
      using errcode = 'SW001',
            detail = format('%s:%s/%s', _what, v_used, v_max),
            hint = case when _what = 'members' then 'Choose a paid plan to invite your team.'
                        else 'Archive a store or upgrade your plan to add another.' end;
  end if;
end;
$$;
revoke all on function private.assert_plan_allows(uuid, text) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Activity writer: every entry of the trail goes through here.
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
  insert into public.activity (business_id, store_id, actor_id, actor_label, kind, entity_type, entity_id, before, after)
  values (_business_id, _store_id, v_actor,
          (select coalesce(p.full_name, u.email) from auth.users u left join public.profiles p on p.id = u.id
            where u.id = v_actor),
          _kind, _entity_type, _entity_id, _before, _after);
end;
$$;
revoke all on function private.log_activity(uuid, uuid, text, text, uuid, jsonb, jsonb) from public, anon, authenticated;

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
revoke all on function private.audit_row() from public, anon, authenticated;

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
revoke all on function private.stores_guard() from public, anon, authenticated;
create trigger stores_guard before insert or update of time_zone, archived_at on public.stores
  for each row execute function private.stores_guard();

-- ---------------------------------------------------------------------------------------------------
-- Grants and policies. Reads and writes through the API are narrowed to columns, then to rows.
revoke all on table public.businesses, public.business_members, public.member_store_access, public.stores,
  public.registers, public.invitations, public.activity from public, anon, authenticated;
-- The service role (back office) has the usual rights; on activity the append-only trigger still refuses
-- any update or delete, whoever asks.
grant select, insert, update, delete on table public.businesses, public.business_members, public.member_store_access,
  public.stores, public.registers, public.invitations, public.activity to service_role;

grant select on table public.businesses to authenticated;
grant update (name, type, email, phone) on table public.businesses to authenticated;
create policy "businesses: members read, the owner also when suspended" on public.businesses
  for select to authenticated
  using (id in (select private.my_business_ids()) or owner_id = (select auth.uid()));
create policy "businesses: owner updates" on public.businesses
  for update to authenticated
  using (id in (select private.my_business_ids(array['owner'])))
  with check (id in (select private.my_business_ids(array['owner'])));

grant select on table public.business_members to authenticated;
create policy "business_members: team managers read all, members their own" on public.business_members
  for select to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager']))
         or (user_id = (select auth.uid()) and business_id in (select private.my_business_ids())));

grant select on table public.member_store_access to authenticated;
create policy "member_store_access: team managers read all, members their own" on public.member_store_access
  for select to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager']))
         or (user_id = (select auth.uid()) and business_id in (select private.my_business_ids())));

grant select on table public.stores to authenticated;
grant insert (business_id, name, address, phone, time_zone, currency, tax_inclusive, default_tax_rate,
              receipt_header, receipt_footer) on table public.stores to authenticated;
grant update (name, address, phone, time_zone, currency, tax_inclusive, default_tax_rate, receipt_header,
              receipt_footer, archived_at) on table public.stores to authenticated;
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

grant select on table public.registers to authenticated;
grant insert (business_id, store_id, name, receipt_prefix) on table public.registers to authenticated;
grant update (name, receipt_prefix, archived_at) on table public.registers to authenticated;
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

grant select on table public.invitations to authenticated;
create policy "invitations: owners read" on public.invitations
  for select to authenticated
  using (business_id in (select private.my_business_ids(array['owner'])));

grant select on table public.activity to authenticated;
create policy "activity: owners read all, managers their stores" on public.activity
  for select to authenticated
  using (business_id in (select private.my_business_ids(array['owner']))
         or (business_id in (select private.my_business_ids(array['manager']))
             and (store_id is null or (business_id in (select private.my_full_access_business_ids())
              or store_id in (select private.my_listed_store_ids())))));

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
revoke all on function private.create_business_for(uuid, jsonb, text) from public, anon, authenticated;

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
revoke all on function private.on_auth_user_created_business() from public, anon, authenticated;
create trigger on_auth_user_created_business after insert on auth.users
  for each row execute function private.on_auth_user_created_business();

select private.create_business_for(
  u.id,
  jsonb_build_object('business_name', p.business_name, 'business_type', p.business_type,
                     'business_email', p.business_email, 'phone', p.phone),
  coalesce(p.full_name || '''s business', ''))
  from auth.users u
  left join public.profiles p on p.id = u.id
 where not exists (select 1 from public.businesses b where b.owner_id = u.id);
