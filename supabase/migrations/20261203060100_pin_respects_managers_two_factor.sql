-- PIN approvals and switches respect the business's "managers need two-factor" setting (issue 26 with issue 25;
-- ADR 0350). With businesses.managers_need_two_factor on, a manager's aal1 session counts as no membership (ADR 0207),
-- but their till PIN still approved discounts and refunds, and switched a till to them with a manager's powers,
-- through anyone's session: the PIN bypassed the requirement. Now a manager of such a business who has no verified
-- second factor is refused (42501, before the PIN is checked, so nothing is counted) by approve_with_pin and
-- switch_till, and a switch recorded earlier no longer carries them (private.sale_till_cashier: refused online,
-- flagged offline, as any switch that fails). Owners are not covered by the setting, as in ADR 0207. The three
-- functions are their latest definitions (supabase/schemas/pos.sql) with only these lines added.

-- True when a PIN of this person must not act: the business requires two-factor of managers, the person is a manager
-- there and has no verified authenticator (the PIN is typed into someone else's session, so the session's aal says
-- nothing about them; having set up the factor is what the owner asked of managers).
create or replace function private.pin_lacks_two_factor(_business_id uuid, _user_id uuid, _role text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(_role = 'manager', false)
     and exists (select 1 from public.businesses b where b.id = _business_id and b.managers_need_two_factor)
     and not private.has_verified_factor(_user_id)
$$;
comment on function private.pin_lacks_two_factor(uuid,uuid,text) is 'Whether a till PIN of this person is refused because the business requires two-factor of managers and this manager has no verified factor (ADR 0350).';
revoke all on function private.pin_lacks_two_factor(uuid,uuid,text) from public;

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
  -- The business's two-factor rule for managers holds at the till too (ADR 0350): refused before the PIN is checked.
  if private.pin_lacks_two_factor(v_business, _user_id, v_role) then
    raise exception 'permission denied: this business requires two-factor sign-in for managers and this manager has not set it up: they set up two-factor sign-in in their profile before their PIN approves or switches the till' using errcode = '42501';
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
revoke all on function public.approve_with_pin(uuid,uuid,text,numeric,text) from public;
grant execute on function public.approve_with_pin(uuid,uuid,text,numeric,text) to authenticated;

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
  elsif private.pin_lacks_two_factor(v_business, _user_id, v_role) then
    -- A manager switched in sells and refunds with a manager's powers: the business's two-factor rule holds (ADR 0350).
    raise exception 'permission denied: this business requires two-factor sign-in for managers and this manager has not set it up: they set up two-factor sign-in in their profile before their PIN approves or switches the till' using errcode = '42501';
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
revoke all on function public.switch_till(uuid,uuid,text) from public;
grant execute on function public.switch_till(uuid,uuid,text) to authenticated;

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
    -- A switch made before the business required two-factor of managers no longer carries a manager without it.
    v_ok := v_row.verified and v_role is not null and not private.pin_lacks_two_factor(_business_id, v_claimed, v_role);
  elsif jsonb_typeof(_switch -> 'proof') = 'string' and length(_switch ->> 'proof') <= 100 then
    v_proofed := true;
    v_role := private.store_member_role(_register.store_id, v_claimed);
    if v_role is not null then
      -- Checked (a wrong proof counts toward the lockout) but verified for a cashier only: registers hold cashiers'
      -- verifiers only, so a proof for a manager or owner was never made by a register from its verifier set.
      v_ok := (private.check_pin(_business_id, v_claimed, null, _switch ->> 'proof') ->> 'ok')::boolean
              and v_role = 'cashier';
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
revoke all on function private.sale_till_cashier(jsonb,uuid,public.registers,boolean) from public;
