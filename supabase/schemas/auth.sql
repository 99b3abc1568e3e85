-- Auth-related: what hangs off auth.users and auth.sessions: profiles, the platform admin role
-- (private.user_roles, is_admin), sign-in history and active sessions kept by triggers on auth.sessions.
-- Invariants: every user has exactly one profile (created by the auth.users trigger); users only read their
-- login_activity and active_sessions, which the auth.sessions triggers write; a user is an admin only through
-- private.user_roles.
--
-- Written by scripts/schema-extract.ts from the migrations and kept equal to them by
-- tests/hosted/schema-files.test.ts: change an object here, then generate its migration (README, Contributing).

-- Function bodies are checked when they run, not when created: the files need no order among functions.
set check_function_bodies = off;

-- ==== Tables: columns, constraints, row level security, grants and comments ===============================

create table private.user_roles (
  user_id uuid not null,
  role text not null,
  created_at timestamp with time zone default now() not null,
  constraint user_roles_pkey primary key (user_id, role),
  constraint user_roles_role_check check ((role = 'admin'::text)),
  constraint user_roles_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table private.user_roles enable row level security;
comment on table private.user_roles is 'Who is an admin. Nobody reads or writes it through the API; is_admin() reads it as its owner.';

create table public.profiles (
  id uuid not null,
  full_name text,
  phone text,
  business_name text,
  business_type text,
  business_email text,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint profiles_pkey primary key (id),
  constraint profiles_business_email_check check (((business_email is null) or ((char_length(business_email) <= 255) and (business_email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'::text)))),
  constraint profiles_business_name_check check (((business_name is null) or ((char_length(btrim(business_name)) >= 2) and (char_length(btrim(business_name)) <= 100)))),
  constraint profiles_business_type_check check ((business_type = any (array['Grocery'::text, 'Clothing'::text, 'Medical'::text, 'Electronics'::text, 'Others'::text]))),
  constraint profiles_full_name_check check (((full_name is null) or ((char_length(btrim(full_name)) >= 2) and (char_length(btrim(full_name)) <= 100)))),
  constraint profiles_phone_check check (((phone is null) or ((char_length(btrim(phone)) >= 10) and (char_length(btrim(phone)) <= 20)))),
  constraint profiles_id_fkey foreign key (id) references auth.users(id) on delete cascade
);
alter table public.profiles enable row level security;
comment on table public.profiles is 'Owner reads own row and updates full_name and phone only; admins read all; anon nothing. Inserted by handle_new_user.';
grant delete, insert, select, update on table public.profiles to service_role;
grant select on table public.profiles to authenticated;
grant update (full_name, phone) on table public.profiles to authenticated;

create table public.login_activity (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  device text not null,
  login_at timestamp with time zone default now() not null,
  location text,
  ip_address inet,
  constraint login_activity_pkey primary key (id),
  constraint login_activity_device_check check (((char_length(device) >= 1) and (char_length(device) <= 200))),
  constraint login_activity_location_check check (((location is null) or (char_length(location) <= 200))),
  constraint login_activity_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table public.login_activity enable row level security;
comment on table public.login_activity is 'Owner reads own rows; written by the auth.sessions trigger only.';
grant delete, insert, select, update on table public.login_activity to service_role;
grant select on table public.login_activity to authenticated;

create table public.active_sessions (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  session_id uuid not null,
  device text not null,
  location text,
  ip_address inet,
  last_active timestamp with time zone default now() not null,
  is_current boolean default false not null,
  created_at timestamp with time zone default now() not null,
  two_factor boolean default false not null,
  constraint active_sessions_pkey primary key (id),
  constraint active_sessions_session_id_key unique (session_id),
  constraint active_sessions_device_check check (((char_length(device) >= 1) and (char_length(device) <= 200))),
  constraint active_sessions_location_check check (((location is null) or (char_length(location) <= 200))),
  constraint active_sessions_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table public.active_sessions enable row level security;
comment on table public.active_sessions is 'Owner reads own rows; kept in step with auth.sessions by triggers.';
comment on column public.active_sessions.two_factor is 'The session passed a second factor (auth.sessions.aal = aal2).';
grant delete, insert, select, update on table public.active_sessions to service_role;
grant select on table public.active_sessions to authenticated;

create table private.account_security_events (
  id bigint generated always as identity not null,
  user_id uuid not null,
  actor_id uuid,
  kind text not null,
  at timestamp with time zone default now() not null,
  constraint account_security_events_pkey primary key (id),
  constraint account_security_events_kind_check check ((kind = any (array['mfa.recovery_codes_created'::text, 'mfa.recovery_code_used'::text, 'mfa.reset_by_admin'::text, 'account.deleted'::text])))
);
alter table private.account_security_events enable row level security;
comment on table private.account_security_events is 'Written by definer functions only; no API role reads it directly.';

create table private.mfa_recovery_codes (
  id bigint generated always as identity not null,
  user_id uuid not null,
  code_hash text not null,
  created_at timestamp with time zone default now() not null,
  used_at timestamp with time zone,
  constraint mfa_recovery_codes_pkey primary key (id),
  constraint mfa_recovery_codes_user_hash_key unique (user_id, code_hash),
  constraint mfa_recovery_codes_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table private.mfa_recovery_codes enable row level security;
comment on table private.mfa_recovery_codes is 'Hashed one-time recovery codes; only the mfa_* definer functions read or write them.';

-- ==== Indexes =============================================================================================

create index profiles_created_at_idx on public.profiles (created_at desc, id);

create index profiles_full_name_trgm_idx on public.profiles using gin (full_name extensions.gin_trgm_ops);

create index login_activity_user_login_at_idx on public.login_activity (user_id, login_at desc);

create index active_sessions_user_last_active_idx on public.active_sessions (user_id, last_active desc);

create index account_security_events_user_at_idx on private.account_security_events (user_id, at desc);

-- ==== Functions ===========================================================================================

-- Raises insufficient_privilege unless the caller is an admin: the guard of every admin function.
create or replace function private.assert_admin()
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin((select auth.uid())) then
    raise exception 'permission denied: administrators only' using errcode = '42501';
  end if;
end;
$$;
revoke all on function private.assert_admin() from public;
grant execute on function private.assert_admin() to authenticated;

-- Creates the profile from the sign-up metadata in the same transaction as the user, so no sign-up can
-- leave a user without a profile. Values that break a rule are left empty rather than failing sign-up.
create or replace function public.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  v_full_name text := btrim(coalesce(meta ->> 'full_name', meta ->> 'name', ''));
  v_business_name text := btrim(coalesce(meta ->> 'business_name', ''));
  v_business_type text := meta ->> 'business_type';
  v_phone text := btrim(coalesce(meta ->> 'phone', ''));
  v_business_email text := btrim(coalesce(meta ->> 'business_email', ''));
begin
  insert into public.profiles (id, full_name, business_name, business_type, phone, business_email)
  values (
    new.id,
    case when char_length(v_full_name) between 2 and 100 then v_full_name end,
    case when char_length(v_business_name) between 2 and 100 then v_business_name end,
    case when v_business_type in ('Grocery', 'Clothing', 'Medical', 'Electronics', 'Others') then v_business_type end,
    case when char_length(v_phone) between 10 and 20 then v_phone end,
    case when char_length(v_business_email) <= 255
          and v_business_email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' then v_business_email end
  );
  return new;
end;
$$;
revoke all on function public.handle_new_user() from public;

-- A short device label from a user agent: "Chrome on Windows", "Storewise Desktop on macOS".
create or replace function public.device_label(_user_agent text)
returns text
language sql
immutable
set search_path = ''
as $$
  select
    case
      when _user_agent is null or _user_agent = '' then 'Unknown device'
      else
        (case
          when _user_agent ~* 'storewise|electron' then 'Storewise Desktop'
          when _user_agent ~* 'edg/' then 'Edge'
          when _user_agent ~* 'opr/|opera' then 'Opera'
          when _user_agent ~* 'firefox/' then 'Firefox'
          when _user_agent ~* 'chrom(e|ium)/' then 'Chrome'
          when _user_agent ~* 'safari/' then 'Safari'
          when _user_agent ~* 'node|undici|supabase' then 'API client'
          else 'Browser'
        end)
        || coalesce(' on ' || (case
          when _user_agent ~* 'windows' then 'Windows'
          when _user_agent ~* 'iphone|ipad' then 'iOS'
          when _user_agent ~* 'mac os|macintosh' then 'macOS'
          when _user_agent ~* 'android' then 'Android'
          when _user_agent ~* 'cros' then 'ChromeOS'
          when _user_agent ~* 'linux' then 'Linux'
        end), '')
    end;
$$;
revoke all on function public.device_label(text) from public;

-- Where a sign-in came from, as far as the server knows without a geo-IP service.
create or replace function public.location_label(_ip inet)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when _ip is null then null
    when _ip << '127.0.0.0/8'::inet or _ip = '::1'::inet then 'This computer'
    when _ip << '10.0.0.0/8'::inet or _ip << '172.16.0.0/12'::inet or _ip << '192.168.0.0/16'::inet
      or _ip << 'fc00::/7'::inet then 'Local network'
    else null
  end;
$$;
revoke all on function public.location_label(inet) from public;

create or replace function public.on_auth_session_ended()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.active_sessions where session_id = old.id;
  return old;
end;
$$;
revoke all on function public.on_auth_session_ended() from public;

-- active_sessions.created_at is the sign-in time the Security screen shows next to each session (several
-- sessions from one browser share device, place and "Active now"; when each began tells them apart). The
-- insert trigger left it at its default, the moment the row was written, which is the sign-in only when
-- GoTrue writes auth.sessions live: a session restored or seeded with an older created_at showed a sign-in
-- later than its last activity. Copy the session's own created_at, as login_activity.login_at already does.
-- No new table, column or grant: the function keeps its owner and privileges (create or replace).
create or replace function public.on_auth_session_created()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_device text := public.device_label(new.user_agent);
  v_location text := public.location_label(new.ip);
  v_signed_in timestamptz := coalesce(new.created_at, now());
begin
  insert into public.login_activity (user_id, device, login_at, location, ip_address)
  values (new.user_id, v_device, v_signed_in, v_location, new.ip);
  update public.active_sessions set is_current = false where user_id = new.user_id and is_current;
  insert into public.active_sessions (user_id, session_id, device, location, ip_address, last_active, is_current, created_at)
  values (new.user_id, new.id, v_device, v_location, new.ip, v_signed_in, true, v_signed_in);
  return new;
end;
$$;
revoke all on function public.on_auth_session_created() from public;

-- The refresh trigger also copies aal: GoTrue raises a session to aal2 on verify and lowers it when the factor
-- is removed, both as an update of auth.sessions.
create or replace function public.on_auth_session_refreshed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.active_sessions set is_current = false
   where user_id = new.user_id and is_current and session_id <> new.id;
  update public.active_sessions
     set last_active = coalesce(new.refreshed_at::timestamptz, new.updated_at, now()), is_current = true,
         two_factor = coalesce(new.aal::text = 'aal2', false)
   where session_id = new.id;
  return new;
end;
$$;
revoke all on function public.on_auth_session_refreshed() from public;

-- Raises insufficient_privilege unless the caller's token passed a second factor. Restrictive policies can
-- compare auth.jwt()->>'aal' directly; definer functions (which bypass RLS) call this.
create or replace function private.assert_aal2()
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if coalesce((select auth.jwt()) ->> 'aal', '') <> 'aal2' then
    raise exception 'a second factor is needed: verify your authenticator code first (aal2)' using errcode = '42501';
  end if;
end;
$$;
revoke all on function private.assert_aal2() from public;
grant execute on function private.assert_aal2() to authenticated;

-- True when the user has a confirmed authenticator (GoTrue's auth.mfa_factors, status verified).
create or replace function private.has_verified_factor(_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from auth.mfa_factors f where f.user_id = _user_id and f.status = 'verified')
$$;
revoke all on function private.has_verified_factor(uuid) from public;
grant execute on function private.has_verified_factor(uuid) to authenticated;

-- The rule for billing, team roles, exports and deletion (docs/adr/0207): a caller with an authenticator must
-- have given its code in this session; a stale password-only token is refused.
create or replace function private.assert_aal2_if_enrolled()
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if private.has_verified_factor((select auth.uid())) then
    perform private.assert_aal2();
  end if;
end;
$$;
revoke all on function private.assert_aal2_if_enrolled() from public;
grant execute on function private.assert_aal2_if_enrolled() to authenticated;

-- Admin access (every admin policy and, through private.assert_admin, every admin_* function) needs aal2 once
-- the admin has an authenticator. An admin without one is let through: with GoTrue, a password-only session may
-- enrol a first factor and reach aal2 by itself, so refusing it would add friction, not protection; the admin
-- panel asks such admins to set one up instead (docs/adr/0207).
create or replace function public.is_admin(_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select _user_id is not null
     and _user_id = (select auth.uid())
     and exists (
       select 1 from private.user_roles r
       where r.user_id = _user_id and r.role = 'admin'
     )
     and (coalesce((select auth.jwt()) ->> 'aal', '') = 'aal2' or not private.has_verified_factor(_user_id));
$$;
revoke all on function public.is_admin(uuid) from public;
grant execute on function public.is_admin(uuid) to authenticated;
grant execute on function public.is_admin(uuid) to service_role;

-- For the admin panel's notice: the caller is an admin who has not set up an authenticator yet.
create or replace function public.admin_without_second_factor()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from private.user_roles r where r.user_id = (select auth.uid()) and r.role = 'admin')
     and not private.has_verified_factor((select auth.uid()))
$$;
revoke all on function public.admin_without_second_factor() from public;
grant execute on function public.admin_without_second_factor() to authenticated;

-- The form a user may type a code in: case, spaces and hyphens do not matter.
create or replace function private.mfa_recovery_code_hash(_code text)
returns text
language sql
immutable
set search_path = ''
as $$
  select encode(extensions.digest(lower(regexp_replace(coalesce(_code, ''), '[\s-]', '', 'g')), 'sha256'), 'hex')
$$;
revoke all on function private.mfa_recovery_code_hash(text) from public;

-- Ten new codes for the caller, replacing any earlier ones; shown once, never readable again. Needs a session
-- that passed the second factor (right after enrolment it has).
create or replace function public.mfa_new_recovery_codes()
returns text[]
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
  v_alphabet constant text := 'abcdefghijkmnpqrstuvwxyz23456789';
  v_codes text[] := '{}';
  v_bytes bytea;
  v_code text;
begin
  if v_user is null then
    raise exception 'sign in first' using errcode = '42501';
  end if;
  perform private.assert_aal2();
  if not exists (select 1 from auth.mfa_factors f where f.user_id = v_user and f.status = 'verified') then
    raise exception 'set up an authenticator app before making recovery codes' using errcode = '22023';
  end if;
  delete from private.mfa_recovery_codes where user_id = v_user;
  for i in 1..10 loop
    v_bytes := extensions.gen_random_bytes(10);
    v_code := '';
    for j in 0..9 loop
      v_code := v_code || substr(v_alphabet, (get_byte(v_bytes, j) & 31) + 1, 1);
    end loop;
    v_code := substr(v_code, 1, 5) || '-' || substr(v_code, 6, 5);
    insert into private.mfa_recovery_codes (user_id, code_hash) values (v_user, private.mfa_recovery_code_hash(v_code));
    v_codes := v_codes || v_code;
  end loop;
  insert into private.account_security_events (user_id, actor_id, kind) values (v_user, v_user, 'mfa.recovery_codes_created');
  return v_codes;
end;
$$;
revoke all on function public.mfa_new_recovery_codes() from public;
grant execute on function public.mfa_new_recovery_codes() to authenticated;

-- How many unused codes the caller has left (the Security page shows it).
create or replace function public.mfa_recovery_codes_left()
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select count(*)::integer from private.mfa_recovery_codes c
   where c.user_id = (select auth.uid()) and c.used_at is null
$$;
revoke all on function public.mfa_recovery_codes_left() from public;
grant execute on function public.mfa_recovery_codes_left() to authenticated;

-- Spends one code of the user; true when it was unused. Service role only: the mfa-recover Edge Function calls
-- it, then removes the user's factors through the auth admin API (so the same path works on hosted).
create or replace function public.mfa_redeem_recovery_code(_user_id uuid, _code text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if _user_id is null or _code is null or char_length(_code) > 64 then
    return false;
  end if;
  update private.mfa_recovery_codes c set used_at = now()
   where c.user_id = _user_id and c.used_at is null and c.code_hash = private.mfa_recovery_code_hash(_code);
  if not found then
    return false;
  end if;
  delete from private.mfa_recovery_codes c where c.user_id = _user_id;
  insert into private.account_security_events (user_id, actor_id, kind) values (_user_id, _user_id, 'mfa.recovery_code_used');
  return true;
end;
$$;
revoke all on function public.mfa_redeem_recovery_code(uuid,text) from public;
grant execute on function public.mfa_redeem_recovery_code(uuid,text) to service_role;

-- The businesses a user owns that still hold personal data: any not yet erased (retained and purged ones are
-- fiscal records only; their owner_id stays, the soft-deleted auth row keeps the id).
create or replace function private.owns_live_business(_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.businesses b
                  where b.owner_id = _user_id
                    and not exists (select 1 from private.business_deletions d
                                     where d.business_id = b.id and d.state in ('retained', 'purged')));
$$;
revoke all on function private.owns_live_business(uuid) from public;

create or replace function public.account_deletion_check()
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
begin
  if v_user is null then
    raise exception 'sign in first' using errcode = '42501';
  end if;
  perform private.assert_aal2_if_enrolled();
  if private.owns_live_business(v_user) then
    raise exception 'you own a business: transfer it to another member or delete the business first'
      using errcode = 'P0001';
  end if;
  return v_user;
end;
$$;
revoke all on function public.account_deletion_check() from public;
grant execute on function public.account_deletion_check() to authenticated;

-- One JSON document of what Storewise holds about the caller as a person: the login (no password, token or
-- authenticator secret), profile, memberships, sign-ins, sessions, notifications, tickets with their replies, plan,
-- billing history, payment methods and the trail entries they are the actor of. A business's own data is the
-- owner's business export, not this. Needs the
-- second factor of a user who has one.
create or replace function public.export_my_personal_data()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
begin
  if v_user is null then
    raise exception 'sign in first' using errcode = '42501';
  end if;
  perform private.assert_aal2_if_enrolled();
  return jsonb_build_object(
    'exported_at', now(),
    'format', 'storewise-personal-data/1',
    'login', (select jsonb_build_object('id', u.id, 'email', u.email, 'phone', u.phone, 'created_at', u.created_at,
                                        'last_sign_in_at', u.last_sign_in_at, 'email_confirmed_at', u.email_confirmed_at)
                from auth.users u where u.id = v_user),
    'authenticators', (select coalesce(jsonb_agg(jsonb_build_object('name', f.friendly_name, 'type', f.factor_type,
                                                                     'status', f.status, 'created_at', f.created_at)
                                                 order by f.created_at), '[]'::jsonb)
                         from auth.mfa_factors f where f.user_id = v_user),
    'profile', (select to_jsonb(p) from public.profiles p where p.id = v_user),
    'memberships', (select coalesce(jsonb_agg(jsonb_build_object('business', b.name, 'role', m.role,
                                                                 'all_stores', m.all_stores, 'since', m.created_at)), '[]'::jsonb)
                      from public.business_members m join public.businesses b on b.id = m.business_id
                     where m.user_id = v_user),
    'login_activity', (select coalesce(jsonb_agg(to_jsonb(t) order by t.login_at desc), '[]'::jsonb)
                         from public.login_activity t where t.user_id = v_user),
    'active_sessions', (select coalesce(jsonb_agg(to_jsonb(t) order by t.last_active desc), '[]'::jsonb)
                          from public.active_sessions t where t.user_id = v_user),
    'notifications', (select coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb) from public.notifications t where t.user_id = v_user),
    'support_tickets', (select coalesce(jsonb_agg(to_jsonb(t) || jsonb_build_object('replies',
                                  (select coalesce(jsonb_agg(to_jsonb(r) order by r.created_at), '[]'::jsonb)
                                     from public.ticket_replies r where r.ticket_id = t.id))), '[]'::jsonb)
                          from public.support_tickets t where t.user_id = v_user),
    'plan', (select to_jsonb(t) from public.user_plans t where t.user_id = v_user),
    'billing_history', (select coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb) from public.billing_history t where t.user_id = v_user),
    'payment_methods', (select coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb) from public.payment_methods t where t.user_id = v_user),
    -- What the caller did in the businesses they belong(ed) to: the trail entries they are the actor of.
    'own_activity', (select coalesce(jsonb_agg(jsonb_build_object('business', b.name, 'at', a.at, 'kind', a.kind,
                                                                  'entity_type', a.entity_type, 'entity_id', a.entity_id)
                                               order by a.at desc), '[]'::jsonb)
                       from (select x.* from public.activity x where x.actor_id = v_user order by x.at desc limit 5000) a
                       join public.businesses b on b.id = a.business_id)
  );
end;
$$;
revoke all on function public.export_my_personal_data() from public;
grant execute on function public.export_my_personal_data() to authenticated;

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
revoke all on function public.erase_member_personal_data(uuid) from public;
grant execute on function public.erase_member_personal_data(uuid) to service_role;

-- ==== Triggers ============================================================================================

create trigger profiles_set_updated_at before update on public.profiles
  for each row execute function public.set_updated_at();

create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();

create trigger on_auth_session_created after insert on auth.sessions
  for each row execute function public.on_auth_session_created();

create trigger on_auth_session_refreshed after update of refreshed_at, updated_at on auth.sessions
  for each row execute function public.on_auth_session_refreshed();

create trigger on_auth_session_ended after delete on auth.sessions
  for each row execute function public.on_auth_session_ended();

-- GoTrue may change aal without touching updated_at, and the platform owns auth.sessions (its existing trigger
-- cannot be dropped and recreated here): a second trigger on aal runs the same idempotent function.
create trigger on_auth_session_aal_changed after update of aal on auth.sessions
  for each row execute function public.on_auth_session_refreshed();

create trigger read_only_guard before insert or update or delete on public.profiles
  for each statement execute function private.read_only_guard();

-- ==== Policies ============================================================================================

create policy "profiles: owner or admin reads" on public.profiles
  for select to authenticated
  using (id = (select auth.uid()) or (select public.is_admin((select auth.uid()))));

create policy "profiles: owner updates own" on public.profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

create policy "login_activity: owner reads" on public.login_activity
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy "active_sessions: owner reads" on public.active_sessions
  for select to authenticated
  using (user_id = (select auth.uid()));
