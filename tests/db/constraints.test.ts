import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type OpenedDb } from '../../supabase/local/db/open-db';
import type { Queryable } from '../../supabase/local/db/types';
import { checkCases, checksWithoutCasesYet } from './support/check-cases';

let db: OpenedDb;
const userId = randomUUID();
/** The row of each table the cases update, by table name. */
const rowIds = new Map<string, string>();

class Rollback extends Error {}

/** Runs fn in a transaction that is always rolled back. */
async function inRolledBackTransaction(fn: (tx: Queryable) => Promise<void>): Promise<void> {
  await db
    .transaction(async (tx) => {
      await fn(tx);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
}

/** A user as GoTrue inserts it (the seed and the local auth server do the same). */
async function insertAuthUser(tx: Queryable, id: string, meta: unknown): Promise<void> {
  await tx.query(
    `insert into auth.users (instance_id, id, aud, role, email, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
             '{"provider":"email","providers":["email"]}', $3::jsonb, now(), now())`,
    [id, `${id}@constraints.storewise.test`, meta === undefined ? null : JSON.stringify(meta)],
  );
}

const keyColumn = (table: string) => (table === 'private.user_roles' ? 'user_id' : 'id');

async function readRow(table: string): Promise<unknown> {
  const { rows } = await db.query<{ row: unknown }>(
    `select to_jsonb(t) as row from ${table} t where ${keyColumn(table)} = $1`,
    [rowIds.get(table)],
  );
  return rows[0]?.row;
}

interface PgError {
  code?: string;
  constraint?: string;
  message?: string;
}

async function errorOf(promise: Promise<unknown>): Promise<PgError> {
  try {
    await promise;
  } catch (error) {
    return error as PgError;
  }
  return {};
}

beforeAll(async () => {
  db = await openDb({ memory: true, seed: false });
  await db.transaction(async (tx) => {
    await insertAuthUser(tx, userId, { full_name: 'Casey Checks', phone: '5550100100', business_name: 'Check Shop',
      business_type: 'Others', business_email: 'casey@check.example' });
    const insert = async (sql: string) => (await tx.query<{ id: string }>(sql, [userId])).rows[0]?.id ?? '';
    rowIds.set('public.profiles', userId);
    rowIds.set('public.user_plans', await insert(
      `insert into public.user_plans (user_id, plan_name, price) values ($1, 'Growth', 29.99) returning id`));
    rowIds.set('public.billing_history', await insert(
      `insert into public.billing_history (user_id, amount, status, description) values ($1, 10, 'paid', 'Plan') returning id`));
    rowIds.set('public.payment_methods', await insert(
      `insert into public.payment_methods (user_id, type, last_four, expiry, is_default)
       values ($1, 'visa', '4242', '12/28', true) returning id`));
    rowIds.set('public.login_activity', await insert(
      `insert into public.login_activity (user_id, device, location) values ($1, 'Chrome on Linux', 'Local network') returning id`));
    rowIds.set('public.active_sessions', await insert(
      `insert into public.active_sessions (user_id, session_id, device, location)
       values ($1, gen_random_uuid(), 'Chrome on Linux', 'Local network') returning id`));
    rowIds.set('public.support_tickets', await insert(
      `insert into public.support_tickets (user_id, subject, message) values ($1, 'Help', 'Please help') returning id`));
    await tx.query(`insert into private.user_roles (user_id, role) values ($1, 'admin')`, [userId]);
    rowIds.set('private.user_roles', userId);
  });
});

afterAll(async () => {
  await db?.close();
});

describe('CHECK constraints', () => {
  it('every CHECK of the schema has cases', async () => {
    const { rows } = await db.query<{ name: string }>(
      `select format('%s.%s', n.nspname, k.conname) as name
         from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'c' and (n.nspname = 'public' or (n.nspname = 'private' and c.relname = 'user_roles'))
`,
    );
    const covered = checkCases.map((c) => `${c.table.split('.')[0]}.${c.constraint}`);
    expect(covered.filter((name) => checksWithoutCasesYet.includes(name))).toEqual([]);
    expect(rows.map((row) => row.name).sort()).toEqual([...covered, ...checksWithoutCasesYet].sort());
  });

  for (const check of checkCases) {
    describe(`${check.table}.${check.column} (${check.constraint})`, () => {
      it.each(check.bad.map((value) => [JSON.stringify(value)?.slice(0, 40), value]))(
        'rejects %s with 23514 and leaves the row unchanged',
        async (_label, value) => {
          const before = await readRow(check.table);
          expect(before).toBeDefined();
          const error = await errorOf(
            db.query(`update ${check.table} set ${check.column} = $1 where ${keyColumn(check.table)} = $2`, [
              value,
              rowIds.get(check.table),
            ]),
          );
          expect(error.code).toBe('23514');
          expect(error.constraint).toBe(check.constraint);
          expect(error.message).toContain(`violates check constraint "${check.constraint}"`);
          expect(await readRow(check.table)).toEqual(before);
        },
      );

      it.each(check.good.map((value) => [JSON.stringify(value)?.slice(0, 40), value]))('accepts %s', async (_label, value) => {
        await inRolledBackTransaction(async (tx) => {
          const { rows } = await tx.query<{ value: unknown }>(
            `update ${check.table} set ${check.column} = $1 where ${keyColumn(check.table)} = $2
             returning ${check.column}::text as value`,
            [value, rowIds.get(check.table)],
          );
          expect(rows).toHaveLength(1);
          expect(rows[0]?.value === null ? null : Number.isFinite(value) ? Number(rows[0]?.value) : rows[0]?.value).toEqual(value);
        });
      });
    });
  }
});

describe('unique rules', () => {
  it('a user has at most one plan (user_plans_user_id_key)', async () => {
    const error = await errorOf(
      db.query(`insert into public.user_plans (user_id, plan_name, price) values ($1, 'Pro', 99.99)`, [userId]),
    );
    expect(error.code).toBe('23505');
    expect(error.constraint).toBe('user_plans_user_id_key');
    const { rows } = await db.query<{ plans: number; plan_name: string }>(
      'select count(*)::int as plans, max(plan_name) as plan_name from public.user_plans where user_id = $1',
      [userId],
    );
    expect(rows[0]).toEqual({ plans: 1, plan_name: 'Growth' });
  });

  it('a user has at most one default payment method, and any number of others', async () => {
    const error = await errorOf(
      db.query(
        `insert into public.payment_methods (user_id, type, last_four, is_default) values ($1, 'mastercard', '5454', true)`,
        [userId],
      ),
    );
    expect(error.code).toBe('23505');
    expect(error.constraint).toBe('payment_methods_one_default_idx');

    await inRolledBackTransaction(async (tx) => {
      for (const lastFour of ['5454', '1111']) {
        await tx.query(
          `insert into public.payment_methods (user_id, type, last_four, is_default) values ($1, 'mastercard', $2, false)`,
          [userId, lastFour],
        );
      }
      const { rows } = await tx.query<{ total: number; defaults: number }>(
        `select count(*)::int as total, (count(*) filter (where is_default))::int as defaults
           from public.payment_methods where user_id = $1`,
        [userId],
      );
      expect(rows[0]).toEqual({ total: 3, defaults: 1 });
    });
  });
});

describe('handle_new_user (profiles from sign-up metadata)', () => {
  async function profileAfterSignUp(meta: unknown) {
    const id = randomUUID();
    await db.transaction((tx) => insertAuthUser(tx, id, meta));
    const { rows } = await db.query<Record<string, unknown>>(
      `select full_name, business_name, business_type, phone, business_email from public.profiles where id = $1`,
      [id],
    );
    return rows;
  }

  it('copies valid metadata, trimmed', async () => {
    const rows = await profileAfterSignUp({
      full_name: '  Dana Deli  ', business_name: 'Dana\'s Deli', business_type: 'Grocery', phone: ' +1 555 010 0199 ',
      business_email: ' dana@deli.example ',
    });
    expect(rows).toEqual([{ full_name: 'Dana Deli', business_name: 'Dana\'s Deli', business_type: 'Grocery',
      phone: '+1 555 010 0199', business_email: 'dana@deli.example' }]);
  });

  it('uses the provider\'s name when full_name is missing (Google sign-in)', async () => {
    const rows = await profileAfterSignUp({ name: 'Gale Google', email: 'gale@gmail.example' });
    expect(rows).toEqual([{ full_name: 'Gale Google', business_name: null, business_type: null, phone: null,
      business_email: null }]);
  });

  it('leaves invalid values empty instead of failing sign-up', async () => {
    const rows = await profileAfterSignUp({
      full_name: 'A', business_name: text101(), business_type: 'Bakery', phone: '12345', business_email: 'not-an-email',
    });
    expect(rows).toEqual([{ full_name: null, business_name: null, business_type: null, phone: null,
      business_email: null }]);
  });

  it.each([
    ['no metadata', undefined],
    ['empty metadata', {}],
    ['a JSON array', [1, 2]],
    ['a JSON string', 'full_name'],
    ['values of the wrong JSON type', { full_name: { first: 'X' }, business_type: ['Grocery'], phone: 5550100100 }],
  ])('still creates a profile with %s', async (_label, meta) => {
    const rows = await profileAfterSignUp(meta);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.business_type).toBeNull();
  });
});

function text101(): string {
  return 'x'.repeat(101);
}
