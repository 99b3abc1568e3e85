-- Issue 11, the workspace's bell items (docs/adr/0106): invitations accepted and plan changes are written to
-- public.notifications (the support desk's table, ADR 0120: each user reads and marks read only their own;
-- only security definer code inserts) by triggers; "trial ending soon" is computed on read by
-- public.my_trial_notice(), so no job has to run on a clock.

-- The owner hears when someone accepts an invitation (accept_invitation sets accepted_at exactly once).
create or replace function private.notify_invitation_accepted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_owner uuid;
  v_business text;
begin
  if new.accepted_at is null or old.accepted_at is not null then
    return new;
  end if;
  select b.owner_id, b.name into v_owner, v_business from public.businesses b where b.id = new.business_id;
  if v_owner is null or v_owner = new.accepted_by then
    return new;
  end if;
  insert into public.notifications (user_id, kind, title, body, link)
  values (v_owner, 'invitation.accepted', left(format('%s joined %s', new.email, v_business), 200),
          format('They accepted your invitation and joined as %s.', new.role), '/dashboard/business/team');
  return new;
end;
$$;
revoke all on function private.notify_invitation_accepted() from public, anon, authenticated;
create trigger invitations_notify_accepted after update of accepted_at on public.invitations
  for each row execute function private.notify_invitation_accepted();

-- The account hears when its plan or its plan's status changes (billing back office, admin, trial end).
-- Only updates: the first plan row is the sign-up's own choice (and bulk seeds insert plans by the thousand).
create or replace function private.notify_plan_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.plan_name is not distinct from old.plan_name and new.status is not distinct from old.status then
    return new;
  end if;
  insert into public.notifications (user_id, kind, title, body, link)
  values (new.user_id, 'plan.changed',
          case when new.plan_name is distinct from old.plan_name
               then format('Your plan changed from %s to %s', old.plan_name, new.plan_name)
               else format('Your %s plan is now %s', new.plan_name, replace(new.status, '_', ' ')) end,
          case when new.status in ('canceled', 'expired')
               then 'Your business is on the Free plan''s limits now; nothing was deleted.'
               else 'Your limits follow the new plan from now on.' end,
          '/dashboard/billing');
  return new;
end;
$$;
revoke all on function private.notify_plan_changed() from public, anon, authenticated;
create trigger user_plans_notify_changed after update of plan_name, status on public.user_plans
  for each row execute function private.notify_plan_changed();

-- Trial ending soon: the caller's trial when it ends within 3 days (read by the bell; nothing is stored).
create or replace function public.my_trial_notice()
returns table (plan_name text, trial_ends_at timestamptz, days_left integer)
language sql
stable
security invoker
set search_path = ''
as $$
  select up.plan_name, up.next_billing_date,
         greatest(0, ceil(extract(epoch from (up.next_billing_date - now())) / 86400))::integer
    from public.user_plans up
   where up.user_id = (select auth.uid())
     and up.status = 'trialing'
     and up.next_billing_date is not null
     and up.next_billing_date > now()
     and up.next_billing_date <= now() + interval '3 days';
$$;
comment on function public.my_trial_notice() is
  'The signed-in user''s trial when it ends within 3 days; reads user_plans under its own-row policy.';
revoke all on function public.my_trial_notice() from public, anon, authenticated;
grant execute on function public.my_trial_notice() to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------
-- Admin Activity Logs (docs/adr/0107): platform events, newest first, paged by keyset (at, event id).
-- Sign-ups are profiles (profiles_created_at_idx); suspensions are the businesses' audit lines (a partial index
-- keeps them one walk among a million activity rows); plan changes are kept from now on in
-- private.plan_events, written by a trigger (user_plans holds only the current plan).
create table private.plan_events (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  old_plan text,
  old_status text,
  new_plan text not null,
  new_status text not null,
  at timestamptz not null default now()
);
-- No policies: only the security definer trigger and function (table owner) touch it.
alter table private.plan_events enable row level security;
comment on table private.plan_events is
  'Plan history for the admin Activity Logs; written only by private.record_plan_event, read through '
  'public.admin_platform_events. Not exposed to the API roles.';
create index plan_events_at_idx on private.plan_events (at desc, id desc);
create index plan_events_user_idx on private.plan_events (user_id);
revoke all on table private.plan_events from public, anon, authenticated;

