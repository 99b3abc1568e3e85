-- Shapes a throwaway PostgreSQL 15 server like a hosted Supabase project (tests/hosted and npm run
-- types:gen; never shipped). Runs as the superuser supabase_admin right after supabase/local/db/bootstrap.sql,
-- which provides the API roles, the extensions and the auth schema (one source for both). This file adds
-- what the platform does around them, after supabase/postgres's role and grant dumps:
-- * postgres logs in but is not a superuser: it owns public and what the migrations create, reads and
--   writes auth.* (and may add triggers to it) through grants, and is a member of the API roles;
-- * authenticator is the login PostgREST uses: it owns nothing and only switches to the API roles;
-- * auth.* belongs to supabase_auth_admin, as GoTrue's migrations leave it;
-- * no default privileges: nothing postgres creates in public is granted to anon, authenticated or
--   service_role (today's hosted default), apart from PostgreSQL's own EXECUTE for PUBLIC on functions.

-- Roles, with the attributes hosted gives them.
create role postgres login createrole createdb replication bypassrls;
create role authenticator login noinherit;
create role supabase_auth_admin login noinherit createrole;
grant anon, authenticated, service_role to authenticator;
grant anon, authenticated, service_role to postgres;
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';
alter role authenticator set statement_timeout = '8s';
alter role postgres set search_path = "$user", public, extensions;

-- The database and its schemas: postgres creates schemas (private) and owns public and extensions.
grant all on database postgres to postgres;
alter schema public owner to postgres;
alter schema extensions owner to postgres;
-- Realtime's publication belongs to postgres on a project (pg_dump shows "Owner: postgres"): migrations add tables to it.
alter publication supabase_realtime owner to postgres;

-- The auth schema as GoTrue leaves it, and postgres's rights on it (the dashboard's SQL editor and
-- migrations read users, add triggers on auth.users and auth.sessions, and the seed writes users).
do $$
declare
  r record;
begin
  execute 'alter schema auth owner to supabase_auth_admin';
  -- Tables (their serial sequences follow them), then the grants on both.
  for r in select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'auth' and c.relkind = 'r' loop
    execute format('alter table auth.%I owner to supabase_auth_admin', r.relname);
  end loop;
  execute 'grant all on all tables in schema auth to postgres';
  execute 'grant all on all sequences in schema auth to postgres';
  for r in select p.oid::regprocedure as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where n.nspname = 'auth' loop
    execute format('alter function %s owner to supabase_auth_admin', r.fn);
  end loop;
  for r in select t.typname from pg_type t join pg_namespace n on n.oid = t.typnamespace
            where n.nspname = 'auth' and t.typtype = 'e' loop
    execute format('alter type auth.%I owner to supabase_auth_admin', r.typname);
  end loop;
end;
$$;
grant usage on schema auth to postgres;

-- The storage schema as Storage's migrations leave it: owned by supabase_storage_admin, of which postgres is a
-- member on hosted (so migrations may insert buckets and create policies on storage.objects).
create role supabase_storage_admin login noinherit createrole bypassrls;
do $$
declare
  r record;
begin
  execute 'alter schema storage owner to supabase_storage_admin';
  for r in select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'storage' and c.relkind = 'r' loop
    execute format('alter table storage.%I owner to supabase_storage_admin', r.relname);
  end loop;
  for r in select p.oid::regprocedure as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where n.nspname = 'storage' loop
    execute format('alter function %s owner to supabase_storage_admin', r.fn);
  end loop;
  for r in select t.typname from pg_type t join pg_namespace n on n.oid = t.typnamespace
            where n.nspname = 'storage' and t.typtype = 'e' loop
    execute format('alter type storage.%I owner to supabase_storage_admin', r.typname);
  end loop;
end;
$$;
grant all on all tables in schema storage to postgres;
grant usage on schema storage to postgres;
grant supabase_storage_admin to postgres;

-- The CLI keeps its own migration history (supabase_migrations, created by `supabase db push` as
-- postgres); the local stack's copy from the bootstrap must not stand in its way.
drop schema supabase_migrations cascade;

-- `supabase db lint` runs plpgsql_check, which hosted offers and postgres may not install itself here.
-- Only when installed (postgresql-15-plpgsql-check): npm run types:gen does not need it.
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'plpgsql_check') then
    create extension if not exists plpgsql_check with schema extensions;
  end if;
end;
$$;
