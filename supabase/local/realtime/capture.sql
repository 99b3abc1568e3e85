-- The local stack's stand-in for the write-ahead log that hosted Realtime decodes: a row trigger on every
-- table of the supabase_realtime publication records the change and wakes the Realtime server with a
-- NOTIFY (delivered at commit, so only committed changes are seen). Local only, never a migration: on
-- hosted the publication alone makes a table live. Idempotent: runs on every start of the stack.
create schema if not exists _realtime;
revoke all on schema _realtime from public;

create table if not exists _realtime.changes (
  id bigint generated always as identity primary key,
  schema_name text not null,
  table_name text not null,
  op text not null,
  record jsonb,
  old_record jsonb,
  committed_at timestamptz not null default now()
);
revoke all on table _realtime.changes from public;
-- The writing transaction, so that its rows get one commit time (below).
alter table _realtime.changes add column if not exists xact bigint;
alter table _realtime.changes alter column xact set default txid_current();
-- The commit stamp (below) finds its transaction's rows by this index: without it every write to a live table read
-- the whole queue, and on PGlite (no autovacuum) the drained queue's dead pages grew to hundreds of megabytes, so a
-- one-row write took half a second (ADR 0446).
create index if not exists changes_xact_idx on _realtime.changes (xact);

-- Security definer: whoever changes a live table (any role, any function) has its change recorded.
create or replace function _realtime.capture() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into _realtime.changes (schema_name, table_name, op, record, old_record)
  values (tg_table_schema, tg_table_name, tg_op,
          case when tg_op <> 'DELETE' then to_jsonb(new) end,
          case when tg_op <> 'INSERT' then to_jsonb(old) end);
  -- One notification per transaction: PostgreSQL folds identical ones.
  perform pg_notify('storewise_realtime', '');
  return null;
end;
$$;
revoke all on function _realtime.capture() from public;

-- Realtime's commit_timestamp is the commit's time in the WAL, not the transaction's start (now()): a sale
-- that runs 80 ms would otherwise look 80 ms late on every screen. A deferred trigger runs as the transaction
-- commits and stamps its captured rows once with the clock (the first of its rows to fire does it).
create or replace function _realtime.stamp_commit() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_xact bigint := txid_current();
begin
  if current_setting('storewise.realtime_stamped', true) is distinct from v_xact::text then
    perform set_config('storewise.realtime_stamped', v_xact::text, true);
    update _realtime.changes set committed_at = clock_timestamp() where xact = v_xact;
  end if;
  return null;
end;
$$;
revoke all on function _realtime.stamp_commit() from public;
drop trigger if exists storewise_realtime_commit_stamp on _realtime.changes;
create constraint trigger storewise_realtime_commit_stamp after insert on _realtime.changes
  deferrable initially deferred for each row execute function _realtime.stamp_commit();

-- A session revoked (sign-out elsewhere, "sign out everywhere", a password change, an admin's reset, a deleted
-- login) or a member removed from a business (or given another role) ends that user's open subscriptions at
-- once, not only when their token expires: the Realtime server hears it here (payload: {user, session?}).
create or replace function _realtime.revoked() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_table_name = 'sessions' then
    perform pg_notify('storewise_realtime_revoke', jsonb_build_object('user', old.user_id, 'session', old.id)::text);
  elsif tg_op = 'DELETE' or old.role is distinct from new.role or old.all_stores is distinct from new.all_stores then
    perform pg_notify('storewise_realtime_revoke', jsonb_build_object('user', old.user_id)::text);
  end if;
  return null;
end;
$$;
revoke all on function _realtime.revoked() from public;
drop trigger if exists storewise_realtime_revoke on auth.sessions;
create trigger storewise_realtime_revoke after delete on auth.sessions
  for each row execute function _realtime.revoked();
drop trigger if exists storewise_realtime_revoke on public.business_members;
create trigger storewise_realtime_revoke after delete or update on public.business_members
  for each row execute function _realtime.revoked();

-- Puts the capture trigger on every table of the publication and takes it off tables that left it.
create or replace function _realtime.sync_publication() returns void
language plpgsql set search_path = '' as $$
declare
  entry record;
