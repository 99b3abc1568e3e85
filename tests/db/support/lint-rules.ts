/**
 * Schema lint rules in the spirit of Supabase's splinter, as SQL over the catalog. Each query returns one
 * row per offending object ({ object }) so failures name what to fix. Each rule carries a fixture: DDL that
 * breaks it, which the test applies in a rolled-back transaction to prove the rule can fail.
 */
/**
 * The only functions anon may execute: the prerendered public pages read what an admin publishes without a rebuild
 * (docs/adr/0261): the legal version in force, the list of versions, and the platform state (banner, announcement,
 * status line, FAQ). They return only what the public pages show; every other function stays closed to anon.
 */
export const anonReadableFunctions = ['legal_version(text,integer)', 'legal_version_list(text)', 'public_site_state()'];

export interface LintRule {
  name: string;
  /** What the rule demands, shown with the offenders. */
  description: string;
  sql: string;
  fixture: { statements: string[]; offender: string };
}

/** Schemas our migrations own: public is exposed through the data API, private holds the admin internals. */
const ownSchemas = `('public', 'private')`;

// Functions that read the JWT or check roles: each call in a policy must sit inside a scalar subquery,
// (select auth.uid()), so PostgreSQL evaluates it once per statement instead of once per row.
const perRowCall = `(auth\\.(uid|jwt|role|email)|current_setting|is_admin)\\(`;
const wrappedCall = `select\\s+(public\\.)?(auth\\.(uid|jwt|role|email)|current_setting|is_admin)\\(`;

