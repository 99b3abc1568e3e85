/**
 * How the extraction writes SQL: a table from its catalog rows, a function's text with the settings added later
 * (set jit = off), and an area's file: its header, then its objects by section.
 */
import { headers, type Area } from './areas';
import type { LiveTable } from './live-catalog';
import { dollarBody } from './sql-statements';

/** One object's SQL in its file, with the comment lines that go above it. */
export interface Piece {
  comments: string;
  sql: string;
  /** Where its source stood (migration order), to keep related functions together. */
  order: number;
}

export type Section = 'setup' | 'helpers' | 'tables' | 'indexes' | 'functions' | 'triggers' | 'policies' | 'kept';
export const sectionTitles: Record<Section, string> = {
  setup: 'Schemas, extensions, domains and sequences',
  helpers: 'Functions the tables below call in defaults, checks or indexes',
  tables: 'Tables: columns, constraints, row level security, grants and comments',
  indexes: 'Indexes',
  functions: 'Functions',
  triggers: 'Triggers',
  policies: 'Policies',
  kept: 'Run once on apply',
};

/** Adds `set name = value` for settings the live function has and its source does not (e.g. jit, set later). */
export function withSettings(text: string, config: string[]): string {
  const body = dollarBody(text);
  if (!body) return text;
  const head = text.slice(0, body.start);
  const missing = config.filter((entry) => !new RegExp(String.raw`\bset\s+${entry.split('=')[0]}\b`, 'i').test(head));
  if (!missing.length) return text;
  const lines = missing.map((entry) => {
    const [name, ...rest] = entry.split('=');
    const value = rest.join('=');
    return `set ${name} = ${/^[\w.]+$/.test(value) ? value : `'${value.replace(/'/g, "''")}'`}\n`;
  });
  return head + lines.join('') + text.slice(body.start);
}

export function renderTable(table: LiveTable, defined: Set<string>, late: Map<string, string[]>): string {
  if (table.kind === 'sequence') return `create sequence ${table.name};`;
  const lines = [...table.columns];
  for (const constraint of table.constraints) {
    const text = `constraint ${quote(constraint.name)} ${constraint.def}`;
    if (constraint.references && !defined.has(constraint.references)) {
      // The referenced table comes later: the constraint follows it (see there).
      late.set(constraint.references, [...(late.get(constraint.references) ?? []),
        `alter table ${table.name} add ${text};`]);
    } else lines.push(text);
  }
  let sql = `create table ${table.name} (\n  ${lines.join(',\n  ')}\n);`;
  if (table.rls) sql += `\nalter table ${table.name} enable row level security;`;
  if (table.forceRls) sql += `\nalter table ${table.name} force row level security;`;
  // Live through Supabase Realtime (docs/adr/0240): subscribers receive the changes their RLS lets them read.
  if (table.live) sql += `\nalter publication supabase_realtime add table ${table.name};`;
  return sql;
}

function quote(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

export function renderFile(area: Area, sections: Map<Section, Piece[]>): string {
  const out = [
    `${headers[area].split('\n').map((line) => `-- ${line}`).join('\n')}
--
-- Written by scripts/schema-extract.ts from the migrations and kept equal to them by
-- tests/hosted/schema-files.test.ts: change an object here, then generate its migration (README, Contributing).`,
    `-- Function bodies are checked when they run, not when created: the files need no order among functions.
set check_function_bodies = off;`,
  ];
  for (const section of Object.keys(sectionTitles) as Section[]) {
    const pieces = sections.get(section);
    if (!pieces?.length) continue;
    out.push(`-- ${'='.repeat(4)} ${sectionTitles[section]} ${'='.repeat(Math.max(4, 100 - sectionTitles[section].length))}`);
    for (const piece of pieces) out.push([piece.comments, piece.sql].filter(Boolean).join('\n'));
  }
  return `${out.join('\n\n')}\n`;
}
