/**
 * A database's schema as sets of normalized lines, one query over pg_catalog per kind of object: what the
 * equality test compares between the migrations' database and the schema files' one. Names are rendered
 * with an empty search_path (always schema-qualified); OIDs, attnums and creation order never appear, so
 * two databases built differently but defining the same objects give the same lines.
 */
import type pg from 'pg';

/** Schemas the platform or the CLI own: not the project's schema. */
const skipped = `('pg_catalog', 'information_schema', 'pg_toast', 'supabase_migrations')`;
const ours = (nsp: string) => `${nsp} in (select oid from pg_namespace where nspname not in ${skipped} and nspname not like 'pg_temp%' and nspname not like 'pg_toast_temp%')`;
/** Objects an extension brought (pgcrypto's functions...) are the extension's, not ours. */
const notFromExtension = (classid: string, objid: string) =>
  `not exists (select 1 from pg_depend e where e.classid = ${classid} and e.objid = ${objid} and e.deptype = 'e')`;

export const snapshotQueries: Record<string, string> = {
  schemas: `select format('%I owner %s', n.nspname, pg_get_userbyid(n.nspowner)) from pg_namespace n where ${ours('n.oid')}`,
  extensions: `select format('%I in %I', e.extname, e.extnamespace::regnamespace) from pg_extension e`,
  tables: `select format('%s kind %s persistence %s rls %s force %s options %s owner %s', c.oid::regclass, c.relkind, c.relpersistence,
                  c.relrowsecurity, c.relforcerowsecurity, coalesce(c.reloptions::text, '-'), pg_get_userbyid(c.relowner))
             from pg_class c where ${ours('c.relnamespace')} and c.relkind in ('r', 'p', 'v', 'm', 'f') and ${notFromExtension(`'pg_class'::regclass`, 'c.oid')}`,
  columns: `select format('%s.%I #%s %s%s%s%s%s', c.oid::regclass, a.attname,
                  row_number() over (partition by c.oid order by a.attnum), format_type(a.atttypid, a.atttypmod),
                  case when a.attnotnull then ' not null' else '' end,
                  coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), ''),
                  case a.attidentity when '' then '' else ' identity ' || a.attidentity::text end || case a.attgenerated when '' then '' else ' generated' end,
                  case when a.attcollation <> 0 and a.attcollation <> (select typcollation from pg_type where oid = a.atttypid) then ' collate ' || a.attcollation::regcollation::text else '' end)
             from pg_attribute a join pg_class c on c.oid = a.attrelid
             left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
            where ${ours('c.relnamespace')} and c.relkind in ('r', 'p', 'v', 'm', 'f') and a.attnum > 0 and not a.attisdropped
              and ${notFromExtension(`'pg_class'::regclass`, 'c.oid')}`,
  constraints: `select format('%s %I %s', coalesce(con.conrelid::regclass::text, con.contypid::regtype::text), con.conname, pg_get_constraintdef(con.oid))
                  from pg_constraint con where ${ours('con.connamespace')}
                   and ${notFromExtension(`'pg_type'::regclass`, 'con.contypid')}`,
  indexes: `select pg_get_indexdef(i.indexrelid) from pg_index i join pg_class c on c.oid = i.indexrelid
             where ${ours('c.relnamespace')} and ${notFromExtension(`'pg_class'::regclass`, 'i.indrelid')}`,
  sequences: `select format('%s %s start %s increment %s min %s max %s cache %s cycle %s owner %s', s.seqrelid::regclass, s.seqtypid::regtype,
                   s.seqstart, s.seqincrement, s.seqmin, s.seqmax, s.seqcache, s.seqcycle, pg_get_userbyid(c.relowner))
                from pg_sequence s join pg_class c on c.oid = s.seqrelid where ${ours('c.relnamespace')}`,
  types: `select format('%s %s %s %s', t.oid::regtype, t.typtype, coalesce(format_type(nullif(t.typbasetype, 0), t.typtypmod), ''),
               coalesce((select string_agg(enumlabel, ',' order by enumsortorder) from pg_enum where enumtypid = t.oid), '')
               || case when t.typnotnull then ' not null' else '' end || coalesce(' default ' || t.typdefault, ''))
            from pg_type t where ${ours('t.typnamespace')} and t.typtype in ('d', 'e', 'r', 'c')
             and (t.typtype <> 'c' or (select relkind from pg_class where oid = t.typrelid) = 'c')
             and ${notFromExtension(`'pg_type'::regclass`, 't.oid')}`,
  functions: `select format('%s returns %s language %s kind %s volatility %s security definer %s strict %s leakproof %s parallel %s cost %s rows %s config %s owner %s body md5 %s',
                   p.oid::regprocedure, pg_get_function_result(p.oid), l.lanname, p.prokind, p.provolatile, p.prosecdef, p.proisstrict,
                   p.proleakproof, p.proparallel, p.procost, p.prorows, coalesce(p.proconfig::text, '-'), pg_get_userbyid(p.proowner),
                   md5(coalesce(p.prosrc, '') || coalesce(pg_get_function_sqlbody(p.oid), '')))
                from pg_proc p join pg_language l on l.oid = p.prolang
               where ${ours('p.pronamespace')} and ${notFromExtension(`'pg_proc'::regclass`, 'p.oid')}`,
  'function arguments': `select format('%s (%s)', p.oid::regprocedure, pg_get_function_arguments(p.oid))
                from pg_proc p where ${ours('p.pronamespace')} and ${notFromExtension(`'pg_proc'::regclass`, 'p.oid')}`,
  triggers: `select format('%s enabled %s', pg_get_triggerdef(t.oid), t.tgenabled) from pg_trigger t join pg_class c on c.oid = t.tgrelid
              where not t.tgisinternal and ${ours('c.relnamespace')}`,
  policies: `select format('%s %I %s %s to %s using (%s) with check (%s)', p.polrelid::regclass, p.polname,
                  case when p.polpermissive then 'permissive' else 'restrictive' end, p.polcmd,
                  (select string_agg(case when r = 0 then 'public' else pg_get_userbyid(r) end, ',' order by 1) from unnest(p.polroles) r),
                  pg_get_expr(p.polqual, p.polrelid), pg_get_expr(p.polwithcheck, p.polrelid))
               from pg_policy p join pg_class c on c.oid = p.polrelid where ${ours('c.relnamespace')}`,
  grants: `with objects(object, acl, owner) as (
             select format('%s %s', case c.relkind when 'S' then 'sequence' else 'table' end, c.oid::regclass), c.relacl, c.relowner
               from pg_class c where ${ours('c.relnamespace')} and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
                and ${notFromExtension(`'pg_class'::regclass`, 'c.oid')}
             union all
             select format('column %s.%I', c.oid::regclass, a.attname), a.attacl, c.relowner
               from pg_attribute a join pg_class c on c.oid = a.attrelid
              where ${ours('c.relnamespace')} and a.attacl is not null and not a.attisdropped
             union all
             select format('function %s', p.oid::regprocedure), coalesce(p.proacl, acldefault('f', p.proowner)), p.proowner
               from pg_proc p where ${ours('p.pronamespace')} and ${notFromExtension(`'pg_proc'::regclass`, 'p.oid')}
             union all
             select format('schema %I', n.nspname), coalesce(n.nspacl, acldefault('n', n.nspowner)), n.nspowner
               from pg_namespace n where ${ours('n.oid')}
             union all
             select format('type %s', t.oid::regtype), coalesce(t.typacl, acldefault('T', t.typowner)), t.typowner
               from pg_type t where ${ours('t.typnamespace')} and t.typtype in ('d', 'e', 'r')
                and ${notFromExtension(`'pg_type'::regclass`, 't.oid')}
             union all
             select format('default privileges of %s in %s on %s', pg_get_userbyid(d.defaclrole), coalesce(d.defaclnamespace::regnamespace::text, 'all schemas'), d.defaclobjtype),
                    d.defaclacl, 0::oid
               from pg_default_acl d
           )
           select format('%s: %s %s%s', o.object, case when a.grantee = 0 then 'public' else pg_get_userbyid(a.grantee) end,
                         lower(a.privilege_type), case when a.is_grantable then ' with grant option' else '' end)
             from objects o cross join lateral aclexplode(o.acl) a
            where a.grantee <> o.owner`,
  // Every comment on an object of ours: a policy's, trigger's or constraint's by its table's schema.
  comments: `select format('%s: %s', pg_describe_object(d.classoid, d.objoid, d.objsubid), d.description)
               from pg_description d
               cross join lateral (select case d.classoid
                   when 'pg_class'::regclass then (select relnamespace from pg_class where oid = d.objoid)
                   when 'pg_proc'::regclass then (select pronamespace from pg_proc where oid = d.objoid)
                   when 'pg_type'::regclass then (select typnamespace from pg_type where oid = d.objoid)
                   when 'pg_constraint'::regclass then (select connamespace from pg_constraint where oid = d.objoid)
                   when 'pg_policy'::regclass then (select c.relnamespace from pg_policy p join pg_class c on c.oid = p.polrelid where p.oid = d.objoid)
                   when 'pg_trigger'::regclass then (select c.relnamespace from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.oid = d.objoid)
                   when 'pg_namespace'::regclass then d.objoid
                   when 'pg_publication'::regclass then (select oid from pg_namespace where nspname = 'public')
                 end as nsp) o
              where ${ours('o.nsp')} and ${notFromExtension('d.classoid', 'd.objoid')}`,
  publications: `select format('%I all tables %s insert %s update %s delete %s truncate %s via root %s owner %s tables %s', p.pubname, p.puballtables,
                      p.pubinsert, p.pubupdate, p.pubdelete, p.pubtruncate, p.pubviaroot, pg_get_userbyid(p.pubowner),
                      coalesce((select string_agg(format('%s.%s', t.schemaname, t.tablename), ',' order by t.schemaname, t.tablename) from pg_publication_tables t where t.pubname = p.pubname), '-'))
                   from pg_publication p`,
  views: `select format('%s as %s', c.oid::regclass, pg_get_viewdef(c.oid)) from pg_class c where ${ours('c.relnamespace')} and c.relkind in ('v', 'm')`,
};

export type Snapshot = Record<string, string[]>;

/** Every kind's lines, sorted, plus each function's body for a readable diff of the ones that differ. */
export async function snapshotCatalog(client: pg.Client): Promise<{ snapshot: Snapshot; bodies: Map<string, string> }> {
  await client.query(`set search_path = ''`);
  const snapshot: Snapshot = {};
  for (const [kind, query] of Object.entries(snapshotQueries)) {
    const { rows } = await client.query<{ line: string }>(`select line from (${query}) as q(line) order by 1`);
    snapshot[kind] = rows.map((row) => row.line);
  }
  const { rows } = await client.query<{ name: string; body: string }>(
    `select p.oid::regprocedure::text as name, coalesce(p.prosrc, '') as body from pg_proc p
      where ${ours('p.pronamespace')} and ${notFromExtension(`'pg_proc'::regclass`, 'p.oid')}`,
  );
  return { snapshot, bodies: new Map(rows.map((row) => [row.name, row.body])) };
}
