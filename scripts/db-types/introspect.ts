import type { Queryable } from '../../supabase/local/db/types';

/** What the type generator needs to know about one schema, read from the PostgreSQL catalog. */
export interface ColumnInfo {
  name: string;
  /** Type name as pg_type spells it (int4, timestamptz, _text for arrays); domains resolved to their base. */
  type: string;
  /** Schema of that type, to recognise enums and composite types of the generated schema. */
  typeSchema: string;
  nullable: boolean;
  hasDefault: boolean;
  /** 'a' (always), 'd' (by default) or '' as in pg_attribute.attidentity. */
  identity: string;
  /** Generated (computed) columns cannot be written. */
  generated: boolean;
  /** Views only: whether the column can be written through the view. */
  updatable: boolean;
}

export interface RelationshipInfo {
  foreignKeyName: string;
  columns: string[];
  isOneToOne: boolean;
  referencedRelation: string;
  referencedColumns: string[];
}

export interface RelationInfo {
  name: string;
  kind: 'table' | 'view';
  /** Views only: insertable and updatable through the data API. */
  updatable: boolean;
  columns: ColumnInfo[];
  relationships: RelationshipInfo[];
}

export interface FunctionArgInfo {
  name: string;
  /** i (in), o (out), b (inout), v (variadic), t (table column) as in pg_proc.proargmodes. */
  mode: string;
  type: string;
  typeSchema: string;
}

export interface FunctionInfo {
  name: string;
  /** Identity arguments, only to order overloads stably. */
  signature: string;
  args: FunctionArgInfo[];
  returnType: string;
  returnTypeSchema: string;
  /** Set when the function returns the row type of a table or view of this schema. */
  returnsRelation: string | null;
  returnsSet: boolean;
  /** How many of the last input arguments have defaults (pg_proc.pronargdefaults). */
  argDefaults: number;
}

export interface EnumInfo {
  name: string;
  values: string[];
}

export interface CompositeTypeInfo {
  name: string;
  attributes: { name: string; type: string; typeSchema: string }[];
}

export interface SchemaInfo {
  name: string;
  relations: RelationInfo[];
  functions: FunctionInfo[];
  enums: EnumInfo[];
  compositeTypes: CompositeTypeInfo[];
}

// Every query returns one json value so PGlite and node-postgres hand back the same shape.
// A type expression resolving domains to their base type, shared by the queries below.
const typeName = (oid: string) => `(
  select case when t.typtype = 'd' then bt.typname else t.typname end
    from pg_type t left join pg_type bt on bt.oid = t.typbasetype where t.oid = ${oid})`;
const typeSchema = (oid: string) => `(
  select n.nspname from pg_type t
    left join pg_type bt on bt.oid = t.typbasetype
    join pg_namespace n on n.oid = case when t.typtype = 'd' then bt.typnamespace else t.typnamespace end
   where t.oid = ${oid})`;

const relationsSql = `
select coalesce(json_agg(r order by r.name), '[]'::json) as result from (
  select c.relname as name,
         case when c.relkind in ('v', 'm') then 'view' else 'table' end as kind,
         c.relkind in ('v') and (pg_relation_is_updatable(c.oid, false) & 20) = 20 as updatable,
         (select coalesce(json_agg(json_build_object(
                   'name', a.attname,
                   'type', ${typeName('a.atttypid')},
                   'typeSchema', ${typeSchema('a.atttypid')},
                   -- Views carry no NOT NULL: like PostgREST, treat their columns as nullable.
                   'nullable', c.relkind in ('v', 'm') or not a.attnotnull,
                   'hasDefault', a.atthasdef,
                   'identity', a.attidentity::text,
                   'generated', a.attgenerated <> '',
                   'updatable', c.relkind not in ('v', 'm') or pg_column_is_updatable(c.oid, a.attnum, false)
                 ) order by a.attname), '[]'::json)
            from pg_attribute a
           where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns,
         (select coalesce(json_agg(json_build_object(
                   'foreignKeyName', k.conname,
                   'columns', (select json_agg(a.attname order by u.ord) from unnest(k.conkey) with ordinality u(attnum, ord)
                                 join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.attnum),
                   -- One-to-one when the referencing columns are exactly a unique key of this table.
                   'isOneToOne', exists (
                     select 1 from pg_index i
                      where i.indrelid = k.conrelid and i.indisunique and i.indpred is null
                        and (select array_agg(x order by x) from unnest(i.indkey::int2[]) x)
                          = (select array_agg(x order by x) from unnest(k.conkey) x)),
                   'referencedRelation', rc.relname,
                   'referencedColumns', (select json_agg(a.attname order by u.ord) from unnest(k.confkey) with ordinality u(attnum, ord)
                                 join pg_attribute a on a.attrelid = k.confrelid and a.attnum = u.attnum)
                 ) order by k.conname, rc.relname), '[]'::json)
            from pg_constraint k
            join pg_class rc on rc.oid = k.confrelid
           where k.contype = 'f' and k.conrelid = c.oid
             -- Like the Supabase CLI: only relationships inside the generated schema.
             and rc.relnamespace = c.relnamespace) as relationships
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
   where n.nspname = $1 and c.relkind in ('r', 'p', 'f', 'v', 'm')
     and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')
) r`;

