/**
 * What each statement of a schema file defines, as keys ("function public.post_sales(jsonb)", "grant select on
 * table public.sales to authenticated", "comment on table public.sales"): a key seen twice is an object defined
 * twice. Statements that define nothing (set, do) give no key.
 */
import { statementHead } from './sql-statements';

const typeWords = /^(double precision|timestamp(\(\d\))? with(out)? time zone|time with(out)? time zone|character varying(\(\d+\))?|bit varying)/;

/** PostgreSQL's other spellings of the same types, so that `int` and `integer` name one signature. */
const aliases: Record<string, string> = {
  int: 'integer', int4: 'integer', int8: 'bigint', int2: 'smallint', bool: 'boolean', float8: 'double precision',
  float4: 'real', timestamptz: 'timestamp with time zone', varchar: 'character varying', decimal: 'numeric',
};

function canonicalType(type: string): string {
  const [base = '', ...rest] = type.split(/(?=\[)/);
  return (aliases[base] ?? base) + rest.join('');
}

/** The argument types of a parameter list, without names, modes, defaults and OUT parameters. */
export function argumentTypes(list: string): string {
  const args: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of list) {
    if (c === '(') depth += 1;
    if (c === ')') depth -= 1;
    if (c === ',' && depth === 0) {
      args.push(current);
      current = '';
    } else current += c;
  }
  if (current.trim()) args.push(current);
  return args
    .map((arg) => arg.trim().replace(/\s+(default\s|=).*$/s, '').replace(/\s+/g, ' '))
    .filter((arg) => !/^(out)\s/.test(arg))
    .map((arg) => arg.replace(/^(in|inout|variadic)\s+/, ''))
    .map((arg) => {
      // "name type" unless the whole is a type of several words.
      if (typeWords.test(arg)) return arg;
      const space = arg.indexOf(' ');
      return space > 0 && !typeWords.test(arg.slice(0, space)) ? arg.slice(space + 1) : arg;
    })
    .map(canonicalType)
    .join(',');
}

/** The text between the parenthesis at `open` and its match. */
function balanced(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    if (text[i] === '(') depth += 1;
    if (text[i] === ')') {
      depth -= 1;
      if (depth === 0) return text.slice(open + 1, i);
    }
  }
  return text.slice(open + 1);
}

const name = String.raw`((?:"[^"]+"|[\w$]+)(?:\.(?:"[^"]+"|[\w$]+))?)`;

function privilegeKeys(verb: 'grant' | 'revoke', head: string): string[] {
  const m = verb === 'grant'
    ? /^grant (.+?) on (?:(table|sequence|function|schema|domain|type) )?(.+?) to (.+?)(?: with grant option)?;?$/.exec(head)
    : /^revoke (?:grant option for )?(.+?) on (?:(table|sequence|function|schema|domain|type) )?(.+?) from (.+?)(?: cascade| restrict)?;?$/.exec(head);
  if (!m) return [`${verb} ${head}`];
  const [, privileges = '', kind = 'table', target = '', roles = ''] = m;
  // "update (a, b)" grants each column; "select, insert" each privilege.
  const items = privileges.split(/,(?![^(]*\))/).map((p) => p.trim().replace(/\s+/g, ' '));
  const objectName = kind === 'function' ? target.replace(/\s+/g, '').replace(/\(([^)]*)\)/, (_, a: string) => `(${argumentTypes(a.replace(/,/g, ', '))})`) : target.trim();
  return roles.split(',').flatMap((role) => items.map((item) => `${verb} ${item} on ${kind} ${objectName} to ${role.trim()}`));
}

export function definitionKeys(text: string): string[] {
  const head = statementHead(text, 100_000).trim();
  let m = new RegExp(String.raw`^create (?:or replace )?(function|procedure) ${name}\s*\(`).exec(head);
  if (m) return [`${m[1]} ${m[2]}(${argumentTypes(balanced(head, m.index + m[0].length - 1))})`];
  m = new RegExp(String.raw`^create (?:unlogged )?table (?:if not exists )?${name}\s*\(`).exec(head);
  if (m) {
    const table = m[1];
    const body = balanced(head, m.index + m[0].length - 1);
    const constraints = [...body.matchAll(/(?:^|,)\s*constraint ("[^"]+"|\w+)/g)].map((c) => `constraint ${table}.${c[1]}`);
    return [`table ${table}`, ...constraints];
  }
  m = new RegExp(String.raw`^alter table (?:only )?${name} add constraint ("[^"]+"|\w+)`).exec(head);
  if (m) return [`constraint ${m[1]}.${m[2]}`];
  m = new RegExp(String.raw`^alter table ${name} (enable|force) row level security`).exec(head);
  if (m) return [`${m[2]} row level security ${m[1]}`];
  m = new RegExp(String.raw`^create (?:unique )?index (?:concurrently )?(?:if not exists )?("[^"]+"|\w+) on (?:only )?${name}`).exec(head);
  if (m) return [`index ${(m[2] ?? '').split('.').slice(0, -1).concat(m[1] ?? '').join('.')}`];
  m = new RegExp(String.raw`^create (?:or replace )?(?:constraint )?trigger ("[^"]+"|\w+) .*? on ${name}`).exec(head);
  if (m) return [`trigger ${m[2]}.${m[1]}`];
  m = new RegExp(String.raw`^create policy ("[^"]+"|\w+) on (?:table )?${name}`).exec(head);
  if (m) return [`policy ${m[2]}.${m[1]}`];
  m = new RegExp(String.raw`^create (domain|sequence|schema|extension|type|view|publication) (?:if not exists )?${name}`).exec(head);
  if (m) return [`${m[1]} ${m[2]}`];
  m = /^comment on (.+?) is /.exec(head);
  if (m) return [`comment on ${(m[1] ?? '').replace(/\s*([(),])\s*/g, '$1')}`];
  if (head.startsWith('grant ')) return privilegeKeys('grant', head);
  if (head.startsWith('revoke ')) return privilegeKeys('revoke', head);
  return [];
}
