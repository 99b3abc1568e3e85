-- The workspace's functions (issue 11): the caller's workspaces and usage, the team (roles, store access,
-- removal, ownership), invitations, and the admin's business list and suspension. Each is security definer,
-- checks the caller's role first (42501 otherwise) and lets the audit triggers write the activity trail.

-- ---------------------------------------------------------------------------------------------------
-- The workspaces of the caller with role, plan and usage: the switcher and the usage line ("2 of 3 stores").
-- An owner also sees a suspended business (with the reason); other members do not see it at all.
create or replace function public.my_workspaces()
returns table (
  id uuid, name text, type text, role text, owner_id uuid, suspended_at timestamptz, suspended_reason text,
  plan text, max_stores int, max_products int, max_members int, stores_used bigint, members_used bigint
)
language sql
stable
security definer
set search_path = ''
as $$
  select b.id, b.name::text, b.type::text, m.role::text, b.owner_id, b.suspended_at, b.suspended_reason::text,
         l.plan, l.max_stores, l.max_products, l.max_members,
         (select count(*) from public.stores s where s.business_id = b.id and s.archived_at is null),
         (select count(*) from public.business_members x where x.business_id = b.id)
    from public.business_members m
    join public.businesses b on b.id = m.business_id
    cross join lateral private.plan_limits(b.id) l
   where m.user_id = (select auth.uid())
     and (b.suspended_at is null or m.role = 'owner')
   order by (m.role = 'owner') desc, b.name, b.id;
$$;

