-- The admin business list showed the owner's stored plan row: a trial past its end still read "Pro, trialing",
-- and a provider subscription was not looked at. It now shows the plan in force (private.business_entitlement,
-- the same rule every limit uses) and an ended trial as expired.

create or replace function public.admin_list_businesses(_search text default null, _limit int default 20, _offset int default 0)
returns table (
  id uuid, name text, type text, owner_id uuid, owner_name text, owner_email text, plan text, plan_status text,
  stores bigint, members bigint, created_at timestamptz, suspended_at timestamptz, suspended_reason text,
  total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_search text := nullif(btrim(coalesce(_search, '')), '');
  v_limit int := least(greatest(coalesce(_limit, 20), 1), 100);
  v_offset int := greatest(coalesce(_offset, 0), 0);
  v_pattern text;
begin
  perform private.assert_admin();
  if char_length(v_search) > 100 then
    raise exception 'search text is too long (100 characters at most)' using errcode = '22023';
  end if;
  v_pattern := case when v_search is null then null
                    else '%' || replace(replace(replace(v_search, '\', '\\'), '%', '\%'), '_', '\_') || '%' end;
  return query
    with page as materialized (
      select b.id, count(*) over () as total
        from public.businesses b
       where v_pattern is null or b.name ilike v_pattern
          or b.owner_id in (select p.id from public.profiles p where p.full_name ilike v_pattern)
       order by b.created_at desc, b.id
       limit v_limit offset v_offset
    )
    select b.id, b.name::text, b.type::text, b.owner_id, p.full_name, u.email::text,
           e.plan,
           case when e.plan = 'Free' and e.status = 'trialing' then 'expired' else nullif(e.status, 'none') end,
           (select count(*) from public.stores s where s.business_id = b.id and s.archived_at is null),
           (select count(*) from public.business_members m where m.business_id = b.id),
           b.created_at, b.suspended_at, b.suspended_reason::text, page.total
      from page
      join public.businesses b on b.id = page.id
      left join public.profiles p on p.id = b.owner_id
      left join auth.users u on u.id = b.owner_id
      cross join lateral private.business_entitlement(b.id) e
     order by b.created_at desc, b.id;
end;
$$;
revoke all on function public.admin_list_businesses(text,integer,integer) from public;
grant execute on function public.admin_list_businesses(text,integer,integer) to authenticated;
