/**
 * `npm run schema:extract`: writes supabase/schemas/<area>.sql, the one current definition of every object,
 * from a hosted-shaped PostgreSQL 15 that `supabase db push` gave the migrations (docs/adr/0185).
 * Tables, grants and comments are rendered from the catalog; functions, policies, triggers, indexes and
 * domains keep the text they were written in (the schema file's own first, then the newest migration's, with
 * the comments above it) when that text still gives the live object, else the catalog's rendering.
 * Which file holds what, and each file's opening lines, live in scripts/schema-extract/areas.ts.
 * Run it again after new migrations land; tests/hosted/schema-files.test.ts proves the result.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { migrationsDir, repoRoot } from '../supabase/local/db/paths';
import { startHostedProject } from './hosted-db/hosted-project';
import { areas, functionRules, keptStatements, migrationAreas, tables as tableAreas, type Area } from './schema-extract/areas';
import {
  readComments, readDomains, readFunctions, readFunctionsTablesUse, readGrants, readIndexes, readPolicies, readTables, readTriggers,
  type LiveTable,
} from './schema-extract/live-catalog';
import { renderFile, renderTable, withSettings, type Piece, type Section } from './schema-extract/render';
import { readMigrationStatements, readSources, type SourceStatement } from './schema-extract/migration-sources';
import { lowerKeywords } from './schema-extract/lower-keywords';
import { tidyPolicy } from './schema-extract/tidy-policy';
import { functionGives, indexGives, policyGives, triggerGives } from './schema-extract/verify-source';
import { schemaFiles } from './schema-extract/schema-files';
import { apiFiles, definingFiles, sqlBlock, withSqlBlock } from './schema-extract/api-files';

const warnings: string[] = [];

function areaOfMigration(file: string | undefined): Area | undefined {
  const word = /^\d+_([a-z]+)/.exec(file ?? '')?.[1];
  return word ? migrationAreas[word] : undefined;
}

function functionArea(qualifiedName: string, newest: SourceStatement | undefined): Area {
  const bare = qualifiedName.split('.').pop() ?? '';
  for (const [rule, area] of functionRules) if (rule.test(bare)) return area;
  const area = areaOfMigration(newest?.migration);
  if (area) return area;
  warnings.push(`${qualifiedName}: no rule in scripts/schema-extract/areas.ts names its area; put in shared`);
  return 'shared';
}

function tableArea(name: string, newest: SourceStatement | undefined): Area {
  for (const area of areas) if (tableAreas[area].includes(name)) return area;
  const area = areaOfMigration(newest?.migration) ?? 'shared';
  warnings.push(`${name}: not listed in scripts/schema-extract/areas.ts tables; put in ${area}`);
  return area;
}

/** The newest candidate (the schema file's first) that still gives the live object. */
async function pick(candidates: SourceStatement[] | undefined, gives: (text: string) => Promise<boolean>): Promise<SourceStatement | undefined> {
  for (const candidate of [...(candidates ?? [])].reverse()) {
    if (await gives(candidate.text)) return candidate;
  }
  return undefined;
}

