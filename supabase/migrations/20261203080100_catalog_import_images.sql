-- The catalog file's image_url column (docs/adr/0371; issue 27: "importable by URL column in the CSV when the URL is
-- in the same bucket"). The browser turns the cell into the object's name in product-images
-- (shared/lib/product-images/image-url.ts, refusing another host or bucket); this function says, for each row, whether
-- that object is a picture of the caller's business (its folder, no "." or ".." part, and the object exists), which
-- product the row is (its SKU's, else the unarchived product of its name; none yet for a new product), whether the
-- picture is already one of that product's pictures, and the product's main picture now. The preview shows the
-- change; after the catalog's write the browser makes the picture the product's main one (set_main_product_image, or
-- addProductImage with its previews when the object is not yet that product's picture, ADR 0320). Owners and
-- managers only; another business's folder is refused even when the object exists.

create or replace function public.catalog_import_images(_business_id uuid, _rows jsonb)
returns table (row_index int, product_id uuid, image_id uuid, is_main boolean, main_path text, message text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if jsonb_typeof(_rows) is distinct from 'array' or jsonb_array_length(_rows) = 0 then
    raise exception 'the file has no rows' using errcode = '22023';
  end if;
  if jsonb_array_length(_rows) > 500 then
    raise exception 'check at most 500 pictures in one call: send the file in parts' using errcode = '22023';
  end if;
  if exists (select 1 from jsonb_array_elements(_rows) x
              where jsonb_typeof(x) <> 'object' or coalesce(x ->> 'row_index', '') !~ '^[0-9]{1,7}$'
                 or jsonb_typeof(x -> 'path') is distinct from 'string') then
    raise exception 'each row names its row_index and the picture''s path' using errcode = '22023';
  end if;
  return query
    with r as (
      select (x ->> 'row_index')::int as n, x ->> 'path' as path,
             upper(nullif(btrim(coalesce(x ->> 'sku', '')), '')) as sku,
             nullif(btrim(coalesce(x ->> 'product_name', '')), '') as name
        from jsonb_array_elements(_rows) x
    ),
    k as (
      select r.*, coalesce(bysku.id, byname.id) as product,
             exists (select 1 from storage.objects o where o.bucket_id = 'product-images' and o.name = r.path) as stored
        from r
        left join lateral (select v.product_id as id from public.variants v
                            where v.business_id = _business_id and v.sku = r.sku and v.archived_at is null) bysku on r.sku is not null
        left join lateral (select p.id from public.products p
                            where p.business_id = _business_id and p.name = r.name and p.archived_at is null
                            order by p.created_at limit 1) byname on bysku.id is null
    )
    select k.n, k.product, img.id, coalesce(img.is_main, false), main.path,
           case
             when k.path !~~ (_business_id::text || '/_%') then
               'the image_url is in another business''s folder: use a picture of this business'
             when k.path ~ '(^|/)\.\.?(/|$)' or k.path ~ '//' or char_length(k.path) > 1024 then
               'the image_url has an empty, "." or ".." part'
             when not k.stored then
               'there is no picture at this image_url in your product images: upload it first'
           end
      from k
      left join lateral (select i.id, i.is_main from public.product_images i
                          where i.product_id = k.product and i.business_id = _business_id and i.path = k.path) img on true
      left join lateral (select i.path from public.product_images i
                          where i.product_id = k.product and i.business_id = _business_id and i.is_main) main on true
     order by k.n;
end;
$$;
comment on function public.catalog_import_images(uuid,jsonb) is 'Owners and managers: for catalog-import rows with an image_url ({row_index, sku, product_name, path} with path the object''s name in product-images), the row''s product (by SKU, else by name), the product''s picture at that path if any, the product''s main picture now, and the row''s problem (another business''s folder, a "." or ".." part, no such object). Writes nothing.';
revoke all on function public.catalog_import_images(uuid,jsonb) from public, anon;
grant execute on function public.catalog_import_images(uuid,jsonb) to authenticated;
