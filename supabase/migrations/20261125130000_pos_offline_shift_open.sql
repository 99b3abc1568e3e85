-- The register opens a shift offline, keeps the business's customers for searching at the counter, and a manager
-- settles what the server refused from the outbox (issue 13 "Offline first", ADR 0165).
--
-- * open_shift(_id, _register_id, _opening_float, _opened_at, _offline): the shift's id is the register's, queued in
--   the outbox before the sales made in it. A retry (an answer lost on the way back) returns the first shift and
--   writes nothing twice; an id of another register is refused (42501) and reveals nothing. One open shift per
--   register stays a unique index: online, a second open is refused (23505) as before. From the offline outbox
--   (_offline true) the open is never refused for that: the register's drawer really was opened and sales were made
--   in it, so the shift is written with opened_in_conflict = true and review_reasons naming the shift it collided
--   with, logged 'shift.open_conflict' for the manager. Such a shift is outside the unique index (it is the one
--   exception, only this function writes it) and takes its own sales, cash and close like any other.
-- * current_shift returns the caller's own open shift first, so a register whose offline shift collided keeps it.
-- * pos_outbox_review(...): an owner or manager retries or discards an entry the server refused, with a reason;
--   the activity trail keeps what was decided, by whom and why (the entry itself lives on the register's device).
-- * customers get an index for the register's delta refresh (updated_at after the last copy).
-- Grants are explicit (hosted Supabase grants nothing by default).

alter table public.shifts add column opened_in_conflict boolean not null default false;
alter table public.shifts add column review_reasons text[] not null default '{}';
comment on column public.shifts.opened_in_conflict is
  'Opened offline while another shift was open on the register (open_shift from the outbox): flagged for the '
  'manager, outside the one-open-shift-per-register index. Written only by open_shift.';
comment on column public.shifts.review_reasons is
  'Why the manager should look at this shift (open_conflict:<the other shift id>, register_opened_at). Written only '
  'by open_shift.';

-- One open shift per register, except a shift that arrived from an offline register while another was open.
drop index public.shifts_one_open_per_register_idx;
create unique index shifts_one_open_per_register_idx on public.shifts (register_id)
  where closed_at is null and not opened_in_conflict;

create index customers_business_updated_idx on public.customers (business_id, updated_at, id);

-- ---------------------------------------------------------------------------------------------------
-- The shift as the register reads it: the row, the next receipt sequence and the register's prefix.
create or replace function private.shift_for_register(_shift public.shifts, _register public.registers)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select to_jsonb(_shift) || jsonb_build_object(
    'next_receipt_seq', coalesce((select c.last_seq from private.register_counters c where c.register_id = _register.id), 0) + 1,
    'receipt_prefix', _register.receipt_prefix::text);
$$;
revoke all on function private.shift_for_register(public.shifts, public.registers) from public, anon, authenticated;

create or replace function public.open_shift(_id uuid, _register_id uuid, _opening_float bigint, _opened_at timestamptz,
                                             _offline boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_register public.registers;
  v_business uuid;
  v_shift public.shifts;
  v_other public.shifts;
  v_at timestamptz;
  v_floor timestamptz;
begin
  if _id is null then
    raise exception 'a shift needs its register-generated id' using errcode = '22023';
  end if;
  select r.* into v_register from public.registers r where r.id = _register_id;
  if v_register.id is null or (v_register.archived_at is not null and not coalesce(_offline, false)) then
    raise exception 'no such register' using errcode = '42501';
  end if;
  v_business := private.assert_store_role(v_register.store_id, array['owner', 'manager', 'cashier']);
  -- A retry: the first shift (checked before the float, so a replay always answers the same).
  select s.* into v_shift from public.shifts s where s.id = _id;
  if v_shift.id is not null then
    if v_shift.register_id is distinct from v_register.id then
      raise exception 'permission denied for this shift id' using errcode = '42501';
    end if;
    return private.shift_for_register(v_shift, v_register);
  end if;
  if _opening_float is null or _opening_float < 0 or _opening_float > 100000000000 then
    raise exception 'enter a starting float of zero or more' using errcode = '22023';
  end if;
  -- The register's clock, kept after the register's last close and before the server's now.
  select max(s.closed_at) into v_floor from public.shifts s where s.register_id = v_register.id;
  v_at := least(greatest(coalesce(_opened_at, now()), coalesce(v_floor, '-infinity'::timestamptz)), now());
  begin
    insert into public.shifts (id, business_id, store_id, register_id, cashier_id, opening_float, opened_at)
    values (_id, v_business, v_register.store_id, v_register.id, (select auth.uid()), _opening_float, v_at)
    on conflict (id) do nothing
    returning * into v_shift;
  exception when unique_violation then
    -- A concurrent copy of this open (same id) that committed first is a replay, not a conflict.
    if exists (select 1 from public.shifts s where s.id = _id) then
      select s.* into v_shift from public.shifts s where s.id = _id and s.register_id = v_register.id;
      if v_shift.id is null then
        raise exception 'permission denied for this shift id' using errcode = '42501';
      end if;
      return private.shift_for_register(v_shift, v_register);
    end if;
    -- Another shift is open on this register.
    select s.* into v_other from public.shifts s
     where s.register_id = v_register.id and s.closed_at is null and not s.opened_in_conflict;
    if not coalesce(_offline, false) then
      raise exception 'this register already has an open shift: close it first' using errcode = '23505';
    end if;
    insert into public.shifts (id, business_id, store_id, register_id, cashier_id, opening_float, opened_at,
                               opened_in_conflict, review_reasons)
    values (_id, v_business, v_register.store_id, v_register.id, (select auth.uid()), _opening_float, v_at, true,
            array['open_conflict:' || coalesce(v_other.id::text, 'unknown')])
    on conflict (id) do nothing
    returning * into v_shift;
    if v_shift.id is not null then
      perform private.log_activity(v_business, v_register.store_id, 'shift.open_conflict', 'shift', v_shift.id, null,
        jsonb_build_object('register_id', v_register.id, 'opening_float', _opening_float, 'opened_at', v_at,
                           'open_shift_id', v_other.id));
    end if;
  end;
  if v_shift.id is null then
    -- A concurrent copy of the same open committed first.
    select s.* into v_shift from public.shifts s where s.id = _id;
    if v_shift.register_id is distinct from v_register.id then
      raise exception 'permission denied for this shift id' using errcode = '42501';
    end if;
    return private.shift_for_register(v_shift, v_register);
  end if;
  insert into private.register_counters (register_id) values (v_register.id) on conflict do nothing;
  if not v_shift.opened_in_conflict then
    perform private.log_activity(v_business, v_register.store_id, 'shift.opened', 'shift', v_shift.id, null,
      jsonb_build_object('register_id', v_register.id, 'opening_float', _opening_float, 'opened_at', v_at)
      || case when _opened_at is distinct from v_at then jsonb_build_object('register_opened_at', _opened_at)
              else '{}'::jsonb end);
  end if;
  return private.shift_for_register(v_shift, v_register);
end;
$$;
comment on function public.open_shift(uuid, uuid, bigint, timestamptz, boolean) is
  'Opens a shift with the register''s id and time for it; idempotent by that id. From the offline outbox a second '
  'open shift on the register is written and flagged (opened_in_conflict) instead of refused (ADR 0165).';

-- The register's open shift: the caller's own first (a shift of theirs that collided offline stays theirs), then
-- the one the unique index guards.
create or replace function public.current_shift(_register_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_register public.registers;
  v_shift public.shifts;
begin
  select r.* into v_register from public.registers r where r.id = _register_id;
  if v_register.id is null then
    raise exception 'no such register' using errcode = '42501';
  end if;
  perform private.assert_store_role(v_register.store_id, array['owner', 'manager', 'cashier']);
  select s.* into v_shift from public.shifts s
   where s.register_id = _register_id and s.closed_at is null
   order by (s.cashier_id = (select auth.uid())) desc nulls last, s.opened_in_conflict, s.opened_at desc
   limit 1;
  if v_shift.id is null then
    return null;
  end if;
  return private.shift_for_register(v_shift, v_register);
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- A manager settles an outbox entry the server refused: 'retry' (sent again) or 'discard' (removed from the
-- register), always with a reason. The entry lives on the device; the trail keeps the decision.
create or replace function public.pos_outbox_review(_store_id uuid, _entry_id uuid, _kind text, _action text,
                                                    _reason text, _error text, _author_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid;
begin
  v_business := private.assert_store_role(_store_id, array['owner', 'manager']);
  if _entry_id is null then
    raise exception 'name the entry' using errcode = '22023';
  elsif _kind is null or _kind not in ('sale', 'refund', 'customer', 'cash', 'close', 'open') then
    raise exception 'an entry is a sale, refund, customer, cash, close or open' using errcode = '22023';
  elsif _action is null or _action not in ('retry', 'discard') then
    raise exception 'retry or discard' using errcode = '22023';
  elsif char_length(btrim(coalesce(_reason, ''))) not between 3 and 500 then
    raise exception 'give a reason (3 to 500 characters)' using errcode = '22023';
  end if;
  perform private.log_activity(v_business, _store_id, 'pos.outbox_' || _action, 'outbox_entry', _entry_id, null,
    jsonb_build_object('kind', _kind, 'reason', btrim(_reason), 'refusal', left(coalesce(_error, ''), 500),
                       'author_id', _author_id));
end;
$$;
comment on function public.pos_outbox_review(uuid, uuid, text, text, text, text, uuid) is
  'Owners and managers of the store record retrying or discarding an outbox entry the server refused (ADR 0165).';

do $$
declare
  f text;
begin
  foreach f in array array[
    'public.open_shift(uuid, uuid, bigint, timestamptz, boolean)',
    'public.pos_outbox_review(uuid, uuid, text, text, text, text, uuid)'
  ] loop
    execute format('revoke all on function %s from public, anon', f);
    execute format('grant execute on function %s to authenticated', f);
  end loop;
end;
$$;
