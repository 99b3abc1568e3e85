-- The register's offline events (issue 13, ADR 0155): with no connection the register keeps adding customers,
-- moving cash in and out and closing the shift. Each is queued in the device's outbox with a client-generated id
-- and sent when the connection returns, in order with the sales; these are the idempotent versions of the three
-- writes that a retry (an answer lost on the way back) can repeat safely.
--
-- * create_customer(_id, ...): insert ... on conflict (id) do nothing; a retry returns the first row, an id that
--   belongs to another business is refused (42501) and reveals nothing. Members create, as through the table
--   today; the customers audit trigger records the insert.
-- * cash_in_out(_id, _shift_id, ...): the movement's id is the client's; a retry writes nothing twice.
-- * close_shift(_shift_id, _counted, _close_id, _closed_at): the close's id is kept on the shift, so a retry of the
--   same close returns the figures instead of "already closed".
-- * The register's clock decides when cash moved and when the shift closed, bounded to [shift opened, server now]:
--   an offline event is never refused for the clock (that would leave the shift open forever); the activity entry
--   records the time the register sent when it was moved.
-- The old signatures stay (tests and the back office use them). Grants are explicit (hosted Supabase grants
-- nothing by default).

alter table public.shifts add column close_id uuid;
comment on column public.shifts.close_id is
  'The register''s id for the close (close_shift with _close_id): a retry of the same close returns the figures.';

-- The register's time for an event of a shift, kept between the shift's opening and the server's now.
create or replace function private.pos_event_time(_at timestamptz, _opened_at timestamptz)
returns timestamptz
language sql
stable
set search_path = ''
as $$
  select least(greatest(coalesce(_at, _opened_at), _opened_at), now());
