-- Two branches redefined approve_with_pin on the same day: 20261203060100 (ADR 0350) added the business's
-- "managers need two-factor" rule, 20261203070000 (ADR 0360) the 'expired_lot' purpose, each from the definition
-- before the other, and the later one would have dropped the two-factor rule. This is the 'expired_lot' definition
-- with the two-factor rule: a manager without a verified factor approves nothing by PIN in such a business,
-- expired lots included.

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
  elsif _purpose is null or _purpose not in ('discount', 'refund', 'expired_lot') then
    raise exception 'approve a discount, a refund or the sale of an expired lot' using errcode = '22023';
  elsif _purpose <> 'expired_lot' and
        (_max_discount_percent is null or _max_discount_percent < 0 or _max_discount_percent > v_limit) then
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
  values (v_business, _store_id, _purpose, case when _purpose <> 'expired_lot' then _max_discount_percent end, _user_id)
  returning id into v_id;
  perform private.log_activity(v_business, _store_id, 'approval.granted', 'approval', v_id, null,
    jsonb_build_object('purpose', _purpose,
                       'max_discount_percent', case when _purpose <> 'expired_lot' then _max_discount_percent end,
                       'approved_by', _user_id,
                       'method', 'pin'));
  return jsonb_build_object('ok', true, 'approval_id', v_id);
end;
$$;
comment on function public.approve_with_pin(uuid,uuid,text,numeric,text) is 'A manager or owner of the store approves one discount, refund or sale of an expired lot with their till PIN (lockout after 5 wrong tries); audited.';

revoke all on function public.approve_with_pin(uuid,uuid,text,numeric,text) from public, anon;
grant execute on function public.approve_with_pin(uuid,uuid,text,numeric,text) to authenticated;
