-- Product images (issue 27, docs/adr/0320): several pictures per product, one main, in order. The files live in
-- Storage (bucket product-images, full size; product-thumbnails, the small and medium previews the browser makes at
-- upload) under <business id>/<product id>/, so the bucket policies of 20261201120000_storage_buckets.sql decide
-- who may write them; this table says which files belong to which product. Members read (the register shows the
-- pictures); owners and managers add, order, choose the main one and remove, as for products. Explicit grants:
-- hosted Supabase gives none automatically on new tables.

create table public.product_images (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  product_id uuid not null,
  -- Object names, each under the product's folder (checked below, so a row cannot point into another business).
  path text not null,
  small_path text not null,
  medium_path text not null,
  position integer default 0 not null,
  is_main boolean default false not null,
  created_at timestamp with time zone default now() not null,
  constraint product_images_pkey primary key (id),
  constraint product_images_path_key unique (path),
  constraint product_images_path_in_folder check (path like (business_id::text || '/' || product_id::text || '/_%') and path !~ '(^|/)\.\.?(/|$)'),
  constraint product_images_small_path_in_folder check (small_path like (business_id::text || '/' || product_id::text || '/_%') and small_path !~ '(^|/)\.\.?(/|$)'),
  constraint product_images_medium_path_in_folder check (medium_path like (business_id::text || '/' || product_id::text || '/_%') and medium_path !~ '(^|/)\.\.?(/|$)'),
  constraint product_images_position_check check (position >= 0 and position < 100),
  constraint product_images_product_id_business_id_fkey foreign key (product_id, business_id) references public.products(id, business_id) on delete cascade
);
alter table public.product_images enable row level security;
comment on table public.product_images is 'A product''s pictures (docs/adr/0320): the full-size file in bucket product-images, its small and medium previews in product-thumbnails, all under <business>/<product>/. Members read; owners and managers add, order, choose the main one (set_main_product_image) and remove. One main picture per product at most.';

-- The product's pictures in order (the FK's columns lead, for the cascade from products).
create index product_images_product_id_business_id_idx on public.product_images (product_id, business_id, position);
-- At most one main picture per product.
create unique index product_images_one_main on public.product_images (product_id) where is_main;
-- The register reads a business's main pictures at once (pos_catalog_images).
create index product_images_business_id_idx on public.product_images (business_id);

revoke all on table public.product_images from public, anon;
grant select, delete on table public.product_images to authenticated;
grant insert (business_id, product_id, path, small_path, medium_path, position, is_main) on table public.product_images to authenticated;
grant update (position, is_main) on table public.product_images to authenticated;
grant delete, insert, select, update on table public.product_images to service_role;

create policy "product images: members read" on public.product_images for select to authenticated
  using (business_id in (select private.my_business_ids()));

create policy "product images: owners and managers add" on public.product_images for insert to authenticated
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "product images: owners and managers order" on public.product_images for update to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])))
  with check (business_id in (select private.my_business_ids(array['owner', 'manager'])));

create policy "product images: owners and managers remove" on public.product_images for delete to authenticated
  using (business_id in (select private.my_business_ids(array['owner', 'manager'])));

-- ---------------------------------------------------------------------------------------------------
-- The main picture: one statement cannot swap it (the unique index is checked row by row), so the old main is
-- cleared first, then the new one set, in one call. Security invoker: the table's policies decide (a cashier's
-- update reaches no row and is refused).
create or replace function public.set_main_product_image(_image_id uuid)
returns void
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_product uuid;
begin
  select i.product_id into v_product from public.product_images i where i.id = _image_id;
  if v_product is null then
    raise exception 'picture not found' using errcode = 'P0002';
  end if;
  update public.product_images set is_main = false where product_id = v_product and is_main and id <> _image_id;
  update public.product_images set is_main = true where id = _image_id;
  if not found then
    raise exception 'only owners and managers choose the main picture' using errcode = '42501';
  end if;
end;
$$;
comment on function public.set_main_product_image(uuid) is 'Makes the picture its product''s main one (and no other). Owners and managers (the table''s policies, security invoker).';
revoke all on function public.set_main_product_image(uuid) from public, anon;
grant execute on function public.set_main_product_image(uuid) to authenticated;
grant execute on function public.set_main_product_image(uuid) to service_role;

-- The register's pictures: each unarchived variant of the business whose product has one, with the main picture's
-- previews (else the first in order), in variant id order so the caller can page with range(). Security invoker:
-- a member of the business reads them, nobody else.
create or replace function public.pos_catalog_images(_business_id uuid)
returns table (variant_id uuid, small_path text, medium_path text)
language sql
stable
security invoker
set search_path = ''
as $$
  select v.id, m.small_path, m.medium_path
    from (select distinct on (i.product_id) i.product_id, i.small_path, i.medium_path
            from public.product_images i
           where i.business_id = _business_id
           order by i.product_id, i.is_main desc, i.position, i.created_at) m
    join public.variants v on v.product_id = m.product_id and v.business_id = _business_id
   where v.archived_at is null
   order by v.id;
$$;
comment on function public.pos_catalog_images(uuid) is 'Each unarchived variant''s product picture previews (the main one, else the first) for the register''s offline copy. Members of the business (security invoker).';
revoke all on function public.pos_catalog_images(uuid) from public, anon;
grant execute on function public.pos_catalog_images(uuid) to authenticated;
grant execute on function public.pos_catalog_images(uuid) to service_role;
