-- active_sessions.created_at is the sign-in time the Security screen shows next to each session (several
-- sessions from one browser share device, place and "Active now"; when each began tells them apart). The
-- insert trigger left it at its default, the moment the row was written, which is the sign-in only when
-- GoTrue writes auth.sessions live: a session restored or seeded with an older created_at showed a sign-in
-- later than its last activity. Copy the session's own created_at, as login_activity.login_at already does.
-- No new table, column or grant: the function keeps its owner and privileges (create or replace).
create or replace function public.on_auth_session_created()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_device text := public.device_label(new.user_agent);
  v_location text := public.location_label(new.ip);
  v_signed_in timestamptz := coalesce(new.created_at, now());
begin
  insert into public.login_activity (user_id, device, login_at, location, ip_address)
  values (new.user_id, v_device, v_signed_in, v_location, new.ip);
  update public.active_sessions set is_current = false where user_id = new.user_id and is_current;
  insert into public.active_sessions (user_id, session_id, device, location, ip_address, last_active, is_current, created_at)
  values (new.user_id, new.id, v_device, v_location, new.ip, v_signed_in, true, v_signed_in);
  return new;
end;
$$;

-- Rows written before this migration take their session's start.
update public.active_sessions as a
   set created_at = s.created_at
  from auth.sessions as s
 where s.id = a.session_id and s.created_at is not null and a.created_at <> s.created_at;
