/**
 * The statements of the migrations that created functions, policies, triggers, indexes and domains, by the
 * object they name, newest last: the extraction prefers an object's source as written (with the comments
 * above it) to the catalog's rendering, once it has checked that the source still gives the live object.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { listMigrations } from '../../supabase/local/db/migrate';
import { splitStatements, statementHead, type SqlStatement } from './sql-statements';

export interface SourceStatement extends SqlStatement {
  migration: string;
}

const name = String.raw`("[^"]+"|[a-z_][a-z0-9_]*)`;
const qualified = String.raw`(?:${name}\.)?${name}`;

/** Unquotes a name as PostgreSQL folds it. */
function ident(raw: string | undefined): string {
  if (!raw) return '';
  return raw.startsWith('"') ? raw.slice(1, -1) : raw.toLowerCase();
}

/** "schema.name" with public for an unqualified name (the migrations' search path). */
function qualify(schema: string | undefined, object: string | undefined): string {
  const s = ident(schema) || 'public';
  const o = ident(object);
  const q = (part: string) => (/^[a-z_][a-z0-9_]*$/.test(part) ? part : `"${part}"`);
  return `${q(s)}.${q(o)}`;
}

/** What a statement creates, as a key shared with the live catalog's names, or null. */
export function sourceKey(text: string): string | null {
  const head = statementHead(text, 600);
  let m = new RegExp(String.raw`^create (?:or replace )?function ${qualified}\s*\(`).exec(head);
  if (m) return `function ${qualify(m[1], m[2])}`;
  m = new RegExp(String.raw`^create policy ${name} on (?:table )?${qualified}`).exec(head);
  if (m) return `policy ${qualify(m[2], m[3])} ${ident(m[1])}`;
  m = new RegExp(String.raw`^create (?:or replace )?(?:constraint )?trigger ${name} .*? on ${qualified}`).exec(head);
  if (m) return `trigger ${qualify(m[2], m[3])} ${ident(m[1])}`;
  m = new RegExp(String.raw`^create (?:unique )?index (?:concurrently )?(?:if not exists )?${name} on (?:only )?${qualified}`).exec(head);
  if (m) return `index ${qualify(m[2], m[1])}`;
  m = new RegExp(String.raw`^create (?:unlogged )?table (?:if not exists )?${qualified}`).exec(head);
  if (m) return `table ${qualify(m[1], m[2])}`;
  m = new RegExp(String.raw`^create domain ${qualified}`).exec(head);
  if (m) return `domain ${qualify(m[1], m[2])}`;
  return null;
}

/**
 * Every creating statement by key, oldest first: the migrations in order, then the given files (the
 * schema files as they stand, so that text written there by hand wins while it still gives the live object).
 */
export function readSources(migrationsDir: string, laterFiles: string[] = []): Map<string, SourceStatement[]> {
  const sources = new Map<string, SourceStatement[]>();
  const files = [...listMigrations(migrationsDir).map((migration) => migration.path), ...laterFiles];
  for (const file of files) {
    for (const statement of splitStatements(readFileSync(file, 'utf8'))) {
      const renamed = new RegExp(String.raw`^alter function ${qualified}\s*\([^)]*\) rename to ${name}`).exec(statementHead(statement.text));
      if (renamed) {
        // A renamed function's text is its old name's, under the new name.
        const from = qualify(renamed[1], renamed[2]);
        const to = qualify(renamed[1], renamed[3]);
        const texts = (sources.get(`function ${from}`) ?? []).map((source) => ({
          ...source,
          text: source.text.replace(new RegExp(String.raw`^(create (?:or replace )?function )${from.replace('.', String.raw`\.`)}\b`, 'i'), `$1${to}`),
        }));
        sources.set(`function ${to}`, [...texts, ...(sources.get(`function ${to}`) ?? [])]);
      }
      const key = sourceKey(statement.text);
      if (!key) continue;
      sources.set(key, [...(sources.get(key) ?? []), { ...statement, migration: basename(file) }]);
    }
  }
  return sources;
}

/** The top-level statements of the migrations, in order (for the few kept as written, see areas.ts). */
export function readMigrationStatements(migrationsDir: string): SourceStatement[] {
  return listMigrations(migrationsDir).flatMap((migration) =>
    splitStatements(readFileSync(migration.path, 'utf8')).map((statement) => ({ ...statement, migration: basename(migration.path) })),
  );
}