create index activity_platform_idx on public.activity (at desc, id desc)
  where kind in ('business.suspended', 'business.unsuspended');

create or replace function private.record_plan_event()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.plan_name is not distinct from old.plan_name and new.status is not distinct from old.status then
    return null;
  end if;
  insert into private.plan_events (user_id, old_plan, old_status, new_plan, new_status)
  values (new.user_id, case when tg_op = 'UPDATE' then old.plan_name end, case when tg_op = 'UPDATE' then old.status end,
          new.plan_name, new.status);
  return null;
end;
$$;
revoke all on function private.record_plan_event() from public, anon, authenticated;
create trigger user_plans_record_event after insert or update of plan_name, status on public.user_plans
  for each row execute function private.record_plan_event();

create or replace function public.admin_platform_events(
  _kind text default null,
  _before_at timestamptz default null,
  _before_id text default null,
  _limit integer default 50
)
returns table (event_id text, kind text, at timestamptz, user_id uuid, business_id uuid, subject text, detail text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_limit integer := least(greatest(coalesce(_limit, 50), 1), 200);
begin
  if not public.is_admin((select auth.uid())) then
    raise exception 'admins only' using errcode = '42501';
  end if;
  if _kind is not null and _kind not in ('signup', 'plan', 'suspension') then
    raise exception 'unknown event kind: %', _kind using errcode = '22023';
  end if;
  if (_before_at is null) <> (_before_id is null) then
    raise exception 'a page starts after both a time and an event id' using errcode = '22023';
  end if;
  -- One more row than asked: the screen knows there is a next page without counting the whole history.
  return query
  select e.event_id, e.kind, e.at, e.user_id, e.business_id, e.subject, e.detail
    from (
      (select 'signup:' || p.id::text as event_id, 'signup'::text as kind, p.created_at as at, p.id as user_id,
              null::uuid as business_id, coalesce(p.full_name, 'A new account') as subject,
              coalesce(p.business_name, '') as detail
         from public.profiles p
        where (_kind is null or _kind = 'signup')
          and (_before_at is null or (p.created_at, 'signup:' || p.id::text) < (_before_at, _before_id))
        order by p.created_at desc, p.id desc
        limit v_limit + 1)
      union all
      (select 'plan:' || lpad(pe.id::text, 20, '0'), 'plan', pe.at, pe.user_id, null::uuid,
              coalesce(p.full_name, 'An account'),
              case when pe.old_plan is null then format('%s (%s)', pe.new_plan, pe.new_status)
                   else format('%s (%s) -> %s (%s)', pe.old_plan, pe.old_status, pe.new_plan, pe.new_status) end
         from private.plan_events pe
         left join public.profiles p on p.id = pe.user_id
        where (_kind is null or _kind = 'plan')
          and (_before_at is null or (pe.at, 'plan:' || lpad(pe.id::text, 20, '0')) < (_before_at, _before_id))
        order by pe.at desc, pe.id desc
        limit v_limit + 1)
      union all
      (select 'suspension:' || lpad(a.id::text, 20, '0'), 'suspension', a.at, a.actor_id, a.business_id,
              coalesce(b.name::text, 'A business'),
              case when a.kind = 'business.suspended'
                   then 'Suspended: ' || coalesce(a.after ->> 'suspended_reason', 'no reason given')
                   else 'Suspension lifted' end
         from public.activity a
         left join public.businesses b on b.id = a.business_id
        where a.kind in ('business.suspended', 'business.unsuspended')
          and (_kind is null or _kind = 'suspension')
          and (_before_at is null or (a.at, 'suspension:' || lpad(a.id::text, 20, '0')) < (_before_at, _before_id))
        order by a.at desc, a.id desc
        limit v_limit + 1)
    ) e
   order by e.at desc, e.event_id desc
   limit v_limit + 1;
end;
$$;
comment on function public.admin_platform_events(text, timestamptz, text, integer) is
  'Admins only (42501 otherwise): sign-ups, plan changes and suspensions, newest first, keyset paged.';
revoke all on function public.admin_platform_events(text, timestamptz, text, integer) from public, anon, authenticated;
grant execute on function public.admin_platform_events(text, timestamptz, text, integer) to authenticated, service_role;
