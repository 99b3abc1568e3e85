-- A shared till (issue 25, ADR 0300): counter staff switch the register to themselves with a personal PIN and
-- managers approve discounts and refunds with theirs, instead of an email and password at the counter.
-- * private.staff_pins: three bcrypt hashes of each PIN with their own salts (online check; the registers' offline
--   verifier; the proof an offline switch carries), the failure counter and the lockout. No API role reads it.
-- * public.till_switches: who was switched in at which register, by which signed-in session, online or offline,
--   verified or not. A sale names its PIN-verified cashier (sales.cashier_id) and the switch (sales.till_switch_id);
--   the sale still posts under the signed-in session's shift and its rules (post_sale_core from
--   20261201143000_serial_numbers, every check kept).
-- Revokes are "from public, anon" as the other migrations do; grants are explicit (hosted grants nothing itself).

create table private.staff_pins (
  business_id uuid not null,
  user_id uuid not null,
  pin_hash text not null,
  offline_hash text not null,
  proof_salt text not null,
  proof_digest bytea not null,
  failed_attempts integer default 0 not null,
  locked_until timestamp with time zone,
  set_at timestamp with time zone default now() not null,
  constraint staff_pins_pkey primary key (business_id, user_id),
  constraint staff_pins_member_fkey foreign key (business_id, user_id)
    references public.business_members(business_id, user_id) on delete cascade,
  constraint staff_pins_failed_attempts_check check (failed_attempts between 0 and 5),
  constraint staff_pins_hashes_check check (pin_hash like '$2a$%' and offline_hash like '$2a$%' and proof_salt like '$2a$%')
);
alter table private.staff_pins enable row level security;
comment on table private.staff_pins is 'Till PINs, hashed three ways (online check, offline verifier, offline proof); only the PIN definer functions read or write them (ADR 0300).';

create table public.till_switches (
  id uuid not null,
  business_id uuid not null,
  store_id uuid not null,
  register_id uuid not null,
  user_id uuid,
  signed_in_user_id uuid,
  method text not null,
  verified boolean not null,
  switched_at timestamp with time zone default now() not null,
  recorded_at timestamp with time zone default now() not null,
  constraint till_switches_pkey primary key (id),
  constraint till_switches_method_check check (method = any (array['online'::text, 'offline'::text])),
  constraint till_switches_online_verified_check check (method = 'offline' or verified),
  constraint till_switches_store_id_business_id_fkey foreign key (store_id, business_id)
    references public.stores(id, business_id) on delete cascade,
  constraint till_switches_register_id_fkey foreign key (register_id) references public.registers(id) on delete cascade,
  constraint till_switches_user_id_fkey foreign key (user_id) references auth.users(id) on delete set null,
  constraint till_switches_signed_in_user_id_fkey foreign key (signed_in_user_id) references auth.users(id) on delete set null
);
alter table public.till_switches enable row level security;
comment on table public.till_switches is 'Who was switched in at a register by PIN, under which signed-in session; written only by switch_till and post_sale (ADR 0300).';
revoke all on table public.till_switches from public, anon;
grant select on table public.till_switches to authenticated;
grant select on table public.till_switches to service_role;

create index till_switches_business_switched_idx on public.till_switches (business_id, switched_at desc);
create index till_switches_store_business_idx on public.till_switches (store_id, business_id);
create index till_switches_register_idx on public.till_switches (register_id);
create index till_switches_user_idx on public.till_switches (user_id);
create index till_switches_signed_in_user_idx on public.till_switches (signed_in_user_id);

create policy "till_switches: owners and managers in their stores, staff their own" on public.till_switches
  for select to authenticated
  using ((((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids())))
          and (business_id in (select private.my_business_ids(array['owner', 'manager']))))
         or user_id = (select auth.uid()) or signed_in_user_id = (select auth.uid()));

