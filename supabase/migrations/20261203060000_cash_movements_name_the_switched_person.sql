-- Cash in and out name the person PIN-switched in at the till (issue 25: "sales and the trail still name the real
-- person"; ADR 0300, ADR 0350). Until now a paid-out rung after "Switch cashier" was recorded under the signed-in
-- session's person. cash_in_out now takes the register's till_switch (as post_sale and post_refund do, through
-- private.sale_till_cashier): cash_movements.actor_id is the switched-in person, the new till_switch_id names the
-- switch, and a switch whose offline proof fails keeps the movement under the signed-in person, flagged
-- (review_reasons = till_switch_unverified), instead of losing it. Cash in/out needs no approval, so the switched
-- person's role decides nothing more; who may move cash in the shift stays the session's rule (close_shift's).
-- The function gains two parameters with defaults, so existing named calls (and the 4-argument form) still resolve;
-- the old 6-argument signature is dropped so PostgREST never sees two candidates.

alter table public.cash_movements add column till_switch_id uuid;
alter table public.cash_movements add constraint cash_movements_till_switch_id_fkey
  foreign key (till_switch_id) references public.till_switches(id);
create index cash_movements_till_switch_idx on public.cash_movements (till_switch_id);
comment on column public.cash_movements.till_switch_id is 'The PIN switch under which the cash moved (actor_id is then the switched-in person); null when moved by the signed-in person.';
alter table public.cash_movements add column review_reasons text[] default '{}'::text[] not null;
comment on column public.cash_movements.review_reasons is 'Why a manager should look at this movement (till_switch_unverified: its offline PIN switch failed verification, so it stays under the signed-in person); empty when none.';

drop function public.cash_in_out(uuid, uuid, text, bigint, text, timestamptz);

-- ---------------------------------------------------------------------------------------------------
-- Cash in and out (20261124140000_pos_offline_events): a cashier only in their own shift (close_shift's rule).
create or replace function public.cash_in_out(_id uuid, _shift_id uuid, _kind text, _amount bigint, _reason text,
                                              _at timestamptz, _till_switch jsonb default null,
                                              _offline boolean default false)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_shift public.shifts;
  v_done public.cash_movements;
  v_role text;
  v_at timestamptz;
  v_id uuid;
  v_register public.registers;
  v_till record;
begin
  if _id is null then
    raise exception 'a cash movement needs an id' using errcode = '22023';
  end if;
  select s.* into v_shift from public.shifts s where s.id = _shift_id;
  if v_shift.id is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  select a.o_role into v_role from private.pos_store_access(v_shift.store_id, array['owner', 'manager', 'cashier']) a;
  if v_role = 'cashier' and v_shift.cashier_id is distinct from (select auth.uid()) then
    raise exception 'permission denied: only the cashier who opened it or a manager moves cash in this shift'
      using errcode = '42501';
  end if;
  select m.* into v_done from public.cash_movements m where m.id = _id;
  if v_done.id is not null then
    if v_done.shift_id is distinct from _shift_id then
      raise exception 'permission denied for this cash movement id' using errcode = '42501';
    end if;
    return v_done.id;
  end if;
  if v_shift.closed_at is not null then
    raise exception 'this shift is closed' using errcode = '22023';
  elsif _kind is null or _kind not in ('in', 'out') then
    raise exception 'cash goes in or out' using errcode = '22023';
  elsif _amount is null or _amount <= 0 or _amount > 100000000000 then
    raise exception 'enter an amount above zero' using errcode = '22023';
  elsif char_length(btrim(coalesce(_reason, ''))) not between 1 and 200 then
    raise exception 'give a reason (1 to 200 characters)' using errcode = '22023';
  elsif _at is not null and not isfinite(_at) then
    raise exception 'the time is not a date and time' using errcode = '22023';
  end if;
  v_at := private.pos_event_time(coalesce(_at, now()), v_shift.opened_at);
  -- The person PIN-switched in at the till (ADR 0300) moves the cash: named on the row. Checked before the write so a
  -- refused switch (online, unknown or no longer valid) writes nothing; an offline proof that fails flags the row.
  select r.* into v_register from public.registers r where r.id = v_shift.register_id;
  select * into v_till
    from private.sale_till_cashier(_till_switch, v_shift.business_id, v_register, coalesce(_offline, false));
  insert into public.cash_movements (id, business_id, store_id, shift_id, kind, amount, reason, actor_id, at,
                                     till_switch_id, review_reasons)
  values (_id, v_shift.business_id, v_shift.store_id, v_shift.id, _kind, _amount, btrim(_reason), v_till.o_user_id, v_at,
          v_till.o_switch_id, v_till.o_reasons)
  on conflict (id) do nothing
  returning id into v_id;
  if v_id is null then
    select m.* into v_done from public.cash_movements m where m.id = _id;
    if v_done.shift_id is distinct from _shift_id then
      raise exception 'permission denied for this cash movement id' using errcode = '42501';
    end if;
    return v_done.id;
  end if;
  perform private.log_activity(v_shift.business_id, v_shift.store_id, 'cash.' || _kind, 'shift', v_shift.id, null,
    jsonb_build_object('amount', _amount, 'reason', btrim(_reason), 'movement_id', _id, 'at', v_at)
    || case when _at is distinct from v_at then jsonb_build_object('register_at', _at) else '{}'::jsonb end
    || case when _till_switch is null or jsonb_typeof(_till_switch) = 'null' then '{}'::jsonb
            else jsonb_build_object('cashier_id', v_till.o_user_id, 'till_switch_id', v_till.o_switch_id,
                                    'review_reasons', to_jsonb(v_till.o_reasons)) end);
  return v_id;
end;
$$;
comment on function public.cash_in_out(uuid,uuid,text,bigint,text,timestamp with time zone,jsonb,boolean) is 'Cash in or out of an open shift with the register''s id and time for it; idempotent by that id (ADR 0155). The register''s till_switch names the person switched in by PIN (ADR 0300, 0350); _offline: the entry was made offline, so a switch that cannot be verified flags it rather than refusing it.';
revoke all on function public.cash_in_out(uuid,uuid,text,bigint,text,timestamp with time zone,jsonb,boolean) from public, anon;
grant execute on function public.cash_in_out(uuid,uuid,text,bigint,text,timestamp with time zone,jsonb,boolean) to authenticated;
