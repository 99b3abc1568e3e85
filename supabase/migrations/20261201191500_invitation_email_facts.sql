-- Invitation emails that say who invites, to which business and role (issue 25). The auth service's email for
-- an invitation (the local auth server's /otp, and the hosted send-email hook) looks the invitation up by the
-- token its accept link carries and writes the facts into the email. Only the service role may ask (the local
-- auth server is the database owner): the token is a 32-byte secret and the address must be the invited one,
-- so nothing here tells a stranger anything.

create or replace function public.invitation_email_facts(_token text, _email text)
returns table (business_name text, role text, inviter_name text, expires_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select b.name::text, i.role::text,
         coalesce(nullif(btrim(p.full_name), ''), nullif(btrim(u.raw_user_meta_data ->> 'full_name'), '')),
         i.expires_at
    from private.invitation_tokens t
    join public.invitations i on i.id = t.invitation_id
    join public.businesses b on b.id = i.business_id
    left join public.profiles p on p.id = i.invited_by
    left join auth.users u on u.id = i.invited_by
   where t.token_hash = encode(extensions.digest(coalesce(_token, ''), 'sha256'), 'hex')
     and lower(i.email) = lower(btrim(coalesce(_email, '')))
     and i.accepted_at is null and i.revoked_at is null and i.expires_at > now();
$$;
comment on function public.invitation_email_facts(text, text) is
  'For the auth email of an invitation (local auth server, hosted send-email hook): business, role and inviter of a pending invitation to this address. Service role only.';
revoke all on function public.invitation_email_facts(text, text) from public, anon, authenticated;
grant execute on function public.invitation_email_facts(text, text) to service_role;