alter table public.sales add column till_switch_id uuid;
alter table public.sales add constraint sales_till_switch_id_fkey foreign key (till_switch_id) references public.till_switches(id);
create index sales_till_switch_idx on public.sales (till_switch_id);
comment on column public.sales.till_switch_id is 'The PIN switch under which the sale was rung (cashier_id is then the switched-in person); null when rung by the signed-in person.';

-- ==== PIN rules ===========================================================================================

-- Why a PIN is refused, or null: 4 to 6 digits, not one digit repeated, not a run up or down, not a pair or triple
-- repeated (1212, 123123): the first PINs anyone tries.
create or replace function private.pin_problem(_pin text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_up boolean := true;
  v_down boolean := true;
  i int;
begin
  if _pin is null or _pin !~ '^[0-9]{4,6}$' then
    return 'a PIN is 4 to 6 digits';
  end if;
  for i in 2..length(_pin) loop
    if (substr(_pin, i, 1)::int - substr(_pin, i - 1, 1)::int + 10) % 10 <> 1 then v_up := false; end if;
    if (substr(_pin, i - 1, 1)::int - substr(_pin, i, 1)::int + 10) % 10 <> 1 then v_down := false; end if;
  end loop;
  if _pin ~ '^(.)\1+$' or v_up or v_down or _pin ~ '^(..)\1+$' or _pin ~ '^(...)\1$' then
    return 'this PIN is too easy to guess: choose one that is not a repeated digit, a run like 1234 or a repeated pair';
  end if;
  return null;
end;
$$;
revoke all on function private.pin_problem(text) from public, anon;

-- The role of a person in the business of a store when they may use that store (an unsuspended business, every
-- store for owners and all-stores members, else a listed store), or null: who may be switched in or approve there.
create or replace function private.store_member_role(_store_id uuid, _user_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select m.role::text
    from public.stores s
    join public.business_members m on m.business_id = s.business_id and m.user_id = _user_id
    join public.businesses b on b.id = m.business_id and b.suspended_at is null
   where s.id = _store_id and s.archived_at is null
     and (m.role = 'owner' or m.all_stores
          or exists (select 1 from public.member_store_access a
                      where a.business_id = s.business_id and a.user_id = m.user_id and a.store_id = s.id));
$$;
revoke all on function private.store_member_role(uuid,uuid) from public, anon;

-- Writes a PIN's three hashes. bf cost 8 for the online check (the lockout limits guesses there); cost 10 for the
-- two the registers hold, which an attacker with a device can try offline (ADR 0300).
create or replace function private.write_pin(_business_id uuid, _user_id uuid, _pin text, _clear_lockout boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_problem text := private.pin_problem(_pin);
  v_proof_salt text := extensions.gen_salt('bf', 10);
begin
  if v_problem is not null then
    raise exception '%', v_problem using errcode = '22023';
  end if;
  insert into private.staff_pins (business_id, user_id, pin_hash, offline_hash, proof_salt, proof_digest)
  values (_business_id, _user_id, extensions.crypt(_pin, extensions.gen_salt('bf', 8)),
          extensions.crypt(_pin, extensions.gen_salt('bf', 10)), v_proof_salt,
          extensions.digest(extensions.crypt(_pin, v_proof_salt), 'sha256'))
  on conflict (business_id, user_id) do update
    set pin_hash = excluded.pin_hash, offline_hash = excluded.offline_hash, proof_salt = excluded.proof_salt,
        proof_digest = excluded.proof_digest, set_at = now(),
        failed_attempts = case when _clear_lockout then 0 else private.staff_pins.failed_attempts end,
        locked_until = case when _clear_lockout then null else private.staff_pins.locked_until end;
end;
$$;
revoke all on function private.write_pin(uuid,uuid,text,boolean) from public, anon;

-- Checks a person's PIN with the lockout: 5 wrong tries lock it for 15 minutes (nothing is checked meanwhile), a
-- right one clears the count. Never raises, so the count is kept by the caller's transaction: callers return the
-- result instead of raising on a wrong PIN. _proof: an offline switch's proof instead of the PIN.
create or replace function private.check_pin(_business_id uuid, _user_id uuid, _pin text, _proof text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_max constant int := 5;
  c_lock constant interval := interval '15 minutes';
  v private.staff_pins;
  v_ok boolean;
begin
  select p.* into v from private.staff_pins p where p.business_id = _business_id and p.user_id = _user_id for update;
  if v.user_id is null then
    return jsonb_build_object('ok', false, 'reason', 'no_pin');
  elsif v.locked_until > now() then
    return jsonb_build_object('ok', false, 'reason', 'locked', 'locked_until', v.locked_until);
  end if;
  if _proof is not null then
    v_ok := extensions.digest(_proof, 'sha256') = v.proof_digest;
  else
    v_ok := _pin is not null and extensions.crypt(_pin, v.pin_hash) = v.pin_hash;
  end if;
  if v_ok then
    update private.staff_pins p set failed_attempts = 0, locked_until = null
     where p.business_id = _business_id and p.user_id = _user_id;
    return jsonb_build_object('ok', true);
  end if;
  if v.failed_attempts + 1 >= c_max then
    update private.staff_pins p set failed_attempts = 0, locked_until = now() + c_lock
     where p.business_id = _business_id and p.user_id = _user_id;
    perform private.log_activity(_business_id, null, 'pin.locked', 'member', _user_id, null,
      jsonb_build_object('minutes', extract(epoch from c_lock) / 60));
    return jsonb_build_object('ok', false, 'reason', 'locked', 'locked_until', now() + c_lock);
  end if;
  update private.staff_pins p set failed_attempts = v.failed_attempts + 1
   where p.business_id = _business_id and p.user_id = _user_id;
  return jsonb_build_object('ok', false, 'reason', 'wrong_pin', 'attempts_left', c_max - v.failed_attempts - 1);
end;
$$;
revoke all on function private.check_pin(uuid,uuid,text,text) from public, anon;

-- ==== Setting PINs ========================================================================================

-- A member sets their own PIN (signed in as themselves). The failure count and a lockout stay as they are: only a
-- manager's or owner's reset clears them.
create or replace function public.set_my_pin(_business_id uuid, _pin text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if private.my_role(_business_id) is null then
    raise exception 'permission denied: you are not a member of this business' using errcode = '42501';
  end if;
  perform private.write_pin(_business_id, (select auth.uid()), _pin, false);
  perform private.log_activity(_business_id, null, 'pin.set', 'member', (select auth.uid()), null,
    jsonb_build_object('by', 'self'));
end;
$$;
comment on function public.set_my_pin(uuid,text) is 'The caller sets their own till PIN in a business (4-6 digits, not trivial); audited, never logged in clear.';
revoke all on function public.set_my_pin(uuid,text) from public, anon;
grant execute on function public.set_my_pin(uuid,text) to authenticated;

-- An owner sets or resets anyone's PIN in their business; a manager their cashiers' (and their own). A reset clears
-- the failure count and the lockout.
create or replace function public.set_staff_pin(_business_id uuid, _user_id uuid, _pin text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_role text := private.my_role(_business_id);
  v_target text;
begin
  if v_role is null or v_role not in ('owner', 'manager') then
    raise exception 'permission denied: an owner or manager sets staff PINs' using errcode = '42501';
  end if;
  select m.role::text into v_target from public.business_members m where m.business_id = _business_id and m.user_id = _user_id;
  if v_target is null then
    raise exception 'this person is not a member of this business' using errcode = '22023';
  elsif v_role = 'manager' and v_target <> 'cashier' and _user_id <> (select auth.uid()) then
    raise exception 'permission denied: a manager sets cashiers'' PINs; the owner sets a manager''s' using errcode = '42501';
  end if;
  perform private.write_pin(_business_id, _user_id, _pin, true);
  perform private.log_activity(_business_id, null, 'pin.reset', 'member', _user_id, null,
    jsonb_build_object('by', v_role));
end;
$$;
comment on function public.set_staff_pin(uuid,uuid,text) is 'An owner (anyone) or manager (cashiers, self) sets or resets a member''s till PIN and clears its lockout; audited.';
revoke all on function public.set_staff_pin(uuid,uuid,text) from public, anon;
grant execute on function public.set_staff_pin(uuid,uuid,text) to authenticated;

-- ==== At the till =========================================================================================

-- The people who may be switched in at a store's till: its staff with a PIN (names and roles, no hashes).
create or replace function public.till_staff(_store_id uuid)
returns table (user_id uuid, full_name text, role text, locked boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
begin
  return query
    select p.user_id, coalesce(nullif(btrim(pr.full_name), ''), 'Staff member')::text,
           private.store_member_role(_store_id, p.user_id), coalesce(p.locked_until > now(), false)
      from private.staff_pins p
      left join public.profiles pr on pr.id = p.user_id
     where p.business_id = v_business and private.store_member_role(_store_id, p.user_id) is not null
     order by 2, 1;
end;
$$;
comment on function public.till_staff(uuid) is 'Staff of a store who have a till PIN, for the switch and approval pickers.';
revoke all on function public.till_staff(uuid) from public, anon;
grant execute on function public.till_staff(uuid) to authenticated;

-- What a register keeps to switch offline: for each PIN holder of its store, the offline verifier (a bcrypt hash
-- with its own salt, never the online one) and the salt of the proof an offline switch carries. Issued to a
-- signed-in member of that store only, and recorded in the trail (ADR 0300).
create or replace function public.till_pin_verifiers(_register_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_register public.registers;
  v_business uuid;
  v_out jsonb;
begin
  select r.* into v_register from public.registers r where r.id = _register_id and r.archived_at is null;
  if v_register.id is null then
    raise exception 'no such register' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_register.store_id, array['owner', 'manager', 'cashier']);
  select coalesce(jsonb_agg(jsonb_build_object(
           'user_id', p.user_id, 'full_name', coalesce(nullif(btrim(pr.full_name), ''), 'Staff member'),
           'role', private.store_member_role(v_register.store_id, p.user_id),
           'verifier', p.offline_hash, 'proof_salt', p.proof_salt) order by p.user_id), '[]')
    into v_out
    from private.staff_pins p
    left join public.profiles pr on pr.id = p.user_id
   where p.business_id = v_business and private.store_member_role(v_register.store_id, p.user_id) is not null;
  perform private.log_activity(v_business, v_register.store_id, 'till.verifiers_issued', 'register', _register_id, null,
    jsonb_build_object('people', jsonb_array_length(v_out)));
  return jsonb_build_object('register_id', _register_id, 'issued_at', now(), 'staff', v_out);
end;
$$;
comment on function public.till_pin_verifiers(uuid) is 'The offline PIN verifiers of a register''s store staff (bcrypt, own salts), for switching without a network; audited.';
revoke all on function public.till_pin_verifiers(uuid) from public, anon;
grant execute on function public.till_pin_verifiers(uuid) to authenticated;

-- Switch a register to a person of its store by their PIN. Returns {ok, switch_id, user_id, full_name, role} or
-- {ok: false, reason: wrong_pin|locked|no_pin, attempts_left, locked_until}: a wrong PIN returns rather than raises
-- so its count is kept.
create or replace function public.switch_till(_register_id uuid, _user_id uuid, _pin text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_register public.registers;
  v_business uuid;
  v_role text;
  v_check jsonb;
  v_id uuid := gen_random_uuid();
begin
  select r.* into v_register from public.registers r where r.id = _register_id and r.archived_at is null;
  if v_register.id is null then
    raise exception 'no such register' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_register.store_id, array['owner', 'manager', 'cashier']);
  v_role := private.store_member_role(v_register.store_id, _user_id);
  if v_role is null then
    raise exception 'permission denied: this person does not work at this store' using errcode = '42501';
  elsif _pin is null or _pin !~ '^[0-9]{4,6}$' then
    raise exception 'a PIN is 4 to 6 digits' using errcode = '22023';
  end if;
  v_check := private.check_pin(v_business, _user_id, _pin);
  if not (v_check ->> 'ok')::boolean then
    return v_check;
  end if;
  insert into public.till_switches (id, business_id, store_id, register_id, user_id, signed_in_user_id, method, verified)
  values (v_id, v_business, v_register.store_id, _register_id, _user_id, (select auth.uid()), 'online', true);
  perform private.log_activity(v_business, v_register.store_id, 'till.switched', 'till_switch', v_id, null,
    jsonb_build_object('user_id', _user_id, 'register_id', _register_id, 'method', 'online'));
  return jsonb_build_object('ok', true, 'switch_id', v_id, 'user_id', _user_id, 'role', v_role,
    'full_name', (select coalesce(nullif(btrim(p.full_name), ''), 'Staff member') from public.profiles p where p.id = _user_id));
end;
$$;
comment on function public.switch_till(uuid,uuid,text) is 'Switches a register to a staff member of its store by their PIN (lockout after 5 wrong tries); audited.';
revoke all on function public.switch_till(uuid,uuid,text) from public, anon;
grant execute on function public.switch_till(uuid,uuid,text) to authenticated;

-- A manager or owner of the store approves one discount (up to a percent within their own limit) or refund with
-- their PIN at a till signed in as anyone of the store: approve_discount's rules, approved_by the PIN's owner.
create or replace function public.approve_with_pin(_store_id uuid, _user_id uuid, _pin text,
                                                   _max_discount_percent numeric default 100, _purpose text default 'discount')
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
  v_role text := private.store_member_role(_store_id, _user_id);
  v_limit numeric := private.discount_limit_percent(v_role);
  v_check jsonb;
  v_id uuid;
begin
  if v_role is null or v_role not in ('owner', 'manager') then
    raise exception 'permission denied: only an owner or manager of this store approves' using errcode = '42501';
  elsif _purpose is null or _purpose not in ('discount', 'refund') then
    raise exception 'approve a discount or a refund' using errcode = '22023';
  elsif _max_discount_percent is null or _max_discount_percent < 0 or _max_discount_percent > v_limit then
    raise exception 'this manager may approve discounts up to % percent', v_limit using errcode = '22023';
  elsif _pin is null or _pin !~ '^[0-9]{4,6}$' then
    raise exception 'a PIN is 4 to 6 digits' using errcode = '22023';
  end if;
  v_check := private.check_pin(v_business, _user_id, _pin);
  if not (v_check ->> 'ok')::boolean then
    return v_check;
  end if;
  insert into public.pos_approvals (business_id, store_id, purpose, max_discount_percent, approved_by)
  values (v_business, _store_id, _purpose, _max_discount_percent, _user_id)
  returning id into v_id;
  perform private.log_activity(v_business, _store_id, 'approval.granted', 'approval', v_id, null,
    jsonb_build_object('purpose', _purpose, 'max_discount_percent', _max_discount_percent, 'approved_by', _user_id,
                       'method', 'pin'));
  return jsonb_build_object('ok', true, 'approval_id', v_id);
end;
$$;
comment on function public.approve_with_pin(uuid,uuid,text,numeric,text) is 'A manager or owner of the store approves one discount or refund with their till PIN (lockout after 5 wrong tries); audited.';
revoke all on function public.approve_with_pin(uuid,uuid,text,numeric,text) from public, anon;
grant execute on function public.approve_with_pin(uuid,uuid,text,numeric,text) to authenticated;

-- The person a sale names and the role its discounts are checked with. No switch: the signed-in person. An online
-- switch: its row, made by this same signed-in person at this store, its person still working there. A switch
-- made offline arrives with its first sale (offline, or online when the register came back before selling again):
-- its proof is checked against the PIN and counts toward the lockout like a wrong PIN, so a failed proof never
-- raises (that would undo the count): the sale is kept under the signed-in person and flagged
-- 'till_switch_unverified' for a manager. Online, an unknown or no longer valid switch without a proof is refused.
create or replace function private.sale_till_cashier(_switch jsonb, _business_id uuid, _register public.registers,
                                                     _offline boolean, out o_user_id uuid, out o_role text,
                                                     out o_switch_id uuid, out o_reasons text[])
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uuid constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  v_row public.till_switches;
  v_claimed uuid;
  v_role text;
  v_ok boolean := false;
  v_at timestamptz;
  v_proofed boolean := false;
begin
  o_user_id := (select auth.uid());
  o_reasons := '{}';
  if _switch is null or jsonb_typeof(_switch) = 'null' then
    return;
  end if;
  if jsonb_typeof(_switch) <> 'object' or coalesce(_switch ->> 'id', '') !~* v_uuid
     or coalesce(_switch ->> 'user_id', '') !~* v_uuid then
    raise exception 'till_switch needs its id and the person''s user_id' using errcode = '22023';
  end if;
  v_claimed := (_switch ->> 'user_id')::uuid;
  select t.* into v_row from public.till_switches t where t.id = (_switch ->> 'id')::uuid;
  if v_row.id is not null then
    if v_row.business_id <> _business_id or v_row.store_id <> _register.store_id
       or v_row.signed_in_user_id is distinct from (select auth.uid()) or v_row.user_id is distinct from v_claimed then
      raise exception 'permission denied: this till switch belongs to another register session' using errcode = '42501';
    end if;
    v_role := private.store_member_role(_register.store_id, v_claimed);
    v_ok := v_row.verified and v_role is not null;
  elsif jsonb_typeof(_switch -> 'proof') = 'string' and length(_switch ->> 'proof') <= 100 then
    v_proofed := true;
    v_role := private.store_member_role(_register.store_id, v_claimed);
    if v_role is not null then
      v_ok := (private.check_pin(_business_id, v_claimed, null, _switch ->> 'proof') ->> 'ok')::boolean;
    end if;
    begin
      v_at := least((_switch ->> 'at')::timestamptz, now());
    exception when others then
      v_at := now();
    end;
    insert into public.till_switches (id, business_id, store_id, register_id, user_id, signed_in_user_id, method,
                                      verified, switched_at)
    values ((_switch ->> 'id')::uuid, _business_id, _register.store_id, _register.id,
            case when v_role is null then null else v_claimed end, (select auth.uid()), 'offline', v_ok,
            coalesce(v_at, now()))
    on conflict (id) do nothing;
    if not found then
      -- A concurrent copy of the same switch was recorded first: its verdict.
      select t.* into v_row from public.till_switches t where t.id = (_switch ->> 'id')::uuid;
      if v_row.business_id <> _business_id or v_row.signed_in_user_id is distinct from (select auth.uid()) then
        raise exception 'permission denied: this till switch belongs to another register session' using errcode = '42501';
      end if;
      v_ok := v_row.verified and v_row.user_id = v_claimed;
    end if;
    perform private.log_activity(_business_id, _register.store_id, 'till.switched', 'till_switch',
      (_switch ->> 'id')::uuid, null,
      jsonb_build_object('user_id', v_claimed, 'register_id', _register.id, 'method', 'offline', 'verified', v_ok));
  elsif not _offline then
    raise exception 'permission denied: this till switch is unknown: switch to the person again' using errcode = '42501';
  end if;
  o_switch_id := (_switch ->> 'id')::uuid;
  if v_ok then
    o_user_id := v_claimed;
    o_role := v_role;
  elsif not _offline and not v_proofed then
    raise exception 'permission denied: this till switch is no longer valid: switch to the person again' using errcode = '42501';
  else
    o_reasons := array['till_switch_unverified'];
    if not exists (select 1 from public.till_switches t where t.id = o_switch_id) then
      o_switch_id := null;
    end if;
  end if;
end;
$$;
revoke all on function private.sale_till_cashier(jsonb,uuid,public.registers,boolean) from public, anon;

-- post_sale_core as in 20261201143000_serial_numbers, with the till switch (every other rule unchanged).
create or replace function private.post_sale_core(_payload jsonb, out o_id uuid, out o_replayed boolean,
                                                  out o_receipt text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uuid constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  v_offline boolean;
  v_register public.registers;
  v_store public.stores;
  v_business uuid;
  v_role text;
  v_existing public.sales;
  v_shift public.shifts;
  v_terms record;
  v_reasons text[] := '{}';
  v_customer uuid;
  v_approval_id uuid;
  v_priced record;
  v_paid record;
  v_receipt record;
  v_negative text[];
  v_rounding bigint;
  v_till record;
begin
  if jsonb_typeof(_payload) is distinct from 'object' then
    raise exception 'send the sale as an object' using errcode = '22023';
  end if;
  if coalesce(_payload ->> 'id', '') !~* v_uuid then
    raise exception 'a sale needs its register-generated id (a uuid)' using errcode = '22023';
  end if;
  if coalesce(_payload ->> 'register_id', '') !~* v_uuid then
    raise exception 'choose a register' using errcode = '22023';
  end if;
  o_id := (_payload ->> 'id')::uuid;
  o_replayed := false;
  v_offline := coalesce(_payload ->> 'offline', 'false') = 'true';

  select r.* into v_register from public.registers r where r.id = (_payload ->> 'register_id')::uuid;
  if v_register.id is null then
    raise exception 'no such register' using errcode = '42501';
  end if;
  select a.o_business_id, a.o_role into v_business, v_role
    from private.pos_store_access(v_register.store_id, array['owner', 'manager', 'cashier']) a;

  -- A retry: the first result, nothing written twice. Another store's sale of the business is no replay either.
  select s.* into v_existing from public.sales s where s.id = o_id;
  if v_existing.id is not null then
    if v_existing.business_id <> v_business or v_existing.store_id <> v_register.store_id then
      raise exception 'permission denied: this sale id belongs to another business or store' using errcode = '42501';
    end if;
    o_replayed := true;
    o_receipt := v_existing.receipt_number;
    return;
  end if;

  select s.* into v_store from public.stores s where s.id = v_register.store_id;
  if v_register.archived_at is not null then
    if not v_offline then
      raise exception 'this register is archived' using errcode = '22023';
    end if;
    v_reasons := array_append(v_reasons, 'register_archived'::text);
  end if;

  if coalesce(_payload ->> 'shift_id', '') ~* v_uuid then
    select s.* into v_shift from public.shifts s where s.id = (_payload ->> 'shift_id')::uuid and s.business_id = v_business;
  end if;
  select * into v_terms from private.pos_entry_terms(v_shift, v_register.id, v_role, v_offline, _payload -> 'occurred_at');
  v_reasons := v_reasons || v_terms.o_reasons;

  if nullif(_payload ->> 'customer_id', '') is not null then
    if (_payload ->> 'customer_id') ~* v_uuid then
      select c.id into v_customer from public.customers c
       where c.id = (_payload ->> 'customer_id')::uuid and c.business_id = v_business;
    end if;
    if v_customer is null then
      if not v_offline then
        raise exception 'no such customer in this business' using errcode = '22023';
      end if;
      v_reasons := array_append(v_reasons, 'unknown_customer'::text);
    end if;
  end if;

  -- The shared till (20261202120000): a PIN-switched person is the sale's cashier and their role prices its
  -- discounts; the shift stays the signed-in session's (pos_entry_terms above, unchanged).
  select * into v_till from private.sale_till_cashier(_payload -> 'till_switch', v_business, v_register, v_offline);
  v_reasons := v_reasons || v_till.o_reasons;

  if nullif(_payload ->> 'approval_id', '') ~* v_uuid then
    v_approval_id := (_payload ->> 'approval_id')::uuid;
  end if;
  select * into v_priced
    from private.sale_lines_priced(_payload -> 'lines', v_business, v_store, o_id, v_offline, coalesce(v_till.o_role, v_role), v_approval_id);
  v_reasons := v_reasons || v_priced.o_reasons;

  select * into v_paid from private.sale_tenders_checked(_payload -> 'tenders');
  -- Cash rounding (20261201141000): what cash pays is rounded to the store's step; the sale keeps the difference.
  v_rounding := private.sale_cash_rounding(v_priced.o_total, v_paid.o_tenders, v_store.cash_rounding_step);
  if v_paid.o_paid <> v_priced.o_total + v_rounding then
    if not v_offline then
      raise exception 'the tenders pay % but the sale totals %', v_paid.o_paid, v_priced.o_total + v_rounding
        using errcode = '22023', detail = format('total:%s', v_priced.o_total + v_rounding);
    end if;
    v_reasons := array_append(v_reasons, 'tenders_mismatch'::text);
  end if;

  select * into v_receipt from private.sale_receipt_number(v_register, v_business, _payload -> 'receipt_seq');
  if v_receipt.o_reassigned then
    v_reasons := array_append(v_reasons, 'receipt_number_reassigned'::text);
  end if;
  o_receipt := v_receipt.o_receipt;

  insert into public.sales (id, business_id, store_id, register_id, shift_id, cashier_id, customer_id, receipt_number,
                            currency, tax_inclusive, subtotal, discount_total, tax_total, total, tendered_total,
                            change_total, review_reasons, offline, approval_id, occurred_at, cash_rounding, till_switch_id)
  values (o_id, v_business, v_store.id, v_register.id, v_terms.o_shift_id, v_till.o_user_id, v_customer, o_receipt,
          v_store.currency, v_store.tax_inclusive, v_priced.o_subtotal, v_priced.o_discounts, v_priced.o_taxes,
          v_priced.o_total, v_paid.o_tendered, v_paid.o_change, v_reasons, v_offline, v_priced.o_approval_id,
          v_terms.o_occurred, v_rounding, v_till.o_switch_id)
  on conflict (id) do nothing;
  if not found then
    -- A concurrent copy committed first: its result, nothing written by this one.
    select s.* into v_existing from public.sales s where s.id = o_id;
    if v_existing.business_id <> v_business or v_existing.store_id <> v_register.store_id then
      raise exception 'permission denied: this sale id belongs to another business or store' using errcode = '42501';
    end if;
    o_replayed := true;
    o_receipt := v_existing.receipt_number;
    return;
  end if;

  perform private.insert_sale_rows(o_id, v_business, v_store.id, v_priced.o_lines, v_paid.o_tenders);
  v_negative := private.sale_stock_movements(v_business, v_store.id, o_id, o_receipt, v_terms.o_occurred, v_priced.o_lines);
  -- Serial numbers (20261201143000): each sold once; offline a second sale of one is kept and flagged.
  v_negative := v_negative || private.record_sale_serials(v_business, o_id, v_priced.o_lines, v_offline);
  if cardinality(v_negative) > 0 then
    v_reasons := v_reasons || v_negative;
    update public.sales s set review_reasons = v_reasons where s.id = o_id;
  end if;

  perform private.log_activity(v_business, v_store.id, 'sale.posted', 'sale', o_id, null,
    jsonb_build_object('receipt_number', o_receipt, 'total', v_priced.o_total, 'cash_rounding', v_rounding,
                       'offline', v_offline,
                       'review_reasons', to_jsonb(v_reasons), 'approval_id', v_priced.o_approval_id,
                       'cashier_id', v_till.o_user_id, 'till_switch_id', v_till.o_switch_id)
    || case when _payload ? 'occurred_at' then jsonb_build_object('register_occurred_at', _payload -> 'occurred_at')
            else '{}'::jsonb end);
end;
$$;
revoke all on function private.post_sale_core(jsonb) from public, anon;
