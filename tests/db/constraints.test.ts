import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type OpenedDb } from '../../supabase/local/db/open-db';
import type { Queryable } from '../../supabase/local/db/types';
import { checkCases, type CheckCase } from './support/check-cases';

let db: OpenedDb;
const userId = randomUUID();
/** The primary key of the row each table's cases update, by table name (e.g. { id: '...' }). */
const rowKeys = new Map<string, Record<string, unknown>>();

class Rollback extends Error {}

/**
 * Runs fn in a transaction that is always rolled back, with session_replication_role = replica: that skips
 * triggers (the ledger's append-only guard, updated_at stamps, foreign keys) but never a CHECK, so each case
 * meets its CHECK alone.
 */
async function inRolledBackTransaction(fn: (tx: Queryable) => Promise<void>): Promise<void> {
  await db
    .transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
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

async function readRow(table: string): Promise<unknown> {
  const { rows } = await db.query<{ row: unknown }>(
    `select to_jsonb(t) as row from ${table} t where to_jsonb(t) @> $1::jsonb`,
    [JSON.stringify(rowKeys.get(table))],
  );
  return rows[0]?.row;
}

/** update <table> set <column> = value (and the case's other columns) on the case's row. */
function updateStatement(check: CheckCase): { sql: string; others: unknown[] } {
  const others = Object.entries(check.also ?? {});
  const sets = [`${check.column} = $1`, ...others.map(([column], index) => `${column} = $${index + 3}`)];
  return {
    sql: `update ${check.table} t set ${sets.join(', ')} where to_jsonb(t) @> $2::jsonb`,
    others: others.map(([, value]) => value),
  };
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

/** The text Postgres returns for a written value, as the value's own type. */
function asWritten(text: string | null, value: unknown): unknown {
  if (text === null) return null;
  if (typeof value === 'number') return Number(text);
  if (typeof value === 'boolean') return text === 'true';
  return text;
}

const someId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * A row for each retail table the demo seed leaves empty. Foreign keys are not checked under the replica role,
 * so the ids point nowhere; every value satisfies the table's CHECKs.
 */
const syntheticRows: Record<string, Record<string, unknown>> = {
  'public.cash_movements': { business_id: someId(1), store_id: someId(2), shift_id: someId(3), kind: 'in',
    amount: 500, reason: 'Float top-up' },
  'public.email_outbox': { to_email: 'owner@shop.example', template: 'ticket_reply' },
  'public.notifications': { user_id: someId(4), kind: 'ticket_reply', title: 'Support replied' },
  'public.pos_approvals': { business_id: someId(1), store_id: someId(2), purpose: 'discount', approved_by: someId(4) },
  'public.refunds': { id: someId(5), business_id: someId(1), store_id: someId(2), sale_id: someId(6),
    tender_kind: 'cash', total: 100, occurred_at: '2026-11-01T10:00:00Z' },
  'public.refund_lines': { business_id: someId(1), refund_id: someId(5), sale_line_id: someId(7), variant_id: someId(8),
    qty: 1, amount: 100, disposition: 'restock' },
  'public.store_prices': { business_id: someId(1), store_id: someId(2), variant_id: someId(8), price: 100 },
  'public.sale_reviews': { sale_id: someId(12), business_id: someId(1), store_id: someId(2), note: 'Checked' },
  'public.shift_reviews': { shift_id: someId(3), business_id: someId(1), store_id: someId(2), reason: 'Checked' },
  'public.refund_reviews': { refund_id: someId(5), business_id: someId(1), store_id: someId(2), note: 'Checked' },
  'public.scale_barcode_rules': { business_id: someId(1), name: 'Weight', pattern: '21.....{NNDDD}', kind: 'weight' },
  'public.collections': { business_id: someId(1), name: 'Summer 2027' },
  'public.recalls': { business_id: someId(1), reason: 'Supplier recall notice' },
  'public.exchange_rates': { business_id: someId(1), currency: 'EUR', base_currency: 'USD', rate: 1.1 },
  'public.sale_line_lots': { sale_line_id: someId(7), lot_id: someId(16), business_id: someId(1), qty: 1 },
  'public.refund_line_lots': { refund_line_id: someId(17), lot_id: someId(16), business_id: someId(1), qty: 1 },
  'public.recall_lots': { recall_id: someId(18), lot_id: someId(16), business_id: someId(1), on_hand: 0 },
  'public.sale_line_prescriptions': { sale_line_id: someId(7), business_id: someId(1), store_id: someId(2), sale_id: someId(6),
    prescriber: 'Dr. Ana Ruiz', prescription_number: 'RX-1', written_on: '2026-11-30', refills_authorised: 1, refills_remaining: 0 },
  'public.controlled_destructions': { business_id: someId(1), store_id: someId(2), variant_id: someId(8), qty: 1,
    destroyed_by: someId(4), witness_id: someId(17) },
  'public.serial_numbers': { business_id: someId(1), variant_id: someId(8), serial: 'SN-1', store_id: someId(2) },
  'public.billing_customers': { business_id: someId(1) },
  'public.billing_subscriptions': { id: 'sub_case', business_id: someId(1), provider_customer_id: 'cus_case', plan: 'Starter',
    status: 'active', provider_created_at: '2026-11-01T00:00:00Z', synced_at: '2026-11-01T00:00:00Z' },
  'public.billing_events': { id: 'evt_case', type: 'invoice.paid', provider_created_at: '2026-11-01T00:00:00Z' },
  'public.ticket_replies': { ticket_id: someId(9), is_staff: true, body: 'We are on it.' },
  'public.transfers': { business_id: someId(1), from_store_id: someId(2), to_store_id: someId(10) },
  'public.transfer_lines': { business_id: someId(1), transfer_id: someId(11), variant_id: someId(8), qty_sent: 1 },
  'public.till_switches': { id: someId(14), business_id: someId(1), store_id: someId(2), register_id: someId(15),
    method: 'online', verified: true },
  'public.desktop_heartbeats': { business_id: someId(1), device_id: someId(13), app_version: '1.4.0', channel: 'stable',
    platform: 'win32', arch: 'x64' },
  'public.register_sync_states': { register_id: someId(14), business_id: someId(1), store_id: someId(2), waiting: 0 },
  'public.product_images': { business_id: someId(1), product_id: someId(14), path: `${someId(1)}/${someId(14)}/a.webp`,
    small_path: `${someId(1)}/${someId(14)}/a.s.webp`, medium_path: `${someId(1)}/${someId(14)}/a.m.webp` },
};

async function primaryKeyColumns(tx: Queryable, table: string): Promise<string[]> {
  const { rows } = await tx.query<{ name: string }>(
    `select a.attname as name from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
      where i.indrelid = $1::regclass and i.indisprimary order by a.attnum`,
    [table],
  );
  return rows.map((row) => row.name);
}

/** The primary key of the table's synthetic row (inserted now) or of its first seeded row. */
async function caseRowKey(tx: Queryable, table: string): Promise<Record<string, unknown>> {
  const keyColumns = await primaryKeyColumns(tx, table);
  const synthetic = syntheticRows[table];
  const { rows } = synthetic
    ? await tx.query<{ row: Record<string, unknown> }>(
        `insert into ${table} (${Object.keys(synthetic).join(', ')})
         select ${Object.keys(synthetic).join(', ')} from jsonb_populate_record(null::${table}, $1::jsonb)
         returning to_jsonb(${table.split('.')[1]}.*) as row`,
        [JSON.stringify(synthetic)],
      )
    : await tx.query<{ row: Record<string, unknown> }>(
        `select to_jsonb(t) as row from ${table} t order by ${keyColumns.join(', ')} limit 1`,
      );
  const row = rows[0]?.row;
  if (!row) throw new Error(`no row in ${table} for its CHECK cases: add one to syntheticRows`);
  return Object.fromEntries(keyColumns.map((column) => [column, row[column]]));
}

beforeAll(async () => {
  db = await openDb({ memory: true });
  await db.transaction(async (tx) => {
    await insertAuthUser(tx, userId, { full_name: 'Casey Checks', phone: '5550100100', business_name: 'Check Shop',
      business_type: 'Others', business_email: 'casey@check.example' });
    const insert = async (sql: string) => (await tx.query<{ id: string }>(sql, [userId])).rows[0]?.id ?? '';
    rowKeys.set('public.profiles', { id: userId });
    rowKeys.set('public.user_plans', { id: await insert(
      `insert into public.user_plans (user_id, plan_name, price) values ($1, 'Growth', 29.99) returning id`) });
    rowKeys.set('public.billing_history', { id: await insert(
      `insert into public.billing_history (user_id, amount, status, description) values ($1, 10, 'paid', 'Plan') returning id`) });
    rowKeys.set('public.payment_methods', { id: await insert(
      `insert into public.payment_methods (user_id, type, last_four, expiry, is_default)
       values ($1, 'visa', '4242', '12/28', true) returning id`) });
    rowKeys.set('public.login_activity', { id: await insert(
      `insert into public.login_activity (user_id, device, location) values ($1, 'Chrome on Linux', 'Local network') returning id`) });
    rowKeys.set('public.active_sessions', { id: await insert(
      `insert into public.active_sessions (user_id, session_id, device, location)
       values ($1, gen_random_uuid(), 'Chrome on Linux', 'Local network') returning id`) });
    rowKeys.set('public.support_tickets', { id: await insert(
      `insert into public.support_tickets (user_id, subject, message) values ($1, 'Help', 'Please help') returning id`) });
    await tx.query(`insert into private.user_roles (user_id, role) values ($1, 'admin')`, [userId]);
    rowKeys.set('private.user_roles', { user_id: userId });
  });
  await db.transaction(async (tx) => {
    await tx.query('set local session_replication_role = replica');
    for (const table of new Set(checkCases.map((check) => check.table))) {
      if (!rowKeys.has(table)) rowKeys.set(table, await caseRowKey(tx, table));
    }
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
    const covered = new Set(checkCases.map((c) => `${c.table.split('.')[0]}.${c.constraint}`));
    expect(rows.map((row) => row.name).sort()).toEqual([...covered].sort());
  });

  for (const check of checkCases) {
    const also = check.also ? ` with ${JSON.stringify(check.also)}` : '';
    describe(`${check.table}.${check.column}${also} (${check.constraint})`, () => {
      it.each(check.bad.map((value) => [JSON.stringify(value)?.slice(0, 40), value]))(
        'rejects %s with 23514 and leaves the row unchanged',
        async (_label, value) => {
          const before = await readRow(check.table);
          expect(before).toBeDefined();
          const { sql, others } = updateStatement(check);
          const error = await errorOf(
            inRolledBackTransaction((tx) =>
              tx.query(sql, [value, JSON.stringify(rowKeys.get(check.table)), ...others]).then(() => undefined),
            ),
          );
          expect(error.code).toBe('23514');
          const reported = check.reportedAs ?? check.constraint;
          expect(error.constraint).toBe(reported);
          expect(error.message).toContain(`violates check constraint "${reported}"`);
          expect(await readRow(check.table)).toEqual(before);
        },
      );

      it.each(check.good.map((value) => [JSON.stringify(value)?.slice(0, 40), value]))('accepts %s', async (_label, value) => {
        await inRolledBackTransaction(async (tx) => {
          const { sql, others } = updateStatement(check);
          const { rows } = await tx.query<{ value: string | null }>(`${sql} returning ${check.column}::text as value`, [
            value,
            JSON.stringify(rowKeys.get(check.table)),
            ...others,
          ]);
          expect(rows).toHaveLength(1);
          expect(asWritten(rows[0]?.value ?? null, value)).toEqual(value);
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