export const lintRules: LintRule[] = [
  {
    name: 'rls_disabled',
    description: 'every table in public and private has row level security enabled',
    sql: `
      select format('%I.%I', n.nspname, c.relname) as object
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ${ownSchemas} and c.relkind in ('r', 'p') and not c.relrowsecurity
       order by 1`,
    fixture: { statements: ['create table public.lint_no_rls (id int primary key)'], offender: 'public.lint_no_rls' },
  },
  {
    name: 'function_search_path_mutable',
    description: 'every function (above all security definer ones) has a fixed search_path',
    sql: `
      select format('%I.%I(%s)%s', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid),
                    case when p.prosecdef then ' security definer' else '' end) as object
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ${ownSchemas}
         and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
         and not exists (select 1 from unnest(coalesce(p.proconfig, '{}'::text[])) s where s like 'search_path=%')
       order by 1`,
    fixture: {
      statements: [`create function public.lint_definer() returns int language sql security definer as 'select 1'`],
      offender: 'public.lint_definer() security definer',
    },
  },
  {
    name: 'unindexed_foreign_keys',
    description: 'every foreign key is covered by an index whose leading columns are the key columns',
    sql: `
      select format('%I.%I.%I (%s)', n.nspname, c.relname, k.conname,
                    (select string_agg(a.attname, ', ' order by u.o) from unnest(k.conkey) with ordinality u(attnum, o)
                       join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.attnum)) as object
        from pg_constraint k
        join pg_class c on c.oid = k.conrelid
        join pg_namespace n on n.oid = c.relnamespace
       where k.contype = 'f' and n.nspname in ${ownSchemas}
         and not exists (
           select 1 from pg_index i
            where i.indrelid = k.conrelid and i.indpred is null
              and (select array_agg(x order by x) from unnest(i.indkey::int2[]) with ordinality u(x, o)
                    where u.o <= cardinality(k.conkey))
                = (select array_agg(x order by x) from unnest(k.conkey) x))
       order by 1`,
    fixture: {
      statements: [
        'create table public.lint_fk (id int primary key, user_id uuid not null references auth.users (id))',
        // An index that merely contains the column, not as its leading column, does not count.
        'create index lint_fk_id_user_idx on public.lint_fk (id, user_id)',
      ],
      offender: 'public.lint_fk.lint_fk_user_id_fkey (user_id)',
    },
  },
  {
    name: 'rls_references_user_metadata',
    description: 'no policy reads user_metadata / raw_user_meta_data (users can edit their own metadata)',
    sql: `
      select format('%I.%I: %s', schemaname, tablename, policyname) as object
        from pg_policies
       where schemaname in ${ownSchemas}
         and concat_ws(' ', qual, with_check) ~* '(raw_user_meta_data|user_metadata)'
       order by 1`,
    fixture: {
      statements: [
        'create table public.lint_meta (id int primary key)',
        'alter table public.lint_meta enable row level security',
        `create policy "meta admin" on public.lint_meta for select to authenticated
           using (((select auth.jwt()) -> 'user_metadata' ->> 'role') = 'admin')`,
      ],
      offender: 'public.lint_meta: meta admin',
    },
  },
  {
    name: 'auth_rls_initplan',
    description: 'policies call auth.uid(), auth.jwt(), current_setting() and is_admin() as (select ...)',
    sql: `
      select format('%I.%I: %s', schemaname, tablename, policyname) as object
        from pg_policies
       where schemaname in ${ownSchemas}
         and (regexp_count(coalesce(qual, ''), '${perRowCall}', 1, 'i')
                > regexp_count(coalesce(qual, ''), '${wrappedCall}', 1, 'i')
           or regexp_count(coalesce(with_check, ''), '${perRowCall}', 1, 'i')
                > regexp_count(coalesce(with_check, ''), '${wrappedCall}', 1, 'i'))
       order by 1`,
    fixture: {
      statements: [
        'create table public.lint_initplan (id uuid primary key)',
        'alter table public.lint_initplan enable row level security',
        // One wrapped call does not excuse a bare one in the same expression.
        `create policy "initplan read" on public.lint_initplan for select to authenticated
           using (id = (select auth.uid()) or id = auth.uid())`,
      ],
      offender: 'public.lint_initplan: initplan read',
    },
  },
  {
    name: 'multiple_permissive_policies',
    description: 'at most one permissive policy per table, role and action (each one runs for every row)',
    sql: `
      with expanded as (
        select n.nspname, c.relname, pol.polname, r.role, a.action
          from pg_policy pol
          join pg_class c on c.oid = pol.polrelid
          join pg_namespace n on n.oid = c.relnamespace
          cross join lateral unnest(
            case when pol.polroles = '{0}'::oid[] then array['anon', 'authenticated']::text[]
                 else (select array_agg(rolname::text) from pg_roles where oid = any (pol.polroles)) end) r(role)
          cross join lateral unnest(case pol.polcmd
            when '*' then array['select', 'insert', 'update', 'delete']
            when 'r' then array['select'] when 'a' then array['insert']
            when 'w' then array['update'] when 'd' then array['delete'] end) a(action)
         where pol.polpermissive and n.nspname in ${ownSchemas}
      )
      select format('%I.%I: %s %s: %s', nspname, relname, role, action, string_agg(polname, ', ' order by polname)) as object
        from expanded
       group by nspname, relname, role, action
      having count(*) > 1
       order by 1`,
    fixture: {
      statements: [
        'create table public.lint_perm (id uuid primary key)',
        'alter table public.lint_perm enable row level security',
        'create policy "perm own" on public.lint_perm for select to authenticated using (id = (select auth.uid()))',
        'create policy "perm all" on public.lint_perm for all to authenticated using (true)',
      ],
      offender: 'public.lint_perm: authenticated select: perm all, perm own',
    },
  },
  {
    name: 'rls_enabled_no_policy',
    description: 'every table in public with row level security has at least one policy',
    sql: `
      select format('%I.%I', n.nspname, c.relname) as object
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relrowsecurity
         and not exists (select 1 from pg_policy p where p.polrelid = c.oid)
       order by 1`,
    fixture: {
      statements: [
        'create table public.lint_no_policy (id int primary key)',
        'alter table public.lint_no_policy enable row level security',
      ],
      offender: 'public.lint_no_policy',
    },
  },
  {
    name: 'policy_exists_rls_disabled',
    description: 'no policy sits on a table whose row level security is off (the policy would be ignored)',
    sql: `
      select format('%I.%I: %s', n.nspname, c.relname, p.polname) as object
        from pg_policy p
        join pg_class c on c.oid = p.polrelid
        join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ${ownSchemas} and not c.relrowsecurity
       order by 1`,
    fixture: {
      statements: [
        'create table public.lint_ignored (id int primary key)',
        'create policy "ignored" on public.lint_ignored for select to authenticated using (true)',
      ],
      offender: 'public.lint_ignored: ignored',
    },
  },
  {
    name: 'anon_executable_function',
    description: 'no function in public or private is executable by anon (signed-out callers reach none through /rest/v1/rpc) but the public site\'s three readers',
    sql: `
      select p.oid::regprocedure::text as object
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ${ownSchemas}
         and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
         and has_function_privilege('anon', p.oid, 'EXECUTE')
         and not (n.nspname = 'public' and p.oid::regprocedure::text = any (array[${anonReadableFunctions.map((f) => `'${f}'`).join(', ')}]))
       order by 1`,
    fixture: {
      statements: [`create function public.lint_open(_n int) returns int language sql set search_path = '' as 'select _n'`],
      offender: 'lint_open(integer)',
    },
  },
  {
    // Hosted Supabase grants new objects in public to nobody (docs/adr/0084): a table the migration
    // forgot to grant is invisible to the back office, which fails only once deployed. Select is the floor;
    // append-only tables (activity) may withhold the writes.
    name: 'service_role_grants',
    description: 'the service role may read every table and view in public',
    sql: `
      select format('%I.%I', n.nspname, c.relname) as object
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm')
         and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')
         and not has_table_privilege('service_role', c.oid, 'select')
       order by 1`,
    fixture: {
      statements: [
        'create table public.lint_ungranted (id int primary key)',
        'grant insert on public.lint_ungranted to service_role',
      ],
      offender: 'public.lint_ungranted',
    },
  },
  {
    name: 'security_definer_view',
    description: 'views in public run with the caller\'s rights (security_invoker), so RLS still applies',
    sql: `
      select format('%I.%I', n.nspname, c.relname) as object
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('v', 'm')
         and not exists (select 1 from unnest(coalesce(c.reloptions, '{}'::text[])) o
                          where o in ('security_invoker=true', 'security_invoker=on', 'security_invoker=1'))
       order by 1`,
    fixture: {
      statements: ['create view public.lint_view as select id, full_name from public.profiles'],
      offender: 'public.lint_view',
    },
  },
];
