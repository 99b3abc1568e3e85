-- Issue 28, live screens (docs/adr/0330):
-- 1. Which registers hold sales not yet sent. A register reports its outbox count (and the time of its oldest
--    waiting entry) through report_register_outbox whenever it changes and every minute while online; owners and
--    managers of the store read the latest report per register, live through Realtime (the table is in the
--    publication). One row per register, so the table grows with registers, not with reports. No personal data.
-- 2. Refunds are live too (today's sales on the Overview are net of refunds). The table has no cost column; a
--    cashier receives only refunds of their own shifts, as the select policy says.
-- 3. The admin Activity Logs tail live: admins (at aal2 once enrolled, public.is_admin) may read the trail's
--    platform entries (suspensions), the only activity rows the log shows; every other entry stays the business's.

create table public.register_sync_states (
  register_id uuid not null,
  business_id uuid not null,
  store_id uuid not null,
  waiting integer not null,
  oldest_waiting_at timestamptz,
  -- Stamped by the server: a register's clock may be wrong.
  reported_at timestamptz not null default now(),
  constraint register_sync_states_pkey primary key (register_id),
  constraint register_sync_states_register_id_fkey foreign key (register_id) references public.registers(id) on delete cascade,
  constraint register_sync_states_store_id_business_id_fkey foreign key (store_id, business_id) references public.stores(id, business_id) on delete cascade,
  constraint register_sync_states_waiting_range check (waiting >= 0 and waiting <= 1000000),
  constraint register_sync_states_oldest_only_when_waiting check (waiting > 0 or oldest_waiting_at is null)
);
alter table public.register_sync_states enable row level security;
alter publication supabase_realtime add table public.register_sync_states;
comment on table public.register_sync_states is 'The latest outbox report of each register (sales and other entries waiting to sync), written only by report_register_outbox; owners and managers of the store read it (live on the Overview).';

create index register_sync_states_store_business_idx on public.register_sync_states (store_id, business_id);
create index register_sync_states_business_idx on public.register_sync_states (business_id);

revoke all on table public.register_sync_states from public, anon, authenticated;
grant select on table public.register_sync_states to authenticated;
grant select on table public.register_sync_states to service_role;

create policy "register_sync_states: owners and managers of the store read" on public.register_sync_states
  for select to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids())))
         and (business_id in (select private.my_business_ids(array['owner', 'manager']))));

-- Any member who may use the register's store reports for it (the cashier at the till); the count is what the
-- device holds, so it is a claim, shown as such ("as of" the report), never used for money.
create or replace function public.report_register_outbox(_register_id uuid, _waiting integer, _oldest_waiting_at timestamptz default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_register public.registers%rowtype;
begin
  if _waiting is null or _waiting < 0 or _waiting > 1000000 then
    raise exception 'waiting must be between 0 and 1000000' using errcode = '22023';
  end if;
  select r.* into v_register from public.registers r
   where r.id = _register_id
     and r.business_id in (select private.my_business_ids())
     and (r.business_id in (select private.my_full_access_business_ids()) or r.store_id in (select private.my_listed_store_ids()));
  if not found then
    raise exception 'no such register' using errcode = '42501';
  end if;
  insert into public.register_sync_states as s (register_id, business_id, store_id, waiting, oldest_waiting_at, reported_at)
  values (v_register.id, v_register.business_id, v_register.store_id, _waiting,
          case when _waiting > 0 then least(coalesce(_oldest_waiting_at, now()), now()) end, now())
  on conflict (register_id) do update
     set waiting = excluded.waiting, oldest_waiting_at = excluded.oldest_waiting_at, reported_at = excluded.reported_at,
         store_id = excluded.store_id;
end;
$$;
comment on function public.report_register_outbox(uuid, integer, timestamptz) is 'A register reports how many entries its outbox holds (0..1000000) and since when; members who may use its store only (42501), otherwise 22023 for a bad count.';
revoke all on function public.report_register_outbox(uuid, integer, timestamptz) from public, anon;
grant execute on function public.report_register_outbox(uuid, integer, timestamptz) to authenticated;

alter publication supabase_realtime add table public.refunds;

-- One select policy (two permissive ones would both run for every row): the owners' and managers' rule as before,
-- or an admin reading a platform entry.
drop policy "activity: owners read all, managers their stores" on public.activity;
create policy "activity: owners read all, managers their stores" on public.activity
  for select to authenticated
  using (business_id in (select private.my_business_ids(array['owner']))
         or (business_id in (select private.my_business_ids(array['manager']))
             and entity_type <> 'invitation'
             and (store_id is null or (business_id in (select private.my_full_access_business_ids())
              or store_id in (select private.my_listed_store_ids()))))
         or (kind in ('business.suspended', 'business.unsuspended') and (select public.is_admin((select auth.uid())))));
