-- Email outbox delivery that never loses a row (issue 15, docs/adr/0121).
--
-- Before: the local relay deleted rows before sending, so an unknown template or a failed send lost the email,
-- and hosted Supabase had no sender at all. Now a deliverer claims due rows with public.claim_email_outbox (FOR
-- UPDATE SKIP LOCKED plus a lease, so two runs never send the same row), sends them and reports each one with
-- public.finish_email_outbox: sent rows are marked and purged a week later; failed ones (provider error, a template
-- this version does not know) keep their row, count the attempt, keep the last error and wait with an
-- exponential backoff (30 s doubling, at most an hour). Both functions are for the service role only.
--
-- Deliverers: locally supabase/local/mail/outbox-relay.ts; on hosted the send-email Edge Function
-- (supabase/functions/send-email), invoked every minute by pg_cron through pg_net while rows are due. The pg_cron
-- part is guarded: it runs only where both extensions exist (hosted), and is skipped on the local PGlite stack and
-- on a plain PostgreSQL.

alter table public.email_outbox
  add column attempts integer not null default 0,
  add column next_attempt_at timestamptz not null default now(),
  add column claimed_until timestamptz,
  add column last_error text,
  add column sent_at timestamptz;

comment on table public.email_outbox is
  'Emails the database asks to send. Only the service role reads them, through claim_email_outbox and '
  'finish_email_outbox (the local outbox relay; on hosted the send-email Edge Function, docs/adr/0121). '
  'A failed or unknown-template row stays and is retried with backoff; sent rows are purged after 7 days.';
comment on column public.email_outbox.claimed_until is
  'A deliverer''s lease: no other run claims the row before then (a crashed run''s rows come back after it).';

create index email_outbox_due_idx on public.email_outbox (next_attempt_at, id) where sent_at is null;
create index email_outbox_sent_idx on public.email_outbox (sent_at) where sent_at is not null;

-- Claims up to _limit due rows for _lease_seconds; each claim counts as an attempt.
create or replace function public.claim_email_outbox(_limit integer default 20, _lease_seconds integer default 120)
returns table (id bigint, to_email text, template text, params jsonb, attempts integer)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  -- Sent rows keep an address: they go after a week (long enough to answer "did it go out?").
  delete from public.email_outbox o where o.sent_at < now() - interval '7 days';
  return query
    with due as (
      select o.id
        from public.email_outbox o
       where o.sent_at is null
         and o.next_attempt_at <= clock_timestamp()
         and (o.claimed_until is null or o.claimed_until <= clock_timestamp())
       order by o.next_attempt_at, o.id
       limit least(greatest(coalesce(_limit, 20), 1), 100)
         for update of o skip locked
    )
    update public.email_outbox o
       set claimed_until = clock_timestamp()
                           + make_interval(secs => least(greatest(coalesce(_lease_seconds, 120), 10), 3600)),
           attempts = o.attempts + 1
      from due
     where o.id = due.id
    returning o.id, o.to_email, o.template, o.params, o.attempts;
end;
$$;
comment on function public.claim_email_outbox(integer, integer) is
  'Service role only: claims up to _limit (1..100) due outbox rows for a lease; rows locked or leased by another '
  'run are skipped, so two deliverers never send the same row.';

-- Reports one claimed row: _error null means sent. Returns false when the row is not claimed any more.
create or replace function public.finish_email_outbox(_id bigint, _error text default null)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.email_outbox o
     set sent_at = case when _error is null then clock_timestamp() end,
         claimed_until = null,
         last_error = case when _error is null then null else left(_error, 500) end,
         next_attempt_at = case when _error is null then o.next_attempt_at
                                else clock_timestamp() + least(interval '30 seconds' * power(2, least(o.attempts - 1, 20)),
                                                               interval '1 hour') end
   where o.id = _id and o.sent_at is null;
  return found;
end;
$$;
comment on function public.finish_email_outbox(bigint, text) is
  'Service role only: marks a claimed outbox row sent (_error null) or failed: the row stays, with the error '
  '(no address in it), and is retried after 30 s doubling per attempt, at most an hour.';

do $$
declare
  f text;
begin
  foreach f in array array['public.claim_email_outbox(integer, integer)', 'public.finish_email_outbox(bigint, text)'] loop
    execute format('revoke all on function %s from public, anon, authenticated', f);
    execute format('grant execute on function %s to service_role', f);
  end loop;
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- Hosted: pg_cron calls the send-email Edge Function every minute while rows are due. The function's URL and
-- the token it expects come from Supabase Vault (secrets storewise_project_url, storewise_outbox_sender_token;
-- README, hosted deploy), never from the repository. Dynamic SQL: net and vault do not exist locally, and the
-- function must still compile there (and pass plpgsql_check in the hosted check).
create or replace function private.kick_email_outbox_sender()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_url text;
  v_token text;
  v_vault text := 'vault';
  v_net text := 'net';
begin
  if not exists (select 1 from public.email_outbox o
                  where o.sent_at is null and o.next_attempt_at <= now()
                    and (o.claimed_until is null or o.claimed_until <= now())) then
    return;
  end if;
  if to_regnamespace('net') is null or to_regclass('vault.decrypted_secrets') is null then
    return;
  end if;
  -- The schema name goes in through format(): plpgsql_check (supabase db lint) checks constant dynamic SQL and
  -- would report vault missing wherever it is not installed.
  execute format('select (select decrypted_secret from %1$I.decrypted_secrets where name = ''storewise_project_url''),
                  (select decrypted_secret from %1$I.decrypted_secrets where name = ''storewise_outbox_sender_token'')',
                 v_vault)
     into v_url, v_token;
  if v_url is null or v_token is null then
    raise warning 'email outbox: set the vault secrets storewise_project_url and storewise_outbox_sender_token';
    return;
  end if;
  execute format('select %I.http_post(url := $1, body := ''{}''::jsonb, headers := $2, timeout_milliseconds := 55000)',
                 v_net)
    using rtrim(v_url, '/') || '/functions/v1/send-email',
          jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || v_token);
end;
$$;
revoke all on function private.kick_email_outbox_sender() from public, anon, authenticated;

-- Enables pg_cron and pg_net where the server offers them and schedules the kick; a notice elsewhere. Idempotent:
-- the README's hosted steps run it again after enabling the extensions by hand, should this migration have
-- been pushed before they were available.
create or replace function private.schedule_email_outbox_sender()
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_cron text := 'cron';
begin
  if not exists (select 1 from pg_catalog.pg_available_extensions e where e.name = 'pg_cron')
     or not exists (select 1 from pg_catalog.pg_available_extensions e where e.name = 'pg_net') then
    return 'pg_cron or pg_net is not available here: deliver the outbox another way (the local stack relays it)';
  end if;
  begin
    create extension if not exists pg_net with schema extensions;
    create extension if not exists pg_cron with schema pg_catalog;
    -- Through format() for the same reason as the vault read above (cron exists only once pg_cron does).
    execute format('select %I.schedule(''storewise-email-outbox'', ''* * * * *'', ''select private.kick_email_outbox_sender()'')',
                   v_cron);
  exception when others then
    -- e.g. pg_cron installed but not preloaded: the migration must still apply.
    return 'could not schedule the email outbox sender: ' || sqlerrm;
  end;
  return 'scheduled storewise-email-outbox every minute';
end;
$$;
revoke all on function private.schedule_email_outbox_sender() from public, anon, authenticated;

do $$
begin
  raise notice 'email outbox: %', private.schedule_email_outbox_sender();
end;
$$;
