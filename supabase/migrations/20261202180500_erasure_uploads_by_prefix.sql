-- business_erasure_uploads found the business's files by (storage.foldername(o.name))[1] = the business id, which no
-- index serves: each batch of the business deletion read every object of every business (review of 20261202110000).
-- It matches the folder as a prefix now, o.name like '<id>/%', with the same prefix as a byte-order range
-- ('<id>/' <= name < '<id>0', '0' being the character after '/'), which Storage's name_prefix_search index
-- (name text_pattern_ops) serves in a generic plan too: this function's query is planned with _business_id as a
-- parameter, and a LIKE whose pattern is not a constant is never an index condition. Support attachments: the same
-- per ticket of the business. The same files, in the same order.

create or replace function public.business_erasure_uploads(_business_id uuid, _limit integer default 500)
returns table (bucket_id text, name text)
language sql
stable
security definer
set search_path = ''
as $$
  select f.bucket_id, f.name
    from (select o.bucket_id, o.name from storage.objects o
           where o.bucket_id in ('product-images', 'product-thumbnails', 'business-logos', 'exports')
             and o.name like _business_id::text || '/%'
             and o.name ~>=~ (_business_id::text || '/') and o.name ~<~ (_business_id::text || '0')
          union all
          select o.bucket_id, o.name from public.support_tickets t
            join storage.objects o
              on o.bucket_id = 'support-attachments'
             and o.name like t.id::text || '/%'
             and o.name ~>=~ (t.id::text || '/') and o.name ~<~ (t.id::text || '0')
           where t.business_id = _business_id) f
   order by f.bucket_id, f.name
   limit greatest(least(coalesce(_limit, 500), 1000), 1);
$$;
revoke all on function public.business_erasure_uploads(uuid, integer) from public;
grant execute on function public.business_erasure_uploads(uuid, integer) to service_role;
