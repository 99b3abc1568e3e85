-- Issue 26, two-factor sign-in (docs/adr/0205-0207): sessions that passed a second factor are shown as such,
-- one-time recovery codes (stored hashed, touched only by the definer functions below), an admin reset of a
-- user's two-factor written to the account security trail, and the aal2 guard admin and sensitive functions use.
-- GoTrue owns auth.mfa_factors / auth.mfa_challenges (hosted and the local stack's bootstrap).

-- ==== Sessions: which ones are two-factor ================================================================

alter table public.active_sessions add column two_factor boolean not null default false;
comment on column public.active_sessions.two_factor is 'The session passed a second factor (auth.sessions.aal = aal2).';

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

-- GoTrue may change aal without touching updated_at, and the platform owns auth.sessions (its existing trigger
-- cannot be dropped and recreated here): a second trigger on aal runs the same idempotent function.
create trigger on_auth_session_aal_changed after update of aal on auth.sessions
  for each row execute function public.on_auth_session_refreshed();

-- ==== The aal2 guard ======================================================================================

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

-- ==== Sensitive work needs the second factor of those who have one =======================================

-- Team role changes, removals, ownership transfers and plan changes: the bodies as they were (workspace.sql,
-- billing.sql), with private.assert_aal2_if_enrolled() first.

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
    raise exception 'not a member of this business' using errcode = 'P0002';
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
    raise exception 'not a member of this business' using errcode = 'P0002';
  elsif v_current = 'owner' then
    raise exception 'the owner cannot be removed; transfer ownership first' using errcode = '42501';
  end if;
  delete from public.business_members m where m.business_id = _business_id and m.user_id = _user_id;
end;
$$;
revoke all on function public.remove_member(uuid,uuid) from public;
grant execute on function public.remove_member(uuid,uuid) to authenticated;

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

-- choose_plan (20261123100100): a first plan starts a 7-day trial, unless a business the caller owns already had
-- one (it was taken over from an owner who trialed it); switching plans keeps status and dates, as before.
-- Issue 26: a caller with an authenticator must have given its code in this session (docs/adr/0207).
create or replace function public.choose_plan(_plan_name text)
returns public.user_plans
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_price numeric(12, 2) := private.plan_price(_plan_name);
  v_plan public.user_plans;
begin
  perform private.assert_aal2_if_enrolled();
  if v_uid is null then
    raise exception 'sign in to choose a plan' using errcode = '42501';
  end if;
  if v_price is null then
    raise exception 'unknown plan: %', coalesce(_plan_name, 'null')
      using errcode = 'P0001', hint = 'Choose Starter, Growth or Pro; Enterprise is sold by our sales team.';
  end if;
  if not exists (select 1 from public.user_plans up where up.user_id = v_uid)
     and exists (select 1 from private.business_trials t join public.businesses b on b.id = t.business_id
                  where b.owner_id = v_uid) then
    raise exception 'your business already had its free trial, so choosing a plan cannot start another'
      using errcode = 'SW002',
            hint = 'Paid plans are not sold in the app yet: contact support to subscribe.';
  end if;
  insert into public.user_plans as p (user_id, plan_name, price, billing_cycle, status, auto_renew,
                                      started_at, next_billing_date)
  values (v_uid, _plan_name, v_price, 'annual', 'trialing', true, now(), now() + interval '7 days')
  on conflict (user_id) do update
    set plan_name = excluded.plan_name,
        price = excluded.price
  returning * into v_plan;
  return v_plan;
end;
$$;
comment on function public.choose_plan(text) is 'The signed-in user picks Starter, Growth or Pro: a first choice starts a 7-day trial (once per business, SW002 otherwise); later choices change plan and price only.';
revoke all on function public.choose_plan(text) from public;
grant execute on function public.choose_plan(text) to authenticated;

-- ==== Owners can require two-factor sign-in for managers ===================================================

-- With managers_need_two_factor on, a manager whose session has not given an authenticator code (aal1) counts as
-- no member of that business: the membership helpers every policy and role check uses leave it out, as they leave
-- out a suspended business. The manager sets up two-factor under Security (no business needed) and signs in again.
alter table public.businesses add column managers_need_two_factor boolean not null default false;
comment on column public.businesses.managers_need_two_factor is 'Managers must sign in with a second factor (aal2) to act in this business; set by the owner with set_managers_need_two_factor.';

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
revoke all on function public.set_managers_need_two_factor(uuid, boolean) from public;
grant execute on function public.set_managers_need_two_factor(uuid, boolean) to authenticated;

-- ==== The account security trail ===========================================================================

-- Who did what to a login's two-factor sign-in. No foreign key: the entry outlives the account it is about.
create table private.account_security_events (
  id bigint generated always as identity not null,
  user_id uuid not null,
  actor_id uuid,
  kind text not null,
  at timestamptz not null default now(),
  constraint account_security_events_pkey primary key (id),
  constraint account_security_events_kind_check check (kind in (
    'mfa.recovery_codes_created', 'mfa.recovery_code_used', 'mfa.reset_by_admin', 'account.deleted'))
);
alter table private.account_security_events enable row level security;
comment on table private.account_security_events is 'Written by definer functions only; no API role reads it directly.';
create index account_security_events_user_at_idx on private.account_security_events (user_id, at desc);

-- ==== Recovery codes ======================================================================================

-- One-time codes that let a user who lost the authenticator back in (GoTrue has none). Only the sha256 of a
-- code is kept; codes carry 50 random bits, so a fast hash is enough (no password-style stretching needed).
create table private.mfa_recovery_codes (
  id bigint generated always as identity not null,
  user_id uuid not null,
  code_hash text not null,
  created_at timestamptz not null default now(),
  used_at timestamptz,
  constraint mfa_recovery_codes_pkey primary key (id),
  constraint mfa_recovery_codes_user_hash_key unique (user_id, code_hash),
  constraint mfa_recovery_codes_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table private.mfa_recovery_codes enable row level security;
comment on table private.mfa_recovery_codes is 'Hashed one-time recovery codes; only the mfa_* definer functions read or write them.';

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
revoke all on function public.mfa_redeem_recovery_code(uuid, text) from public;
grant execute on function public.mfa_redeem_recovery_code(uuid, text) to service_role;

-- ==== Admin reset ==========================================================================================

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
    raise exception 'no such user' using errcode = 'P0002';
  end if;
  delete from auth.mfa_factors f where f.user_id = _user_id;
  get diagnostics v_removed = row_count;
  delete from private.mfa_recovery_codes c where c.user_id = _user_id;
  insert into private.account_security_events (user_id, actor_id, kind)
  values (_user_id, (select auth.uid()), 'mfa.reset_by_admin');
  return v_removed;
end;
$$;
revoke all on function public.admin_reset_two_factor(uuid) from public;
grant execute on function public.admin_reset_two_factor(uuid) to authenticated;

-- ==== A team member deletes their own login (docs/adr/0208) ==============================================

-- Asked with the user's own token before anything is erased: the caller's id, or 42501 when a user with an
-- authenticator has not given its code in this session; P0001 when the caller still owns a business (ownership
-- moves by transfer, or the business is deleted, before the owner's login can go).
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
  if exists (select 1 from public.businesses b where b.owner_id = v_user) then
    raise exception 'you own a business: transfer it to another member or delete the business first'
      using errcode = 'P0001';
  end if;
  return v_user;
end;
$$;
revoke all on function public.account_deletion_check() from public;
grant execute on function public.account_deletion_check() to authenticated;

-- Service role only (the delete-account Edge Function, which then soft-deletes the auth user through GoTrue's admin
-- API): memberships and store access end, the profile keeps only "Former staff member", recovery codes go. Sales,
-- shifts, stock movements, refunds and the activity trail keep the user's id (the auth row stays, soft-deleted).
-- The trail entry is written first, so an interrupted deletion still shows it was asked for; every step is
-- idempotent, so the function can simply be called again.
create or replace function public.erase_member_personal_data(_user_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if _user_id is null or not exists (select 1 from auth.users u where u.id = _user_id) then
    raise exception 'no such user' using errcode = 'P0002';
  end if;
  if exists (select 1 from public.businesses b where b.owner_id = _user_id) then
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

-- ==== A user exports their own personal data (GDPR Art. 15 and 20; docs/adr/0208) ===========================

-- One JSON document of what Storewise holds about the caller as a person: the login (no password, token or
-- authenticator secret), profile, memberships, sign-ins, sessions, notifications, tickets with their replies, plan,
-- billing history and payment methods. A business's own data is the owner's business export, not this. Needs the
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
    'payment_methods', (select coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb) from public.payment_methods t where t.user_id = v_user)
  );
end;
$$;
revoke all on function public.export_my_personal_data() from public;
grant execute on function public.export_my_personal_data() to authenticated;
