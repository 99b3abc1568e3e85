-- Read-only maintenance reaches Storage (issue 30, docs/adr/0280): while it is on, a signed-in user can no longer
-- add, replace or remove product pictures, business logos or export files. A logo is a file without a row, so the
-- table guard never saw it: the owner could change the logo every receipt prints during maintenance.
-- Restrictive policies (they AND with the permissive ones), so each bucket's own access rules stay as they are.
-- Storage answers a failed policy with 403 "new row violates row-level security policy" (a raised error would be a
-- 500 in the real Storage), and the dashboard words that refusal with the read-only sentence
-- (shared/lib/storage-refusal.ts). Support attachments stay open: support stays reachable during maintenance, as
-- support_tickets is exempt from the table guard.

create or replace function private.platform_writable()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(auth.role(), '') not in ('authenticated', 'anon')
      or not exists (select 1 from private.platform_settings s where s.id and s.read_only);
$$;
comment on function private.platform_writable() is 'False while read-only maintenance is on for signed-in and anonymous callers (the Storage policies'' form of private.assert_writable, docs/adr/0280).';
revoke all on function private.platform_writable() from public, anon;
grant execute on function private.platform_writable() to authenticated;

create policy "maintenance: no file added while read-only" on storage.objects
  as restrictive for insert to authenticated
  with check (bucket_id = 'support-attachments' or (select private.platform_writable()));

create policy "maintenance: no file replaced while read-only" on storage.objects
  as restrictive for update to authenticated
  using (bucket_id = 'support-attachments' or (select private.platform_writable()));

create policy "maintenance: no file removed while read-only" on storage.objects
  as restrictive for delete to authenticated
  using (bucket_id = 'support-attachments' or (select private.platform_writable()));
