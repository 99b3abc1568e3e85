-- The registers' offline PIN verifiers hold cashiers only (ADR 0300). Any member of the store may fetch them, and a
-- verifier can be cracked offline (a PIN has at most 10^6 values): with a manager's or owner's verifier in hand, a
-- cashier could recover that PIN and approve their own discounts and refunds online. Managers and owners therefore
-- switch in online only; their PINs never leave the database.

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
   where p.business_id = v_business and private.store_member_role(v_register.store_id, p.user_id) = 'cashier';
  perform private.log_activity(v_business, v_register.store_id, 'till.verifiers_issued', 'register', _register_id, null,
    jsonb_build_object('people', jsonb_array_length(v_out)));
  return jsonb_build_object('register_id', _register_id, 'issued_at', now(), 'staff', v_out);
end;
$$;
comment on function public.till_pin_verifiers(uuid) is 'The offline PIN verifiers of a register''s store cashiers (bcrypt, own salts), for switching without a network; never a manager''s or owner''s, whose PINs approve; audited.';
