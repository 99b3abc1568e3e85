/**
 * Checks, inside a transaction it always rolls back, that a source statement still gives the live object:
 * the object is dropped (or replaced), the statement run, and the catalog's rendering compared with the live
 * one. Only then does the extraction copy the text as written.
 */
import type pg from 'pg';

class Rollback extends Error {}

async function inRollback(client: pg.Client, fn: () => Promise<boolean>): Promise<boolean> {
  let same = false;
  try {
    await client.query('begin');
    // The migrations' search path (the postgres role's on hosted).
    await client.query('set local search_path = public, extensions');
    await client.query('set local check_function_bodies = off');
    same = await fn();
    throw new Rollback();
  } catch (error) {
    await client.query('rollback');
    if (!(error instanceof Rollback)) return false;
  }
  return same;
}

async function one(client: pg.Client, sql: string, params: unknown[]): Promise<string | null> {
  const { rows } = await client.query<{ v: string | null }>(sql, params);
  return rows[0]?.v ?? null;
}

export function functionGives(client: pg.Client, oid: number, statement: string): Promise<boolean> {
  return inRollback(client, async () => {
    const before = await one(client, 'select pg_get_functiondef($1::oid) as v', [oid]);
    const identity = await one(client, 'select $1::oid::regprocedure::text as v', [oid]);
    // Out of the way first: a statement for another overload must not pass for this one.
    await client.query(`alter function ${identity} rename to schema_extract_probe`);
    await client.query(statement);
    return before === (await one(client, 'select pg_get_functiondef(to_regprocedure($1)) as v', [identity]));
  });
}

const policyShape = `select format('%s|%s|%s|%s|%s', p.polpermissive, p.polcmd, p.polroles::text,
                              pg_get_expr(p.polqual, p.polrelid), pg_get_expr(p.polwithcheck, p.polrelid)) as v
                       from pg_policy p where p.polrelid = $1::regclass and p.polname = $2`;

export function policyGives(client: pg.Client, table: string, name: string, statement: string): Promise<boolean> {
  return inRollback(client, async () => {
    const before = await one(client, policyShape, [table, name]);
    await client.query(`drop policy ${quoteIdent(name)} on ${table}`);
    await client.query(statement);
    return before === (await one(client, policyShape, [table, name]));
  });
}

const triggerShape = `select pg_get_triggerdef(t.oid) as v from pg_trigger t where t.tgrelid = $1::regclass and t.tgname = $2`;

export function triggerGives(client: pg.Client, table: string, name: string, statement: string): Promise<boolean> {
  return inRollback(client, async () => {
    const before = await one(client, triggerShape, [table, name]);
    await client.query(`drop trigger ${quoteIdent(name)} on ${table}`);
    await client.query(statement.replace(/^create\s+or\s+replace\s+trigger/i, 'create trigger'));
    return before === (await one(client, triggerShape, [table, name]));
  });
}

export function indexGives(client: pg.Client, index: string, statement: string): Promise<boolean> {
  return inRollback(client, async () => {
    const shape = 'select pg_get_indexdef($1::regclass) as v';
    const before = await one(client, shape, [index]);
    await client.query(`drop index ${index}`);
    await client.query(statement);
    return before === (await one(client, shape, [index]));
  });
}

export function quoteIdent(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}