export async function extractSchemaFiles(): Promise<{ files: Map<Area, string>; warnings: string[] }> {
  const project = await startHostedProject({ seed: false });
  const client = new pg.Client({ connectionString: project.server.url('supabase_admin') });
  await client.connect();
  try {
    await client.query(`set search_path = ''`);
    const [tables, functions, indexes, triggers, policies, domains, grants, comments] = [
      await readTables(client), await readFunctions(client), await readIndexes(client), await readTriggers(client),
      await readPolicies(client), await readDomains(client), await readGrants(client), await readComments(client),
    ];
    // The catalog's renderings in the migrations' lower case.
    for (const table of tables) {
      table.columns = table.columns.map(lowerKeywords);
      for (const constraint of table.constraints) constraint.def = lowerKeywords(constraint.def);
    }
    for (const object of [...indexes, ...triggers, ...policies, ...domains]) object.definition = lowerKeywords(object.definition);
    const tablesUse = await readFunctionsTablesUse(client);
    const existing = schemaFiles().filter((file) => existsSync(file));
    const sources = readSources(migrationsDir, existing);
    const statements = readMigrationStatements(migrationsDir);
    // Where an object's newest migration text stands: related objects stay together, the same on every run.
    const positions = new Map(statements.map((s, i) => [s.text, i]));
    const migrationOrder = (key: string) => {
      const newest = sources.get(key)?.filter((s) => /^\d+_/.test(s.migration)).at(-1);
      return newest ? (positions.get(newest.text) ?? 1e9) : 1e9;
    };
    const order = (statement: SourceStatement | undefined) => (statement ? (positions.get(statement.text) ?? 1e9) : 1e9);

    const files = new Map<Area, Map<Section, Piece[]>>(areas.map((area) => [area, new Map()]));
    const add = (area: Area, section: Section, piece: Piece) => {
      const sections = files.get(area) as Map<Section, Piece[]>;
      sections.set(section, [...(sections.get(section) ?? []), piece]);
    };
    const extras = (object: string) => [...(comments.get(object) ?? []), ...(grants.get(object) ?? [])].join('\n');

    // Setup: the statements kept as written, the schema's grants and comments, the domains.
    for (const kept of keptStatements) {
      const statement = [...statements].reverse().find((s) => kept.pattern.test(s.text));
      if (!statement) continue;
      const section: Section = /^do\b/i.test(statement.text) ? 'kept' : 'setup';
      add(kept.area, section, { comments: statement.comments, sql: statement.text, order: order(statement) });
    }
    add('shared', 'setup', { comments: '', sql: extras('schema private'), order: 0 });
    for (const domain of domains) {
      const source = sources.get(`domain ${domain.name}`)?.at(-1);
      add('shared', 'setup', { comments: source?.comments ?? '', sql: [source?.text ?? domain.definition, extras(domain.name)].filter(Boolean).join('\n'), order: 0 });
    }

    // Tables, in the files' order, each after the tables its foreign keys name.
    // Tables outside our schemas (auth.users) exist before any file applies.
    const defined = new Set<string>(tables.flatMap((t) => t.constraints.map((c) => c.references ?? ''))
      .filter((name) => name && !tables.some((t) => t.name === name)));
    const late = new Map<string, string[]>();
    const tableAreaOf = new Map<string, Area>();
    for (const table of tables) tableAreaOf.set(table.name, tableArea(table.name, sources.get(`table ${table.name}`)?.at(-1)));
    for (const area of areas) {
      const waiting = tables.filter((table) => tableAreaOf.get(table.name) === area)
        .sort((a, b) => tableAreas[area].indexOf(a.name) - tableAreas[area].indexOf(b.name));
      while (waiting.length) {
        const ready = waiting.findIndex((table) => table.constraints.every((c) => !c.references || defined.has(c.references)
          || !waiting.some((w) => w.name === c.references)));
        const [table] = waiting.splice(ready < 0 ? 0 : ready, 1) as [LiveTable];
        const sql = [renderTable(table, defined, late), extras(table.name), ...(late.get(table.name) ?? [])].filter(Boolean).join('\n');
        defined.add(table.name);
        add(area, table.kind === 'sequence' ? 'setup' : 'tables', { comments: '', sql, order: 0 });
      }
    }
    for (const [target, constraints] of late) {
      if (!defined.has(target)) warnings.push(`${target} is referenced but not extracted: ${constraints.join(' ')}`);
    }

    for (const index of indexes) {
      const area = tableAreaOf.get(index.table) ?? 'shared';
      const source = await pick(sources.get(`index ${index.name}`), (text) => indexGives(client, index.name, text));
      add(area, 'indexes', { comments: source?.comments ?? '', sql: [source?.text ?? `${index.definition};`, extras(index.name)].filter(Boolean).join('\n'), order: migrationOrder(`index ${index.name}`) });
    }

    const functionAreaOf = new Map<string, Area>();
    for (const fn of functions) {
      const candidates = sources.get(`function ${fn.name}`);
      // Its area's, unless its arguments or result are rows of a later file's table (which must exist first).
      const own = functionArea(fn.name, candidates?.at(-1));
      const area = [own, ...fn.signatureTables.map((t) => tableAreaOf.get(t)).filter((a): a is Area => !!a)]
        .sort((a, b) => areas.indexOf(b) - areas.indexOf(a))[0] ?? own;
      if (area !== own) warnings.push(`${fn.identity} placed in ${area}.sql: its signature names a table of that file`);
      functionAreaOf.set(fn.name, area);
      let source = await pick(candidates, (text) => functionGives(client, fn.oid, text));
      let text = source?.text;
      if (!source) {
        source = await pick(candidates?.map((c) => ({ ...c, text: withSettings(c.text, fn.config) })), (t) => functionGives(client, fn.oid, t));
        text = source?.text;
      }
      if (!source) warnings.push(`${fn.identity}: no migration text gives it; rendered from the catalog`);
      const comments = source?.comments ?? candidates?.at(-1)?.comments ?? '';
      add(area, tablesUse.has(Number(fn.oid)) ? 'helpers' : 'functions', { comments, sql: [text ?? `${fn.definition.trimEnd()};`, extras(fn.identity)].filter(Boolean).join('\n'), order: migrationOrder(`function ${fn.name}`) });
    }

    for (const trigger of triggers) {
      // With its function's area (the machinery it runs), unless its table comes later (set_updated_at's).
      const candidates = [functionAreaOf.get(trigger.extra ?? ''), tableAreaOf.get(trigger.table)].filter((a): a is Area => !!a);
      const area = candidates.sort((a, b) => areas.indexOf(b) - areas.indexOf(a))[0] ?? 'auth';
      const source = await pick(sources.get(`trigger ${trigger.table} ${trigger.name}`), (text) => triggerGives(client, trigger.table, trigger.name, text));
      const sql = source?.text.replace(/^create\s+or\s+replace\s+trigger/i, 'create trigger') ?? `${trigger.definition};`;
      add(area, 'triggers', { comments: source?.comments ?? '', sql: [sql, extras(`trigger ${trigger.oid}`)].filter(Boolean).join('\n'), order: migrationOrder(`trigger ${trigger.table} ${trigger.name}`) });
    }

    for (const policy of policies) {
      // With its table, unless it names a table or function of a later file (which must exist first).
      const needs = [policy.table, ...(policy.uses ?? [])]
        .map((name) => tableAreaOf.get(name) ?? functionAreaOf.get(name))
        .filter((a): a is Area => !!a);
      const area = needs.sort((a, b) => areas.indexOf(b) - areas.indexOf(a))[0] ?? 'shared';
      if (area !== tableAreaOf.get(policy.table)) warnings.push(`policy ${policy.name} on ${policy.table} placed in ${area}.sql: it names objects of that file`);
      const source = await pick(sources.get(`policy ${policy.table} ${policy.name}`), (text) => policyGives(client, policy.table, policy.name, text));
      // No written text: the catalog's, tidied when the tidy text still gives the same policy.
      const tidy = source ? '' : tidyPolicy(policy.definition);
      const rendered = source?.text ?? ((await policyGives(client, policy.table, policy.name, tidy)) ? tidy : policy.definition);
      add(area, 'policies', { comments: source?.comments ?? '', sql: [rendered, extras(`policy ${policy.oid}`)].filter(Boolean).join('\n'), order: tables.findIndex((t) => t.name === policy.table) });
    }

    const texts = new Map<Area, string>();
    for (const [area, sections] of files) {
      for (const section of ['helpers', 'indexes', 'functions', 'triggers', 'policies'] as Section[]) {
        sections.get(section)?.sort((a, b) => a.order - b.order);
      }
      texts.set(area, renderFile(area, sections));
    }
    return { files: texts, warnings };
  } finally {
    await client.end();
    await project.stop();
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const { files, warnings: notes } = await extractSchemaFiles();
  const dir = join(repoRoot, 'supabase', 'schemas');
  mkdirSync(dir, { recursive: true });
  for (const [area, text] of files) {
    const file = join(dir, `${area}.sql`);
    const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (before !== text) writeFileSync(file, text);
    console.log(`${before === text ? 'unchanged' : 'wrote'} supabase/schemas/${area}.sql`);
  }
  // The api files name the schema files of what they call (one step from a screen to its SQL).
  const where = definingFiles();
  for (const file of apiFiles()) {
    const source = readFileSync(file, 'utf8');
    const next = withSqlBlock(source, sqlBlock(source, where));
    if (next !== source) {
      writeFileSync(file, next);
      console.log(`wrote the SQL block of ${relative(repoRoot, file)}`);
    }
  }
  for (const note of notes) console.warn(`note: ${note}`);
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s; check with npx vitest run --project hosted tests/hosted/schema-files.test.ts`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
