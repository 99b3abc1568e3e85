-- Storewise core schema. Runs unchanged on hosted Supabase and on the local stack (supabase/local).
-- It assumes only what hosted Supabase provides: schema auth (auth.users, auth.sessions, auth.uid()),
-- schema extensions, and the roles anon, authenticated and service_role.
--
-- Grants: hosted Supabase's default privileges give anon and authenticated every right on new tables in
-- public. Each table below therefore revokes everything first and grants back exactly what the screens
-- need; row level security then narrows that to the caller's own rows.

create extension if not exists pg_trgm with schema extensions;

-- Private schema: not exposed through the data API; holds the admin roles and the admin totals.
create schema if not exists private;
revoke all on schema private from public, anon, authenticated;

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
revoke all on function public.set_updated_at() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Admin roles: outside the data API; only security definer functions read it.
create table private.user_roles (
  user_id uuid not null references auth.users (id) on delete cascade,
  role text not null check (role in ('admin')),
  created_at timestamptz not null default now(),
  primary key (user_id, role)
);
alter table private.user_roles enable row level security;
comment on table private.user_roles is
  'Who is an admin. Nobody reads or writes it through the API; is_admin() reads it as its owner.';

-- True when _user_id is an admin. Callers may only ask about themselves, so the function cannot be
-- used to discover who the admins are.
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
     );
$$;
revoke all on function public.is_admin(uuid) from public, anon;
grant execute on function public.is_admin(uuid) to authenticated, service_role;

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
revoke all on function private.assert_admin() from public, anon;
grant usage on schema private to authenticated;
grant execute on function private.assert_admin() to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- profiles: one row per user, id = auth user id (see docs/adr). Created by handle_new_user.
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  full_name text check (full_name is null or char_length(btrim(full_name)) between 2 and 100),
  phone text check (phone is null or char_length(btrim(phone)) between 10 and 20),
  business_name text check (business_name is null or char_length(btrim(business_name)) between 2 and 100),
  business_type text check (business_type in ('Grocery', 'Clothing', 'Medical', 'Electronics', 'Others')),
  business_email text check (
    business_email is null
    or (char_length(business_email) <= 255 and business_email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$')
  ),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.profiles enable row level security;
comment on table public.profiles is
  'Owner reads own row and updates full_name and phone only; admins read all; anon nothing. Inserted by handle_new_user.';

create trigger profiles_set_updated_at before update on public.profiles
  for each row execute function public.set_updated_at();

create index profiles_created_at_idx on public.profiles (created_at desc, id);
create index profiles_full_name_trgm_idx on public.profiles using gin (full_name extensions.gin_trgm_ops);

revoke all on table public.profiles from anon, authenticated;
grant select on table public.profiles to authenticated;
grant update (full_name, phone) on table public.profiles to authenticated;

create policy "profiles: owner or admin reads" on public.profiles
  for select to authenticated
  using (id = (select auth.uid()) or (select public.is_admin((select auth.uid()))));
create policy "profiles: owner updates own" on public.profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

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
revoke all on function public.handle_new_user() from public, anon, authenticated;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();

-- ---------------------------------------------------------------------------------------------------
-- user_plans: at most one plan per user. Written only by choose_plan (and billing back office).
create table public.user_plans (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null unique references auth.users (id) on delete cascade,
  plan_name text not null check (plan_name in ('Free', 'Starter', 'Growth', 'Pro', 'Enterprise')),
  price numeric(12, 2) not null default 0 check (price >= 0),
  billing_cycle text not null default 'annual' check (billing_cycle in ('monthly', 'annual')),
  status text not null default 'trialing'
    check (status in ('trialing', 'active', 'past_due', 'canceled', 'expired')),
  auto_renew boolean not null default true,
  started_at timestamptz not null default now(),
  next_billing_date timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.user_plans enable row level security;
comment on table public.user_plans is
  'Owner reads own plan and updates auto_renew only; plans are chosen through choose_plan(); admins read all.';

create trigger user_plans_set_updated_at before update on public.user_plans
  for each row execute function public.set_updated_at();
create index user_plans_created_at_idx on public.user_plans (created_at desc, id);

revoke all on table public.user_plans from anon, authenticated;
grant select on table public.user_plans to authenticated;
grant update (auto_renew) on table public.user_plans to authenticated;

create policy "user_plans: owner or admin reads" on public.user_plans
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin((select auth.uid()))));
create policy "user_plans: owner updates own" on public.user_plans
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