-- ---------------------------------------------------------------------------------------------------
-- The team with names and emails (profiles and auth.users are not readable across users otherwise).
create or replace function public.business_team(_business_id uuid)
returns table (
  user_id uuid, full_name text, email text, role text, all_stores boolean, store_ids uuid[], joined_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  return query
    select m.user_id, p.full_name, u.email::text, m.role::text, m.all_stores,
           coalesce((select array_agg(a.store_id order by a.store_id) from public.member_store_access a
                      where a.business_id = m.business_id and a.user_id = m.user_id), '{}'),
           m.created_at
      from public.business_members m
      join auth.users u on u.id = m.user_id
      left join public.profiles p on p.id = m.user_id
     where m.business_id = _business_id
     order by (m.role = 'owner') desc, m.role, p.full_name, m.user_id;
end;
$$;

-- Store ids must be stores of the business; an empty list with all_stores off means no store at all.
create or replace function private.write_store_access(_business_id uuid, _user_id uuid, _all_stores boolean, _store_ids uuid[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_before uuid[];
  v_after uuid[] := case when _all_stores then '{}'::uuid[]
                         else (select coalesce(array_agg(distinct x order by x), '{}') from unnest(coalesce(_store_ids, '{}')) x) end;
begin
  if exists (select 1 from unnest(v_after) x
              where not exists (select 1 from public.stores s where s.id = x and s.business_id = _business_id)) then
    raise exception 'a chosen store does not belong to this business' using errcode = '22023';
  end if;
  select coalesce(array_agg(a.store_id order by a.store_id), '{}') into v_before
    from public.member_store_access a where a.business_id = _business_id and a.user_id = _user_id;
  if v_before = v_after then
    return;
  end if;
  delete from public.member_store_access a where a.business_id = _business_id and a.user_id = _user_id;
  insert into public.member_store_access (business_id, user_id, store_id)
  select _business_id, _user_id, x from unnest(v_after) x;
  perform private.log_activity(_business_id, null, 'member.access_changed', 'member', _user_id,
    jsonb_build_object('store_ids', v_before), jsonb_build_object('store_ids', v_after));
end;
$$;
revoke all on function private.write_store_access(uuid, uuid, boolean, uuid[]) from public, anon, authenticated;

-- The owner changes a member's role and store access (not their own: ownership moves by transfer).
create or replace function public.set_member_role(
  _business_id uuid, _user_id uuid, _role text, _all_stores boolean default true, _store_ids uuid[] default '{}'
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_current text;
begin
  perform private.assert_role(_business_id, array['owner']);
  if _role is null or _role not in ('manager', 'cashier') then
    raise exception 'a member is a manager or a cashier' using errcode = '22023';
  end if;
  select m.role into v_current from public.business_members m
   where m.business_id = _business_id and m.user_id = _user_id for update;
  if v_current is null then
    raise exception 'not a member of this business' using errcode = 'P0002';
  elsif v_current = 'owner' then
    raise exception 'the owner''s role changes only by transferring ownership' using errcode = '42501';
  end if;
  update public.business_members m set role = _role, all_stores = coalesce(_all_stores, true)
   where m.business_id = _business_id and m.user_id = _user_id
     and (m.role is distinct from _role or m.all_stores is distinct from coalesce(_all_stores, true));
  perform private.write_store_access(_business_id, _user_id, coalesce(_all_stores, true), _store_ids);
end;
$$;

-- The owner removes a member; their next request finds no membership (RLS reads it live).
create or replace function public.remove_member(_business_id uuid, _user_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_current text;
begin
  perform private.assert_role(_business_id, array['owner']);
  select m.role into v_current from public.business_members m
   where m.business_id = _business_id and m.user_id = _user_id for update;
  if v_current is null then
    raise exception 'not a member of this business' using errcode = 'P0002';
  elsif v_current = 'owner' then
    raise exception 'the owner cannot be removed; transfer ownership first' using errcode = '42501';
  end if;
  delete from public.business_members m where m.business_id = _business_id and m.user_id = _user_id;
end;
$$;

-- The owner hands the business to another member, who becomes the one owner; the old owner stays as a
-- manager of every store.
create or replace function public.transfer_ownership(_business_id uuid, _new_owner uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
begin
  perform private.assert_role(_business_id, array['owner']);
  perform 1 from public.businesses b where b.id = _business_id for update;
  if _new_owner is null or _new_owner = v_uid
     or not exists (select 1 from public.business_members m where m.business_id = _business_id and m.user_id = _new_owner) then
    raise exception 'ownership goes to another member of this business' using errcode = '22023';
  end if;
  update public.business_members m set role = 'manager', all_stores = true
   where m.business_id = _business_id and m.user_id = v_uid;
  update public.business_members m set role = 'owner', all_stores = true
   where m.business_id = _business_id and m.user_id = _new_owner;
  delete from public.member_store_access a where a.business_id = _business_id and a.user_id in (v_uid, _new_owner);
  update public.businesses b set owner_id = _new_owner where b.id = _business_id;
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- Invitations. The token is returned once to the owner (for the email link) and stored as a SHA-256.
create or replace function public.create_invitation(
  _business_id uuid, _email text, _role text, _all_stores boolean default true, _store_ids uuid[] default '{}'
)
returns table (invitation_id uuid, token text, expires_at timestamptz)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := lower(btrim(coalesce(_email, '')));
  v_token text := encode(extensions.gen_random_bytes(32), 'hex');
  v_store_ids uuid[] := case when coalesce(_all_stores, true) then '{}'::uuid[]
                             else (select coalesce(array_agg(distinct x), '{}') from unnest(coalesce(_store_ids, '{}')) x) end;
  v_invitation public.invitations;
begin
  perform private.assert_role(_business_id, array['owner']);
  if _role is null or _role not in ('manager', 'cashier') then
    raise exception 'invite a manager or a cashier' using errcode = '22023';
  end if;
  if char_length(v_email) > 255 or v_email !~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' then
    raise exception 'enter a valid email address' using errcode = '22023';
  end if;
  if exists (select 1 from unnest(v_store_ids) x
              where not exists (select 1 from public.stores s where s.id = x and s.business_id = _business_id)) then
    raise exception 'a chosen store does not belong to this business' using errcode = '22023';
  end if;
  perform private.assert_plan_allows(_business_id, 'members');
  if exists (select 1 from public.business_members m join auth.users u on u.id = m.user_id
              where m.business_id = _business_id and lower(u.email) = v_email) then
    raise exception 'this person is already a member of the business' using errcode = '23505';
  end if;
  -- One open invitation per address: a new one replaces the old.
  update public.invitations i set revoked_at = now()
   where i.business_id = _business_id and lower(i.email) = v_email
     and i.accepted_at is null and i.revoked_at is null;
  insert into public.invitations (business_id, email, role, all_stores, store_ids, invited_by)
  values (_business_id, v_email, _role, coalesce(_all_stores, true), v_store_ids, (select auth.uid()))
  returning * into v_invitation;
  insert into private.invitation_tokens (invitation_id, token_hash)
  values (v_invitation.id, encode(extensions.digest(v_token, 'sha256'), 'hex'));
  return query select v_invitation.id, v_token, v_invitation.expires_at;
end;
$$;

create or replace function public.revoke_invitation(_invitation_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_business uuid;
begin
  select i.business_id into v_business from public.invitations i where i.id = _invitation_id;
  perform private.assert_role(v_business, array['owner']);
  update public.invitations i set revoked_at = now()
   where i.id = _invitation_id and i.accepted_at is null and i.revoked_at is null;
  if not found then
    raise exception 'this invitation was already accepted or revoked' using errcode = '22023';
  end if;
end;
$$;

-- The invitation behind a token, for its accept page: who invites, for which role and whether it still works.
create or replace function public.invitation_preview(_token text)
returns table (business_name text, role text, email text, expires_at timestamptz, status text)
language sql
stable
security definer
set search_path = ''
as $$
  select b.name::text, i.role::text, i.email::text, i.expires_at,
         case when i.accepted_at is not null then 'accepted'
              when i.revoked_at is not null then 'revoked'
              when i.expires_at <= now() then 'expired'
              else 'pending' end
    from private.invitation_tokens t
    join public.invitations i on i.id = t.invitation_id
    join public.businesses b on b.id = i.business_id
   where (select auth.uid()) is not null
     and t.token_hash = encode(extensions.digest(coalesce(_token, ''), 'sha256'), 'hex');
$$;

-- The signed-in invitee joins the business: once, before it expires, unrevoked, with the invited address.
create or replace function public.accept_invitation(_token text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_invitation public.invitations;
  v_email text;
begin
  if v_uid is null then
    raise exception 'sign in to accept an invitation' using errcode = '42501';
  end if;
  select i.* into v_invitation
    from private.invitation_tokens t join public.invitations i on i.id = t.invitation_id
   where t.token_hash = encode(extensions.digest(coalesce(_token, ''), 'sha256'), 'hex')
   for update of i;
  if v_invitation.id is null then
    raise exception 'this invitation link is not valid' using errcode = 'P0002';
  elsif v_invitation.accepted_at is not null then
    raise exception 'this invitation was already used' using errcode = '22023';
  elsif v_invitation.revoked_at is not null then
    raise exception 'this invitation was withdrawn' using errcode = '22023';
  elsif v_invitation.expires_at <= now() then
    raise exception 'this invitation has expired: ask for a new one' using errcode = '22023';
  end if;
  select lower(u.email) into v_email from auth.users u where u.id = v_uid and u.email_confirmed_at is not null;
  if v_email is distinct from lower(v_invitation.email) then
    raise exception 'this invitation was sent to another email address' using errcode = '42501';
  end if;
  if exists (select 1 from public.business_members m where m.business_id = v_invitation.business_id and m.user_id = v_uid) then
    raise exception 'you are already a member of this business' using errcode = '23505';
  end if;
  if exists (select 1 from public.businesses b where b.id = v_invitation.business_id and b.suspended_at is not null) then
    raise exception 'this business is suspended' using errcode = '42501';
  end if;
  perform private.assert_plan_allows(v_invitation.business_id, 'members');
  insert into public.business_members (business_id, user_id, role, all_stores)
  values (v_invitation.business_id, v_uid, v_invitation.role, v_invitation.all_stores);
  insert into public.member_store_access (business_id, user_id, store_id)
  select v_invitation.business_id, v_uid, s.id
    from public.stores s
   where not v_invitation.all_stores and s.business_id = v_invitation.business_id and s.id = any (v_invitation.store_ids);
  update public.invitations i set accepted_at = now(), accepted_by = v_uid where i.id = v_invitation.id;
  return v_invitation.business_id;
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- Admin: businesses newest first with owner, plan, stores and members; search on the business name or
-- the owner's name (trigram indexes); one page of 1..100 with the list's total on every row.
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
           coalesce(case when up.status in ('trialing', 'active', 'past_due') then up.plan_name end, 'Free'),
           up.status,
           (select count(*) from public.stores s where s.business_id = b.id and s.archived_at is null),
           (select count(*) from public.business_members m where m.business_id = b.id),
           b.created_at, b.suspended_at, b.suspended_reason::text, page.total
      from page
      join public.businesses b on b.id = page.id
      left join public.profiles p on p.id = b.owner_id
      left join auth.users u on u.id = b.owner_id
      left join public.user_plans up on up.user_id = b.owner_id
     order by b.created_at desc, b.id;
end;
$$;

-- Admin: suspend (with a reason the owner sees) or lift a suspension. The audit trigger records who.
create or replace function public.admin_set_business_suspension(_business_id uuid, _suspended boolean, _reason text default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_reason text := nullif(btrim(coalesce(_reason, '')), '');
begin
  perform private.assert_admin();
  if _suspended and (v_reason is null or char_length(v_reason) > 500) then
    raise exception 'give the owner a reason (1 to 500 characters)' using errcode = '22023';
  end if;
  update public.businesses b
     set suspended_at = case when _suspended then coalesce(b.suspended_at, now()) end,
         suspended_reason = case when _suspended then v_reason end
   where b.id = _business_id;
  if not found then
    raise exception 'no such business' using errcode = 'P0002';
  end if;
end;
$$;

do $$
declare
  f text;
begin
  foreach f in array array[
    'public.my_workspaces()',
    'public.business_team(uuid)',
    'public.set_member_role(uuid, uuid, text, boolean, uuid[])',
    'public.remove_member(uuid, uuid)',
    'public.transfer_ownership(uuid, uuid)',
    'public.create_invitation(uuid, text, text, boolean, uuid[])',
    'public.revoke_invitation(uuid)',
    'public.invitation_preview(text)',
    'public.accept_invitation(text)',
    'public.admin_list_businesses(text, int, int)',
    'public.admin_set_business_suspension(uuid, boolean, text)'
  ] loop
    execute format('revoke all on function %s from public, anon', f);
    execute format('grant execute on function %s to authenticated', f);
  end loop;
end;
$$;
