-- Offline PIN proofs verify cashiers only (review of 20261202120000 and 20261202170300). Registers hold only
-- cashiers' offline verifiers, but sale_till_cashier accepted a proof for any role: a proof for a manager or owner
-- (made from a verifier cached before 20261202170300, or cracked from one) named them on the sale with their
-- limits. Now it is checked as before (a wrong one counts toward the lockout) and verifies only while the person's
-- role in the store is cashier; otherwise the sale is kept under the signed-in person and flagged
-- 'till_switch_unverified', as a failed proof. sale_till_cashier as in the schema otherwise.
--
-- And a cashier made manager or owner (set_member_role, transfer_ownership, any role update) loses their till PIN
-- in that business: a PIN cracked from the offline verifier they had as a cashier never becomes a manager's
-- approving PIN. They set a new one (set_my_pin).

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

-- A member's role changes from cashier to manager or owner: their PIN (whose offline verifier registers held) goes.
create or replace function private.staff_pin_forget_on_promotion()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.staff_pins p where p.business_id = new.business_id and p.user_id = new.user_id;
  return null;
end;
$$;
comment on function private.staff_pin_forget_on_promotion() is 'After a member''s role changes from cashier to another role: their till PIN is deleted, so one cracked from a register''s offline verifier never approves as a manager (ADR 0300).';
revoke all on function private.staff_pin_forget_on_promotion() from public;

create trigger staff_pin_forget_on_promotion after update of role on public.business_members
  for each row when (old.role = 'cashier' and new.role is distinct from 'cashier')
  execute function private.staff_pin_forget_on_promotion();
