-- Issue 31, store PCs (docs/adr/0270): each desktop app reports which version it runs, on which update channel
-- and platform, so the admin panel can watch a staged rollout. No personal data: the device is a random id the
-- app made for itself, and no user id, host name or address is stored. Members insert for a business they belong
-- to; nobody reads the rows directly; admins read the latest report per device through admin_desktop_versions.

create table public.desktop_heartbeats (
  id bigint generated always as identity,
  business_id uuid not null,
  device_id uuid not null,
  app_version text not null,
  channel text not null,
  platform text not null,
  arch text not null,
  -- Both stamped by the server (not in the insert grant).
  reported_on date not null default (now() at time zone 'utc')::date,
  reported_at timestamptz not null default now(),
  constraint desktop_heartbeats_pkey primary key (id),
  -- One row per device, version and day at most (the app reports at start and every few hours; a repeat of the
  -- same day is ignored on this key), so the table grows with devices and days, not with restarts.
  constraint desktop_heartbeats_once_a_day unique (business_id, device_id, app_version, reported_on),
  constraint desktop_heartbeats_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  -- A semantic version as electron-builder stamps it (1.4.0, 1.5.0-beta.2), nothing else.
  constraint desktop_heartbeats_app_version_check check (app_version ~ '^[0-9]{1,5}\.[0-9]{1,5}\.[0-9]{1,5}(-[0-9A-Za-z.-]{1,40})?$'),
  constraint desktop_heartbeats_channel_check check (channel in ('stable', 'beta')),
  constraint desktop_heartbeats_platform_check check (platform in ('win32', 'darwin', 'linux')),
  constraint desktop_heartbeats_arch_check check (arch in ('x64', 'arm64', 'ia32'))
);
alter table public.desktop_heartbeats enable row level security;
comment on table public.desktop_heartbeats is 'Which Storewise desktop version each store PC runs (docs/adr/0270): device id, version, channel, platform; no personal data.';

create index desktop_heartbeats_reported_at_idx on public.desktop_heartbeats (reported_at desc);

revoke all on table public.desktop_heartbeats from public, anon, authenticated;
-- Insert only, of the reported columns: reported_on and reported_at are the server's. No select at all (not even for
-- INSERT ... ON CONFLICT, which needs SELECT on its key and then applies select policies to the new row): a repeat
-- is a unique violation (409, 23505) the app ignores.
grant insert (business_id, device_id, app_version, channel, platform, arch) on table public.desktop_heartbeats to authenticated;

create policy desktop_heartbeats_insert_member on public.desktop_heartbeats
  for insert to authenticated
  with check (business_id in (select private.my_business_ids()));


-- ---------------------------------------------------------------------------------------------------
-- Admin: the latest report of every store PC seen in the last _days days, newest first, with the business name,
-- and how many devices run each version (the rollout at a glance) on every row.
create or replace function public.admin_desktop_versions(_days int default 30, _limit int default 50, _offset int default 0)
returns table (
  business_id uuid,
  business_name text,
  device_id uuid,
  app_version text,
  channel text,
  platform text,
  arch text,
  reported_at timestamptz,
  devices_on_version bigint,
  total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_days int := least(greatest(coalesce(_days, 30), 1), 365);
  v_limit int := least(greatest(coalesce(_limit, 50), 1), 200);
  v_offset int := greatest(coalesce(_offset, 0), 0);
begin
  perform private.assert_admin();
  return query
    with latest as (
      select distinct on (h.business_id, h.device_id)
             h.business_id, h.device_id, h.app_version, h.channel, h.platform, h.arch, h.reported_at
        from public.desktop_heartbeats h
       where h.reported_at >= now() - make_interval(days => v_days)
       order by h.business_id, h.device_id, h.reported_at desc
    )
    select l.business_id, b.name::text, l.device_id, l.app_version, l.channel, l.platform, l.arch, l.reported_at,
           count(*) over (partition by l.app_version), count(*) over ()
      from latest l
      join public.businesses b on b.id = l.business_id
     order by l.reported_at desc, l.device_id
     limit v_limit offset v_offset;
end;
$$;
comment on function public.admin_desktop_versions(integer,integer,integer) is 'Admins only (42501 otherwise): the latest heartbeat of each store PC seen in the last 1..365 days, newest first, with the count of devices per version and the total on every row.';
revoke all on function public.admin_desktop_versions(integer,integer,integer) from public, anon;
grant execute on function public.admin_desktop_versions(integer,integer,integer) to authenticated;
