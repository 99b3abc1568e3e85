-- Issue 25, ADR 0402: cash in and out flagged for review (till_switch_unverified: the PIN switch it was rung under
-- failed its offline proof, ADR 0350) were kept in the row and the trail with no screen to find them. This lists
-- them for owners and managers beside the flagged sales and refunds: who (the person the movement stands under,
-- and the person the failed switch claimed), when, where, how much, the reason and the flags. Security invoker:
-- row level security on cash_movements decides the stores (a manager limited to some stores sees those).

create or replace function public.flagged_cash_movements(_business_id uuid, _store_id uuid default null,
                                                         _limit integer default 50, _offset integer default 0)
returns table (movement_id uuid, store_id uuid, store_name text, register_name text, shift_id uuid, kind text,
               amount bigint, currency text, reason text, actor_name text, claimed_name text, at timestamptz,
               review_reasons text[], total_count bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if _limit is null or _limit < 1 or _limit > 200 or _offset is null or _offset < 0 then
    raise exception 'ask for 1 to 200 cash movements from offset 0 or more' using errcode = '22023';
  end if;
  return query
    select m.id, m.store_id, st.name::text, r.name::text, m.shift_id, m.kind, m.amount, st.currency::text,
           m.reason::text, n.name, cn.name, m.at, m.review_reasons, count(*) over ()
      from public.cash_movements m
      join public.stores st on st.id = m.store_id
      join public.shifts sh on sh.id = m.shift_id
      left join public.registers r on r.id = sh.register_id
      left join public.till_switches ts on ts.id = m.till_switch_id
      left join private.member_names(_business_id) n on n.user_id = m.actor_id
      left join private.member_names(_business_id) cn on cn.user_id = ts.user_id
     where m.business_id = _business_id
       and cardinality(m.review_reasons) > 0
       and (_store_id is null or m.store_id = _store_id)
     order by m.at desc, m.id
     limit _limit offset _offset;
end;
$$;
comment on function public.flagged_cash_movements(uuid,uuid,integer,integer) is 'Owners and managers: cash in and out flagged for review (till_switch_unverified), newest first, with who, where, how much and why (ADR 0402).';
revoke all on function public.flagged_cash_movements(uuid,uuid,integer,integer) from public, anon;
grant execute on function public.flagged_cash_movements(uuid,uuid,integer,integer) to authenticated;