begin
  for entry in
    select c.oid::regclass as rel from pg_trigger t join pg_class c on c.oid = t.tgrelid
     where t.tgname = 'storewise_realtime_capture'
       and not exists (select 1 from pg_publication_rel pr join pg_publication p on p.oid = pr.prpubid
                        where p.pubname = 'supabase_realtime' and pr.prrelid = c.oid)
  loop
    execute format('drop trigger storewise_realtime_capture on %s', entry.rel);
  end loop;
  for entry in
    select format('%I.%I', schemaname, tablename)::regclass as rel from pg_publication_tables
     where pubname = 'supabase_realtime'
       and not exists (select 1 from pg_trigger t where t.tgname = 'storewise_realtime_capture'
                        and t.tgrelid = format('%I.%I', schemaname, tablename)::regclass)
  loop
    execute format('create trigger storewise_realtime_capture after insert or update or delete on %s '
                   'for each row execute function _realtime.capture()', entry.rel);
  end loop;
end;
$$;
revoke all on function _realtime.sync_publication() from public;

-- Which rows each subscriber may see, for a whole batch in one statement (PGlite has one connection):
-- work is [{table, role, claims, keys?: [pk objects], old?: [old rows]}]. For keys, the row is selected by
-- primary key as the subscriber (role and claims set as PostgREST sets them), so RLS decides as for any
-- read. A deleted row can no longer be selected: its old values are checked against the table's SELECT
-- policies for that role instead. Answers (item number, primary key) of what is visible.
create or replace function _realtime.visible_rows(work jsonb) returns table (item int, pk jsonb)
language plpgsql set search_path = '' as $$
declare
  w jsonb;
  i int := 0;
  rel regclass;
  relname text;
  key_def text;
  key_t text;
  key_x text;
  key_obj text;
  key_obj_plain text;
  pred text;
  bypass boolean;
begin
  for w in select value from jsonb_array_elements(work) loop
    i := i + 1;
    rel := (w->>'table')::regclass;
    select string_agg(format('%I %s', a.attname, format_type(a.atttypid, a.atttypmod)), ', ' order by k.ord),
           string_agg(format('t.%I', a.attname), ', ' order by k.ord),
           string_agg(format('x.%I', a.attname), ', ' order by k.ord),
           string_agg(format('%L, t.%I', a.attname, a.attname), ', ' order by k.ord),
           string_agg(format('%L, %I', a.attname, a.attname), ', ' order by k.ord)
      into key_def, key_t, key_x, key_obj, key_obj_plain
      from pg_index ix
      cross join lateral unnest(ix.indkey) with ordinality as k(attnum, ord)
      join pg_attribute a on a.attrelid = ix.indrelid and a.attnum = k.attnum
     where ix.indrelid = rel and ix.indisprimary;
    continue when key_def is null;
    perform set_config('role', w->>'role', true);
    perform set_config('request.jwt.claims', w->>'claims', true);
    if w ? 'keys' then
      return query execute format(
        'select %s, jsonb_build_object(%s) from %s t where (%s) in (select %s from jsonb_to_recordset($1) as x(%s))',
        i, key_obj, rel, key_t, key_x, key_def) using w->'keys';
    else
      select c.relname, not c.relrowsecurity or r.rolbypassrls
        into relname, bypass
        from pg_class c, pg_roles r where c.oid = rel and r.rolname = w->>'role';
      if bypass then
        pred := 'true';
      else
        select coalesce('(' || string_agg(pg_get_expr(p.polqual, p.polrelid), ') or (') filter (where p.polpermissive) || ')', 'false')
               || coalesce(' and (' || string_agg(pg_get_expr(p.polqual, p.polrelid), ') and (') filter (where not p.polpermissive) || ')', '')
          into pred
          from pg_policy p
         where p.polrelid = rel and p.polcmd in ('r', '*') and p.polqual is not null
           and (0 = any (p.polroles) or (select oid from pg_roles where rolname = w->>'role') = any (p.polroles));
        pred := coalesce(pred, 'false');
      end if;
      return query execute format(
        'select %s, jsonb_build_object(%s) from jsonb_populate_recordset(null::%s, $1) as %I where %s',
        i, key_obj_plain, rel, relname, pred) using w->'old';
    end if;
  end loop;
  perform set_config('role', 'none', true);
end;
$$;
revoke all on function _realtime.visible_rows(jsonb) from public;