-- A signed-in owner picks a self-service plan: the first choice starts a 7-day trial of the annual plan.
-- Prices live here, not in the browser, so nobody can choose their own price.
create or replace function public.choose_plan(_plan_name text)
returns public.user_plans
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_price numeric(12, 2);
  v_plan public.user_plans;
begin
  if v_uid is null then
    raise exception 'sign in to choose a plan' using errcode = '42501';
  end if;
  v_price := case _plan_name when 'Starter' then 9.99 when 'Growth' then 29.99 when 'Pro' then 99.99 end;
  if v_price is null then
    raise exception 'unknown plan: %', coalesce(_plan_name, 'null')
      using errcode = 'P0001', hint = 'Choose Starter, Growth or Pro; Enterprise is sold by our sales team.';
  end if;
  insert into public.user_plans as p (user_id, plan_name, price, billing_cycle, status, auto_renew,
                                      started_at, next_billing_date)
  values (v_uid, _plan_name, v_price, 'annual', 'trialing', true, now(), now() + interval '7 days')
  -- The free trial is granted once: switching plans later changes the plan and its price but keeps the
  -- status and dates, so choosing again cannot restart a trial.
  on conflict (user_id) do update
    set plan_name = excluded.plan_name,
        price = excluded.price
  returning * into v_plan;
  return v_plan;
end;
$$;
revoke all on function public.choose_plan(text) from public, anon;
grant execute on function public.choose_plan(text) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- billing_history: written by the billing back office (service role); owners read their own.
create table public.billing_history (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  amount numeric(12, 2) not null check (amount >= 0),
  date timestamptz not null default now(),
  status text not null check (status in ('paid', 'pending', 'failed', 'refunded')),
  description text not null default '' check (char_length(description) <= 500),
  invoice_url text check (invoice_url is null or invoice_url ~ '^https?://'),
  created_at timestamptz not null default now()
);
alter table public.billing_history enable row level security;
comment on table public.billing_history is 'Owner reads own rows; admins read all; only the service role writes.';
create index billing_history_user_date_idx on public.billing_history (user_id, date desc);

revoke all on table public.billing_history from anon, authenticated;
grant select on table public.billing_history to authenticated;
create policy "billing_history: owner or admin reads" on public.billing_history
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin((select auth.uid()))));

-- ---------------------------------------------------------------------------------------------------
-- payment_methods: written by the payment provider integration (service role); owners read their own.
create table public.payment_methods (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  type text not null check (type in ('visa', 'mastercard', 'mobile', 'wallet', 'other')),
  last_four text not null check (last_four ~ '^[0-9]{4}$'),
  expiry text check (expiry is null or expiry ~ '^(0[1-9]|1[0-2])/[0-9]{2}$'),
  is_default boolean not null default false,
  created_at timestamptz not null default now()
);
alter table public.payment_methods enable row level security;
comment on table public.payment_methods is 'Owner reads own rows; only the service role writes.';
create index payment_methods_user_created_idx on public.payment_methods (user_id, created_at desc);
create unique index payment_methods_one_default_idx on public.payment_methods (user_id) where is_default;

revoke all on table public.payment_methods from anon, authenticated;
grant select on table public.payment_methods to authenticated;
create policy "payment_methods: owner reads" on public.payment_methods
  for select to authenticated
  using (user_id = (select auth.uid()));

-- ---------------------------------------------------------------------------------------------------
-- login_activity and active_sessions mirror auth.sessions through triggers, so the same data appears on
-- hosted Supabase (GoTrue writes auth.sessions) and on the local stack (which writes it the same way).
create table public.login_activity (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  device text not null check (char_length(device) between 1 and 200),
  login_at timestamptz not null default now(),
  location text check (location is null or char_length(location) <= 200),
  ip_address inet
);
alter table public.login_activity enable row level security;
comment on table public.login_activity is 'Owner reads own rows; written by the auth.sessions trigger only.';
create index login_activity_user_login_at_idx on public.login_activity (user_id, login_at desc);