$$;
revoke all on function private.pos_event_time(timestamptz, timestamptz) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
create or replace function public.create_customer(_id uuid, _business_id uuid, _name text, _phone text, _email text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.customers;
begin
  if _id is null or _business_id is null then
    raise exception 'a customer needs an id and a business' using errcode = '22023';
  elsif _business_id not in (select private.my_business_ids()) then
    raise exception 'permission denied for this business' using errcode = '42501';
  end if;
  begin
    insert into public.customers (id, business_id, name, phone, email)
    values (_id, _business_id, btrim(_name), nullif(btrim(coalesce(_phone, '')), ''), nullif(btrim(coalesce(_email, '')), ''))
    on conflict (id) do nothing
    returning * into v_row;
  exception when check_violation or not_null_violation then
    raise exception 'a customer needs a name (2 to 100 characters), and a phone of 10 to 20 characters or an email if given'
      using errcode = '22023';
  end;
  if v_row.id is null then
    -- A retry (or a concurrent copy that committed first): the first row, if it is this business's.
    select c.* into v_row from public.customers c where c.id = _id;
    if v_row.business_id is distinct from _business_id then
      raise exception 'permission denied for this customer id' using errcode = '42501';
    end if;
  end if;
  return jsonb_build_object('id', v_row.id, 'business_id', v_row.business_id, 'name', v_row.name,
                            'phone', v_row.phone, 'email', v_row.email, 'created_at', v_row.created_at);
end;
$$;
comment on function public.create_customer(uuid, uuid, text, text, text) is
  'Members add a customer at the counter with the register''s id for it; idempotent by that id (ADR 0155).';

-- ---------------------------------------------------------------------------------------------------
create or replace function public.cash_in_out(_id uuid, _shift_id uuid, _kind text, _amount bigint, _reason text,
                                              _at timestamptz)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_shift public.shifts;
  v_done public.cash_movements;
  v_at timestamptz;
  v_id uuid;
begin
  if _id is null then
    raise exception 'a cash movement needs an id' using errcode = '22023';
  end if;
  select s.* into v_shift from public.shifts s where s.id = _shift_id;
  if v_shift.id is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  perform private.assert_store_role(v_shift.store_id, array['owner', 'manager', 'cashier']);
  -- A retry: already written (checked before "closed", so a retry after the close still answers).
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
  end if;
  v_at := private.pos_event_time(coalesce(_at, now()), v_shift.opened_at);
  insert into public.cash_movements (id, business_id, store_id, shift_id, kind, amount, reason, actor_id, at)
  values (_id, v_shift.business_id, v_shift.store_id, v_shift.id, _kind, _amount, btrim(_reason), (select auth.uid()), v_at)
  on conflict (id) do nothing
  returning id into v_id;
  if v_id is null then
    -- A concurrent copy committed first (the primary key made this one wait).
    select m.* into v_done from public.cash_movements m where m.id = _id;
    if v_done.shift_id is distinct from _shift_id then
      raise exception 'permission denied for this cash movement id' using errcode = '42501';
    end if;
    return v_done.id;
  end if;
  perform private.log_activity(v_shift.business_id, v_shift.store_id, 'cash.' || _kind, 'shift', v_shift.id, null,
    jsonb_build_object('amount', _amount, 'reason', btrim(_reason), 'movement_id', _id, 'at', v_at)
    || case when _at is distinct from v_at then jsonb_build_object('register_at', _at) else '{}'::jsonb end);
  return v_id;
end;
$$;
comment on function public.cash_in_out(uuid, uuid, text, bigint, text, timestamptz) is
  'Cash in or out of an open shift with the register''s id and time for it; idempotent by that id (ADR 0155).';

-- ---------------------------------------------------------------------------------------------------
-- The counted close with the register's id and time for it. The checks and figures are close_shift's.
create or replace function public.close_shift(_shift_id uuid, _counted jsonb, _close_id uuid, _closed_at timestamptz)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_shift public.shifts;
  v_total numeric := 0;
  v_expected bigint;
  v_at timestamptz;
  r record;
begin
  if _close_id is null then
    raise exception 'a close needs an id' using errcode = '22023';
  end if;
  select s.* into v_shift from public.shifts s where s.id = _shift_id for update;
  if v_shift.id is null then
    raise exception 'no such shift' using errcode = '42501';
  end if;
  perform private.assert_store_role(v_shift.store_id, array['owner', 'manager', 'cashier']);
  if private.my_role(v_shift.business_id) = 'cashier' and v_shift.cashier_id is distinct from (select auth.uid()) then
    raise exception 'permission denied: only the cashier who opened it or a manager closes this shift' using errcode = '42501';
  elsif v_shift.closed_at is not null then
    if v_shift.close_id = _close_id then
      return private.shift_figures(_shift_id); -- a retry of this close
    end if;
    raise exception 'this shift is already closed' using errcode = '22023';
  elsif jsonb_typeof(_counted) is distinct from 'object' then
    raise exception 'count the cash by denomination' using errcode = '22023';
  end if;
  for r in select key, value from jsonb_each(_counted) loop
    if r.key !~ '^[1-9][0-9]{0,9}$' or jsonb_typeof(r.value) <> 'number' or (r.value #>> '{}') !~ '^[0-9]{1,9}$' then
      raise exception 'a denomination is a whole amount in minor units and its count a whole number' using errcode = '22023';
    end if;
    v_total := v_total + r.key::numeric * (r.value #>> '{}')::numeric;
  end loop;
  v_at := private.pos_event_time(coalesce(_closed_at, now()), v_shift.opened_at);
  v_expected := (private.shift_figures(_shift_id) ->> 'expected_cash')::bigint;
  update public.shifts s
     set closed_at = v_at, closed_by = (select auth.uid()), counted = _counted, counted_total = v_total::bigint,
         expected_cash = v_expected, difference = v_total::bigint - v_expected, close_id = _close_id
   where s.id = _shift_id;
  perform private.log_activity(v_shift.business_id, v_shift.store_id, 'shift.closed', 'shift', v_shift.id, null,
    jsonb_build_object('expected_cash', v_expected, 'counted_total', v_total, 'difference', v_total - v_expected,
                       'closed_at', v_at)
    || case when _closed_at is distinct from v_at then jsonb_build_object('register_closed_at', _closed_at) else '{}'::jsonb end);
  return private.shift_figures(_shift_id);
end;
$$;
comment on function public.close_shift(uuid, jsonb, uuid, timestamptz) is
  'The counted close with the register''s id and time for it; a retry of the same close returns the figures (ADR 0155).';

do $$
declare
  f text;
begin
  foreach f in array array[
    'public.create_customer(uuid, uuid, text, text, text)',
    'public.cash_in_out(uuid, uuid, text, bigint, text, timestamptz)',
    'public.close_shift(uuid, jsonb, uuid, timestamptz)'
  ] loop
    execute format('revoke all on function %s from public, anon', f);
    execute format('grant execute on function %s to authenticated', f);
  end loop;
end;
$$;
