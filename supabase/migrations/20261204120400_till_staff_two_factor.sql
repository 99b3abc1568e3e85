-- Issue 25, ADR 0350 (amended): in a business that requires two-factor sign-in for managers, a manager without a
-- verified factor is refused by approve_with_pin and switch_till, yet till_staff still offered them in the
-- register's approval and switch lists, so the person at the counter met the refusal only after typing the PIN.
-- till_staff now says so (needs_two_factor, the same private.pin_lacks_two_factor the refusals use) and the
-- register leaves them out of its lists with the reason. The result gains a column, so the function is recreated.

drop function if exists public.till_staff(uuid);
create or replace function public.till_staff(_store_id uuid)
returns table (user_id uuid, full_name text, role text, locked boolean, needs_two_factor boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid := private.assert_store_role(_store_id, array['owner', 'manager', 'cashier']);
begin
  return query
    select s.user_id, s.full_name, s.role, s.locked, private.pin_lacks_two_factor(v_business, s.user_id, s.role)
      from (select p.user_id, coalesce(nullif(btrim(pr.full_name), ''), 'Staff member')::text as full_name,
                   private.store_member_role(_store_id, p.user_id) as role, coalesce(p.locked_until > now(), false) as locked
              from private.staff_pins p
              left join public.profiles pr on pr.id = p.user_id
             where p.business_id = v_business) s
     where s.role is not null
     order by 2, 1;
end;
$$;
comment on function public.till_staff(uuid) is 'Staff of a store who have a till PIN, for the switch and approval pickers; needs_two_factor: a manager whose PIN is refused until they set up two-factor sign-in (ADR 0350).';
revoke all on function public.till_staff(uuid) from public, anon;
grant execute on function public.till_staff(uuid) to authenticated;
