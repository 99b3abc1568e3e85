/**
 * From a screen to its SQL in one step: each feature's api file (shared/**\/*-api.ts) opens with the schema
 * files that define the functions it calls (.rpc) and the tables it reads (.from). The extraction writes that
 * block; tests/lint/schema-files.test.ts checks that it names every one of them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '../../supabase/local/db/paths';
import { definitionKeys } from './definition-keys';
import { schemaFiles } from './schema-files';
import { splitStatements } from './sql-statements';

export const blockStart = '// SQL (supabase/schemas, docs/adr/0185):';

export function apiFiles(dir = join(repoRoot, 'shared')): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return apiFiles(path);
    return entry.endsWith('-api.ts') ? [path] : [];
  });
}

/** What an api file calls and reads: public functions and tables by name. */
export function apiUses(source: string): { functions: string[]; tables: string[] } {
  const names = (pattern: RegExp) => [...new Set([...source.matchAll(pattern)].map((m) => m[1] as string))].sort();
  return { functions: names(/\.rpc\(\s*'(\w+)'/g), tables: names(/\.from\(\s*'(\w+)'/g) };
}

/** Which schema file defines each public function and table ("function x" / "table x" -> file). */
export function definingFiles(files = schemaFiles()): Map<string, string> {
  const where = new Map<string, string>();
  for (const file of files) {
    const name = relative(repoRoot, file);
    for (const statement of splitStatements(readFileSync(file, 'utf8'))) {
      for (const key of definitionKeys(statement.text)) {
        const m = /^(function|table) public\.(\w+)/.exec(key);
        if (m) where.set(`${m[1]} ${m[2]}`, name);
      }
    }
  }
  return where;
}

/** The comment block naming, per schema file, the functions and tables of the api file it defines. */
export function sqlBlock(source: string, where: Map<string, string>): string {
  const { functions, tables } = apiUses(source);
  const byFile = new Map<string, string[]>();
  const add = (file: string | undefined, item: string) => {
    if (file) byFile.set(file, [...(byFile.get(file) ?? []), item]);
  };
  for (const fn of functions) add(where.get(`function ${fn}`), `${fn}()`);
  for (const table of tables) add(where.get(`table ${table}`), table);
  if (!byFile.size) return '';
  const lines = [blockStart];
  for (const [file, items] of [...byFile].sort()) {
    let line = `//   ${file}:`;
    for (const item of items) {
      if (line.length + item.length > 112) {
        lines.push(`${line}`);
        line = '//    ';
      }
      line += ` ${item}`;
    }
    lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}

/** The api file with its block replaced (or added at the top). */
export function withSqlBlock(source: string, block: string): string {
  const lines = source.split('\n');
  if (lines[0] === blockStart) {
    let end = 1;
    while (lines[end]?.startsWith('//  ')) end += 1;
    return block + lines.slice(end).join('\n');
  }
  return block + source;
}
