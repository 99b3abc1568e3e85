-- Issue 30, the email settings put to use (docs/adr/0281): the sender name and reply-to an admin sets in System
-- Settings (ADR 0260) were stored but every sender still used its environment's fixed From. Now every deliverer
-- reads them at send time through public.email_sender() (service role only): the local stack's mailer (the inbox,
-- the SMTP relay, hence the outbox relay and the auth emails) and the hosted send-email Edge Function. Nothing
-- caches them, so a change applies to the next email without a restart. The sending address itself stays the
-- environment's (EMAIL_FROM / SMTP_FROM: the domain the provider has verified); only its display name changes.
-- And the test email button: admin_send_test_email() queues a 'test_email' to the signed-in admin's own address
-- through the real outbox, audited in the settings trail (subject 'test_email'), at most 5 an hour per admin
-- (PT429, as the email caps of ADR 0176).
-- Written by hand, folded into the schema files by npm run schema:extract.

-- The sender as the deliverers use it now.
create or replace function public.email_sender()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select jsonb_build_object('name', btrim(s.email_sender_name), 'reply_to', s.email_reply_to)
       from private.platform_settings s where s.id),
    jsonb_build_object('name', 'Storewise', 'reply_to', 'support@storewise.app'));
$$;
comment on function public.email_sender() is 'Service role only: the display name and reply-to address every email is sent with (System Settings > Email), read at send time (docs/adr/0281).';
revoke all on function public.email_sender() from public, anon, authenticated;
grant execute on function public.email_sender() to service_role;

alter table public.email_outbox drop constraint email_outbox_template_check;
alter table public.email_outbox add constraint email_outbox_template_check check (template = any (array[
  'ticket_reply'::text, 'ticket_resolved'::text, 'purchase_order'::text, 'receipt'::text, 'billing_payment_failed'::text,
  'test_email'::text]));

-- The admin's test email: to their own sign-in address only (so the button cannot mail anyone else), through the
-- outbox the real emails take, in the trail, and capped.
create or replace function public.admin_send_test_email()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_per_hour constant int := 5;
  v_uid uuid := (select auth.uid());
  v_email text;
  v_sent int;
  v_oldest timestamptz;
  v_sender jsonb := public.email_sender();
begin
  perform private.assert_admin();
  select u.email into v_email from auth.users u where u.id = v_uid;
  if v_email is null or btrim(v_email) = '' then
    raise exception 'your account has no email address to send the test to' using errcode = '22023';
  end if;
  -- Counted one after the other per admin, so two clicks at once cannot both pass the cap.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('test_email:' || v_uid::text, 0));
  select count(*), min(c.changed_at) into v_sent, v_oldest
    from private.platform_setting_changes c
   where c.actor_id = v_uid and c.subject = 'test_email' and c.changed_at > now() - interval '1 hour';
  if v_sent >= c_per_hour then
    raise exception 'You sent % test emails in the last hour: try again in % minutes.', v_sent,
      greatest(1, ceil(extract(epoch from (v_oldest + interval '1 hour' - now())) / 60))::int
      using errcode = 'PT429', hint = 'The test email is limited to protect the sending reputation.';
  end if;
  insert into public.email_outbox (to_email, template, params)
  values (v_email, 'test_email', jsonb_build_object('sender_name', v_sender ->> 'name', 'reply_to', v_sender ->> 'reply_to',
                                                      'requested_at', now()));
  insert into private.platform_setting_changes (actor_id, subject, before, after)
  values (v_uid, 'test_email', '{}'::jsonb,
          jsonb_build_object('email_sender_name', v_sender ->> 'name', 'email_reply_to', v_sender ->> 'reply_to'));
  return jsonb_build_object('to', v_email, 'sender_name', v_sender ->> 'name', 'reply_to', v_sender ->> 'reply_to');
end;
$$;
comment on function public.admin_send_test_email() is 'Admins only (aal2 once enrolled): queues a test email to the admin''s own address through the outbox, recorded in the settings trail; at most 5 an hour (PT429).';
revoke all on function public.admin_send_test_email() from public, anon;
grant execute on function public.admin_send_test_email() to authenticated;
