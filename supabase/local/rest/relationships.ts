/**
 * Finds the foreign key behind an embed, as PostgREST does: many-to-one (the parent references the
 * target: one object), one-to-many (the target references the parent: an array, or one object when
 * the referencing columns are unique), disambiguated by a `!hint` (constraint or column name).
 */
import type { ForeignKey, SchemaCache, TableInfo } from './schema-cache';
import { EXPOSED_SCHEMA } from './schema-cache';
import type { SelectEmbed } from './parse-select';
import { RestError } from './rest-error';

export interface Relationship {
  target: TableInfo;
  fk: ForeignKey;
  toOne: boolean;
  /** [parent column, target column] pairs of the join. */
  pairs: [string, string][];
}

function sameColumns(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((column) => b.includes(column));
}

function describe(rel: Relationship, parent: string): string {
  const cardinality = rel.toOne ? (rel.fk.table === parent ? 'many-to-one' : 'one-to-one') : 'one-to-many';
  return `${cardinality} via ${rel.fk.name} using ${rel.fk.table}(${rel.fk.columns.join(', ')}) and ${rel.fk.refTable}(${rel.fk.refColumns.join(', ')})`;
}

export function findRelationship(schema: SchemaCache, parent: TableInfo, embed: SelectEmbed): Relationship {
  const candidates: Relationship[] = [];
  for (const fk of schema.foreignKeys) {
    const pairsOut = fk.columns.map((column, i): [string, string] => [column, fk.refColumns[i] ?? '']);
    const pairsIn = fk.columns.map((column, i): [string, string] => [fk.refColumns[i] ?? '', column]);
    // Many-to-one: by target table name, or by the foreign key's column / constraint name (`user_id(*)`).
    if (fk.table === parent.name && (fk.refTable === embed.name || sameColumns(fk.columns, [embed.name]) || fk.name === embed.name)) {
      const target = schema.tables.get(fk.refTable);
      if (target) candidates.push({ target, fk, toOne: true, pairs: pairsOut });
    }
    if (fk.refTable === parent.name && fk.table === embed.name) {
      const target = schema.tables.get(fk.table);
      if (target) {
        const unique = target.uniqueKeys.some((key) => sameColumns(key, fk.columns));
        candidates.push({ target, fk, toOne: unique, pairs: pairsIn });
      }
    }
  }
  const hint = embed.hint;
  const matching = hint === undefined
    ? candidates
    : candidates.filter((rel) => rel.fk.name === hint || sameColumns(rel.fk.columns, [hint]) || sameColumns(rel.fk.refColumns, [hint]));
  const [only, ...others] = matching;
  if (!only) {
    throw new RestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent.name}' and '${embed.name}' in the schema cache`,
      `Searched for a foreign key relationship between '${parent.name}' and '${embed.name}'${hint === undefined ? '' : ` using the hint '${hint}'`} in the schema '${EXPOSED_SCHEMA}', but no matches were found.`,
      null,
    );
  }
  if (others.length > 0) {
    throw new RestError(
      300,
      'PGRST201',
      `Could not embed because more than one relationship was found for '${parent.name}' and '${embed.name}'`,
      matching.map((rel) => describe(rel, parent.name)).join('; '),
      `Try changing '${embed.name}' to one of the following: ${matching.map((rel) => `'${embed.name}!${rel.fk.name}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
    );
  }
  return only;
}