revoke all on table public.login_activity from anon, authenticated;
grant select on table public.login_activity to authenticated;
create policy "login_activity: owner reads" on public.login_activity
  for select to authenticated
  using (user_id = (select auth.uid()));

create table public.active_sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  -- The auth session this row mirrors; the client marks "Current" by comparing it with its JWT's session_id.
  session_id uuid not null unique,
  device text not null check (char_length(device) between 1 and 200),
  location text check (location is null or char_length(location) <= 200),
  ip_address inet,
  last_active timestamptz not null default now(),
  -- The user's most recently active session.
  is_current boolean not null default false,
  created_at timestamptz not null default now()
);
alter table public.active_sessions enable row level security;
comment on table public.active_sessions is 'Owner reads own rows; kept in step with auth.sessions by triggers.';
create index active_sessions_user_last_active_idx on public.active_sessions (user_id, last_active desc);

revoke all on table public.active_sessions from anon, authenticated;
grant select on table public.active_sessions to authenticated;
create policy "active_sessions: owner reads" on public.active_sessions
  for select to authenticated
  using (user_id = (select auth.uid()));

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

create or replace function public.on_auth_session_created()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_device text := public.device_label(new.user_agent);
  v_location text := public.location_label(new.ip);
begin
  insert into public.login_activity (user_id, device, login_at, location, ip_address)
  values (new.user_id, v_device, coalesce(new.created_at, now()), v_location, new.ip);
  update public.active_sessions set is_current = false where user_id = new.user_id and is_current;
  insert into public.active_sessions (user_id, session_id, device, location, ip_address, last_active, is_current)
  values (new.user_id, new.id, v_device, v_location, new.ip, coalesce(new.created_at, now()), true);
  return new;
end;
$$;

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
     set last_active = coalesce(new.refreshed_at::timestamptz, new.updated_at, now()), is_current = true
   where session_id = new.id;
  return new;
end;
$$;

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
revoke all on function public.on_auth_session_created() from public, anon, authenticated;
revoke all on function public.on_auth_session_refreshed() from public, anon, authenticated;
revoke all on function public.on_auth_session_ended() from public, anon, authenticated;

create trigger on_auth_session_created after insert on auth.sessions
  for each row execute function public.on_auth_session_created();
create trigger on_auth_session_refreshed after update of refreshed_at, updated_at on auth.sessions
  for each row execute function public.on_auth_session_refreshed();
create trigger on_auth_session_ended after delete on auth.sessions
  for each row execute function public.on_auth_session_ended();

-- ---------------------------------------------------------------------------------------------------
-- support_tickets: owners file tickets (open, medium) and read their own; admins read all.
create table public.support_tickets (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  subject text not null check (char_length(btrim(subject)) between 1 and 200),
  message text not null check (char_length(btrim(message)) between 1 and 5000),
  status text not null default 'open' check (status in ('open', 'in_progress', 'resolved', 'closed')),
  priority text not null default 'medium' check (priority in ('low', 'medium', 'high', 'urgent')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.support_tickets enable row level security;
comment on table public.support_tickets is
  'Owner inserts own tickets as open/medium and reads own; admins read all; nobody else writes through the API.';
create trigger support_tickets_set_updated_at before update on public.support_tickets
  for each row execute function public.set_updated_at();
create index support_tickets_user_created_idx on public.support_tickets (user_id, created_at desc);

revoke all on table public.support_tickets from anon, authenticated;
grant select on table public.support_tickets to authenticated;
grant insert (user_id, subject, message, status, priority) on table public.support_tickets to authenticated;

create policy "support_tickets: owner or admin reads" on public.support_tickets
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin((select auth.uid()))));
create policy "support_tickets: owner files open tickets" on public.support_tickets
  for insert to authenticated
  with check (user_id = (select auth.uid()) and status = 'open' and priority = 'medium');
