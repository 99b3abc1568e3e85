/**
 * supabase/schemas holds each object once (issue 23, docs/adr/0185): the files config.toml lists, each opening
 * with what its area owns, no object defined in two statements, and every feature api file naming the schema
 * files that define what it calls. That the files define exactly what the migrations ship is
 * tests/hosted/schema-files.test.ts's job (it needs PostgreSQL).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../supabase/local/db/paths';
import { apiFiles, apiUses, blockStart, definingFiles } from '../../scripts/schema-extract/api-files';
import { definitionKeys } from '../../scripts/schema-extract/definition-keys';
import { schemaFiles, supabaseDir } from '../../scripts/schema-extract/schema-files';
import { splitStatements } from '../../scripts/schema-extract/sql-statements';

const files = schemaFiles();

/** Each key defined more than once, with where. */
function duplicates(sources: { name: string; text: string }[]): string[] {
  const where = new Map<string, string[]>();
  for (const source of sources) {
    for (const statement of splitStatements(source.text)) {
      for (const key of definitionKeys(statement.text)) where.set(key, [...(where.get(key) ?? []), source.name]);
    }
  }
  return [...where].filter(([, places]) => places.length > 1).map(([key, places]) => `${key} (${places.join(', ')})`);
}

describe('supabase/schemas', () => {
  it('is the list config.toml applies, each file opening with what its area owns', () => {
    const onDisk = readdirSync(join(supabaseDir, 'schemas')).filter((name) => name.endsWith('.sql')).sort();
    expect(files.map((file) => basename(file)).sort()).toEqual(onDisk);
    for (const file of files) {
      const lines = readFileSync(file, 'utf8').split('\n');
      const header = lines.slice(0, lines.findIndex((line) => !line.startsWith('-- ')));
      expect(header.length, relative(repoRoot, file)).toBeGreaterThanOrEqual(3);
      expect(header.join('\n'), relative(repoRoot, file)).toMatch(/Invariants: \w+/);
    }
  });

  it('defines every object once', () => {
    const sources = files.map((file) => ({ name: relative(repoRoot, file), text: readFileSync(file, 'utf8') }));
    expect(duplicates(sources)).toEqual([]);
    // It counted the definitions, not nothing.
    const keys = sources.flatMap((source) => splitStatements(source.text).flatMap((s) => definitionKeys(s.text)));
    expect(keys.filter((key) => key.startsWith('function ')).length).toBeGreaterThan(200);
    expect(keys.filter((key) => key.startsWith('policy ')).length).toBeGreaterThan(50);
  });

  it('counts an object written twice, however it is spelled, as a duplicate', () => {
    const a = `create or replace function public.f(_a uuid, _b timestamp with time zone default now()) returns int
               language sql as $$ select 1; $$;
               grant select, update (name) on table public.t to authenticated;`;
    const b = `create function public.f(x uuid, y timestamptz, out z int) language sql as $$ select 2 $$;
               grant update (name) on public.t to authenticated;
               create function public.f(x uuid) returns int language sql as $$ select 3 $$;
               create function public.g(int, bool[]) returns int language sql as $$ select 3 $$;
               create function public.g(integer, boolean[]) returns int language sql as $$ select 3 $$;`;
    expect(duplicates([{ name: 'a.sql', text: a }, { name: 'b.sql', text: b }])).toEqual([
      'function public.f(uuid,timestamp with time zone) (a.sql, b.sql)',
      'grant update (name) on table public.t to authenticated (a.sql, b.sql)',
      'function public.g(integer,boolean[]) (b.sql, b.sql)',
    ]);
  });
});

describe('the feature api files', () => {
  const where = definingFiles(files);

  it('name, at their top, the schema file of every function they call and table they read', () => {
    const missing: string[] = [];
    for (const file of apiFiles()) {
      const source = readFileSync(file, 'utf8');
      const { functions, tables } = apiUses(source);
      const top = source.startsWith(blockStart) ? source.slice(0, source.indexOf('\nimport')) : '';
      for (const [kind, names] of [['function', functions], ['table', tables]] as const) {
        for (const name of names) {
          const schemaFile = where.get(`${kind} ${name}`);
          const line = top.split('\n').findIndex((l) => l.includes(`${name}${kind === 'function' ? '()' : ''}`));
          if (!schemaFile) missing.push(`${relative(repoRoot, file)}: ${kind} ${name} is in no schema file`);
          else if (line < 0 || !top.includes(schemaFile)) missing.push(`${relative(repoRoot, file)}: does not name ${schemaFile} for ${name}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(where.get('function post_sales')).toBe('supabase/schemas/pos.sql');
    expect(where.get('function report_sell_through')).toBe('supabase/schemas/reports.sql');
  });
});
