-- The schema lint (splinter's rules) after the admin settings and store PCs migrations: the two foreign keys to
-- auth users get their indexes (deleting a user must not scan these tables), and the service role reads the
-- desktop heartbeats as it reads every table in public (support and the admin tools use it).
create index legal_versions_created_by_idx on private.legal_versions (created_by);
create index platform_setting_changes_actor_id_idx on private.platform_setting_changes (actor_id);
grant select on table public.desktop_heartbeats to service_role;
