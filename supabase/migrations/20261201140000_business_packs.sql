-- Packs (issue 29, ADR 0250): what each kind of shop asks for most, switched on per business. Sign-up's business
-- type picks the first set (Grocery: scale barcodes and expiry-first lots; Medical: lots and prescriptions;
-- Electronics: serial numbers; Clothing: the size grid); the owner turns any pack on or off afterwards with
-- set_business_pack, which the business audit trigger records (business.updated with the packs before and after).
-- A pack decides what the screens offer; the rules of the data (a serial sold once, an expired lot) hold whether
-- or not its pack is on, so turning a pack off never lets bad data in.

create or replace function private.pack_names()
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array['scale_barcodes', 'lots_fefo', 'serials', 'size_grid', 'prescriptions']::text[];
$$;
revoke all on function private.pack_names() from public;
-- The packs CHECK calls it on every write to a business, as the writing member.
grant execute on function private.pack_names() to authenticated;
grant execute on function private.pack_names() to service_role;

-- The packs a business type starts with.
create or replace function private.default_packs(_business_type text)
returns text[]
language sql
immutable
set search_path = ''
as $$
  select case _business_type
    when 'Grocery' then array['scale_barcodes', 'lots_fefo']
    when 'Medical' then array['lots_fefo', 'prescriptions']
    when 'Electronics' then array['serials']
    when 'Clothing' then array['size_grid']
    else array[]::text[] end;
$$;
revoke all on function private.default_packs(text) from public;

alter table public.businesses add column packs text[] default '{}'::text[] not null;
alter table public.businesses add constraint businesses_packs_known check (packs <@ private.pack_names());
comment on column public.businesses.packs is 'The packs switched on (private.pack_names): set from the business type when the business is created, then by the owner with set_business_pack.';

-- Existing businesses get the packs of their type, as a new one would.
update public.businesses b set packs = private.default_packs(b.type) where b.packs = '{}';

create or replace function private.businesses_default_packs()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.packs is null or new.packs = '{}' then
    new.packs := private.default_packs(new.type);
  end if;
  return new;
end;
$$;
revoke all on function private.businesses_default_packs() from public;

create trigger businesses_default_packs before insert on public.businesses
  for each row execute function private.businesses_default_packs();

-- The owner turns one pack on or off. Packs are kept sorted so the audit trail's before/after compare plainly.
create or replace function public.set_business_pack(_business_id uuid, _pack text, _enabled boolean)
returns text[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_packs text[];
begin
  perform private.assert_role(_business_id, array['owner']);
  if _pack is null or not (_pack = any (private.pack_names())) then
    raise exception 'no such pack: choose one of %', array_to_string(private.pack_names(), ', ') using errcode = '22023';
  end if;
  if _enabled is null then
    raise exception 'say whether the pack is on or off' using errcode = '22023';
  end if;
  update public.businesses b
     set packs = (select coalesce(array_agg(p order by p), '{}')
                    from unnest(array_remove(b.packs, _pack) || case when _enabled then array[_pack] else '{}'::text[] end) p)
   where b.id = _business_id
  returning b.packs into v_packs;
  return v_packs;
end;
$$;
revoke all on function public.set_business_pack(uuid,text,boolean) from public, anon;
grant execute on function public.set_business_pack(uuid,text,boolean) to authenticated;