const functionsSql = `
select coalesce(json_agg(f order by f.name, f.signature), '[]'::json) as result from (
  select p.proname as name,
         pg_get_function_identity_arguments(p.oid) as signature,
         (select coalesce(json_agg(json_build_object(
                   'name', coalesce(p.proargnames[a.ord], ''),
                   'mode', coalesce(p.proargmodes[a.ord], 'i'),
                   'type', ${typeName('a.typ')},
                   'typeSchema', ${typeSchema('a.typ')}
                 ) order by a.ord), '[]'::json)
            from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality a(typ, ord)) as args,
         ${typeName('p.prorettype')} as "returnType",
         ${typeSchema('p.prorettype')} as "returnTypeSchema",
         (select rc.relname from pg_type rt join pg_class rc on rc.oid = rt.typrelid
           where rt.oid = p.prorettype and rc.relnamespace = p.pronamespace
             and rc.relkind in ('r', 'p', 'f', 'v', 'm')) as "returnsRelation",
         p.proretset as "returnsSet",
         p.pronargdefaults as "argDefaults"
    from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace
   where n.nspname = $1 and p.prokind = 'f'
     -- Trigger functions cannot be called through the data API.
     and p.prorettype not in ('trigger'::regtype, 'event_trigger'::regtype)
     and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
) f`;

const enumsSql = `
select coalesce(json_agg(e order by e.name), '[]'::json) as result from (
  select t.typname as name, json_agg(en.enumlabel order by en.enumsortorder) as values
    from pg_type t
    join pg_namespace n on n.oid = t.typnamespace
    join pg_enum en on en.enumtypid = t.oid
   where n.nspname = $1
   group by t.typname
) e`;

const compositeTypesSql = `
select coalesce(json_agg(ct order by ct.name), '[]'::json) as result from (
  select t.typname as name,
         (select json_agg(json_build_object('name', a.attname, 'type', ${typeName('a.atttypid')},
                                            'typeSchema', ${typeSchema('a.atttypid')}) order by a.attnum)
            from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped) as attributes
    from pg_type t
    join pg_namespace n on n.oid = t.typnamespace
    join pg_class c on c.oid = t.typrelid
   where n.nspname = $1 and t.typtype = 'c' and c.relkind = 'c'
) ct`;

async function readJson<T>(db: Queryable, sql: string, schema: string): Promise<T> {
  const { rows } = await db.query<{ result: T | string }>(sql, [schema]);
  const value = rows[0]?.result;
  if (value === undefined) throw new Error('introspection query returned no row');
  // Drivers differ in whether they parse json; accept both.
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

/** Reads tables, views, functions, enums and composite types of one schema from the catalog. */
export async function introspectSchema(db: Queryable, schema: string): Promise<SchemaInfo> {
  return {
    name: schema,
    relations: await readJson<RelationInfo[]>(db, relationsSql, schema),
    functions: await readJson<FunctionInfo[]>(db, functionsSql, schema),
    enums: await readJson<EnumInfo[]>(db, enumsSql, schema),
    compositeTypes: await readJson<CompositeTypeInfo[]>(db, compositeTypesSql, schema),
  };
}
