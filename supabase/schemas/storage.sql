-- Storage (issue 27): the buckets and the policies on storage.objects (the storage schema itself belongs to the
-- platform: hosted Supabase has it, the local stack's bootstrap creates it). Written by hand, not by
-- npm run schema:extract, which reads the public and private schemas only; kept equal to the migrations by
-- tests/hosted/schema-files.test.ts. Every object name starts with the folder that decides access: the business
-- id, or the support ticket id.
-- Invariants: a user reaches only the files of the businesses they are a member of, with that business's role
-- (product files: owners and managers write; logos and exports: the owner); support attachments only by the
-- ticket's owner and the admins, and never replaced; public buckets are read by URL, never listed across tenants.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('product-images', 'product-images', true, 5242880, array['image/png', 'image/jpeg', 'image/webp']),
  ('product-thumbnails', 'product-thumbnails', true, 524288, array['image/png', 'image/jpeg', 'image/webp']),
  ('business-logos', 'business-logos', true, 2097152, array['image/png', 'image/jpeg', 'image/webp']),
  ('support-attachments', 'support-attachments', false, 10485760, array['application/pdf', 'image/png', 'image/jpeg']),
  ('exports', 'exports', false, null, null)
on conflict (id) do nothing;

-- ---- Product images and thumbnails: <business id>/<product id>/<file>
create policy "product files: members list their business's" on storage.objects
  for select to authenticated
  using (bucket_id in ('product-images', 'product-thumbnails')
         and (storage.foldername(name))[1] in (select b::text from private.my_business_ids() b));

create policy "product files: owners and managers add" on storage.objects
  for insert to authenticated
  with check (bucket_id in ('product-images', 'product-thumbnails')
              and (storage.foldername(name))[1] in (select b::text from private.my_business_ids(array['owner', 'manager']) b));

create policy "product files: owners and managers replace" on storage.objects
  for update to authenticated
  using (bucket_id in ('product-images', 'product-thumbnails')
         and (storage.foldername(name))[1] in (select b::text from private.my_business_ids(array['owner', 'manager']) b))
  with check (bucket_id in ('product-images', 'product-thumbnails')
              and (storage.foldername(name))[1] in (select b::text from private.my_business_ids(array['owner', 'manager']) b));

create policy "product files: owners and managers remove" on storage.objects
  for delete to authenticated
  using (bucket_id in ('product-images', 'product-thumbnails')
         and (storage.foldername(name))[1] in (select b::text from private.my_business_ids(array['owner', 'manager']) b));

-- ---- Business logos: <business id>/<file>; members see it, the owner changes it (as businesses: owner updates)
create policy "business logos: members list" on storage.objects
  for select to authenticated
  using (bucket_id = 'business-logos'
         and (storage.foldername(name))[1] in (select b::text from private.my_business_ids() b));

create policy "business logos: the owner adds" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'business-logos'
              and (storage.foldername(name))[1] in (select b::text from private.my_business_ids(array['owner']) b));

create policy "business logos: the owner replaces" on storage.objects
  for update to authenticated
  using (bucket_id = 'business-logos'
         and (storage.foldername(name))[1] in (select b::text from private.my_business_ids(array['owner']) b))
  with check (bucket_id = 'business-logos'
              and (storage.foldername(name))[1] in (select b::text from private.my_business_ids(array['owner']) b));

create policy "business logos: the owner removes" on storage.objects
  for delete to authenticated
  using (bucket_id = 'business-logos'
         and (storage.foldername(name))[1] in (select b::text from private.my_business_ids(array['owner']) b));

-- ---- Support attachments: <ticket id>/<file>; the ticket's owner adds and reads, admins read and remove.
-- Nobody replaces an attachment: what was sent stays what was sent.
create policy "support attachments: ticket owner or admin reads" on storage.objects
  for select to authenticated
  using (bucket_id = 'support-attachments'
         and ((storage.foldername(name))[1] in (select t.id::text from public.support_tickets t where t.user_id = (select auth.uid()))
              or (select public.is_admin((select auth.uid())))));

create policy "support attachments: ticket owner or admin adds" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'support-attachments'
              and ((storage.foldername(name))[1] in (select t.id::text from public.support_tickets t where t.user_id = (select auth.uid()))
                   or (select public.is_admin((select auth.uid())))));

create policy "support attachments: admins remove" on storage.objects
  for delete to authenticated
  using (bucket_id = 'support-attachments' and (select public.is_admin((select auth.uid()))));

-- ---- Exports: <business id>/<file>; the business owner only (a whole business's data).
create policy "exports: the owner reads" on storage.objects
  for select to authenticated
  using (bucket_id = 'exports'
         and (storage.foldername(name))[1] in (select b::text from private.my_business_ids(array['owner']) b));

create policy "exports: the owner adds" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'exports'
              and (storage.foldername(name))[1] in (select b::text from private.my_business_ids(array['owner']) b));

create policy "exports: the owner removes" on storage.objects
  for delete to authenticated
  using (bucket_id = 'exports'
         and (storage.foldername(name))[1] in (select b::text from private.my_business_ids(array['owner']) b));

-- ---- Read-only maintenance (docs/adr/0280): restrictive, so they AND with the bucket policies above; support
-- attachments stay open as support does. private.platform_writable() lives in shared.sql.
create policy "maintenance: no file added while read-only" on storage.objects
  as restrictive for insert to authenticated
  with check (bucket_id = 'support-attachments' or (select private.platform_writable()));

create policy "maintenance: no file replaced while read-only" on storage.objects
  as restrictive for update to authenticated
  using (bucket_id = 'support-attachments' or (select private.platform_writable()));

create policy "maintenance: no file removed while read-only" on storage.objects
  as restrictive for delete to authenticated
  using (bucket_id = 'support-attachments' or (select private.platform_writable()));
