/**
 * Row level security, column grants and RPC guards, asserted row by row for every table and action:
 * what anon, owner A, owner B and an admin can and cannot do (and that the service role can write what
 * owners cannot). Runs through the official supabase-js client against the local stack over HTTP.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, ApiResult } from './support/actors';
import { startMatrixWorld, type MatrixWorld } from './support/matrix-world';
import { seedUsers } from './support/seed-ids';

const tables = [
  'profiles', 'user_plans', 'billing_history', 'payment_methods', 'login_activity', 'active_sessions', 'support_tickets',
] as const;
type Table = (typeof tables)[number];

/** Tables the admin panel reads in full; the others stay private to their owner even for admins. */
const adminReads = new Set<Table>(['profiles', 'user_plans', 'billing_history', 'support_tickets']);
/** Written only by triggers, the billing back office or the payment integration (service role). */
const serviceOnly = ['billing_history', 'payment_methods', 'login_activity', 'active_sessions'] as const;

const ownerColumn = (table: Table) => (table === 'profiles' ? 'id' : 'user_id');

let w: MatrixWorld;

beforeAll(async () => {
  w = await startMatrixWorld();
});

afterAll(async () => {
  await w?.stop();
});

/** Ids of the rows of a table, optionally of one owner, read as the database owner. */
async function ids(table: Table, ownerId?: string): Promise<string[]> {
  const filter = ownerId ? `where ${ownerColumn(table)} = $1` : '';
  const { rows } = await w.db.query<{ id: string }>(`select id from public.${table} ${filter} order by id`,
    ownerId ? [ownerId] : []);
  return rows.map((row) => row.id);
}

async function rowOf(table: Table, id: string): Promise<unknown> {
  const { rows } = await w.db.query<{ row: unknown }>(`select to_jsonb(t) as row from public.${table} t where id = $1`, [id]);
  return rows[0]?.row;
}

async function firstId(table: Table, ownerId: string): Promise<string> {
  const [id] = await ids(table, ownerId);
  if (!id) throw new Error(`the seed has no ${table} row for ${ownerId}`);
  return id;
}

const idsOf = (result: ApiResult) => result.rows.map((row) => String(row.id)).sort();

function expectRefused(result: ApiResult, message = 'permission denied'): void {
  expect(result.error, 'expected the database to refuse').not.toBeNull();
  expect(result.error?.code).toBe('42501');
  expect(result.error?.message).toContain(message);
  expect(result.rows).toEqual([]);
}

const userIdOf = (actor: Actor): string => {
  if (!actor.userId) throw new Error(`${actor.name} is not signed in`);
  return actor.userId;
};

/** A row each table would accept from the database owner, for the given user. */
function validRow(table: Table, userId: string): Record<string, unknown> {
  switch (table) {
    case 'profiles':
      return { id: userId, full_name: 'Forged Profile' };
    case 'user_plans':
      return { user_id: userId, plan_name: 'Enterprise', price: 0 };
    case 'billing_history':
      return { user_id: userId, amount: 0, status: 'refunded', description: 'Forged credit' };
    case 'payment_methods':
      return { user_id: userId, type: 'other', last_four: '0000' };
    case 'login_activity':
      return { user_id: userId, device: 'Forged device' };
    case 'active_sessions':
      return { user_id: userId, session_id: randomUUID(), device: 'Forged device' };
    case 'support_tickets':
      return { user_id: userId, subject: 'Matrix ticket', message: 'Filed by the policy matrix' };
  }
}

/** A change to a column an owner must not write, per table. */
const forbiddenPatch: Record<Table, Record<string, unknown>> = {
  profiles: { business_name: 'Renamed Business' },
  user_plans: { price: 0 },
  billing_history: { amount: 0 },
  payment_methods: { is_default: false },
  login_activity: { device: 'Edited device' },
  active_sessions: { is_current: false },
  support_tickets: { status: 'resolved' },
};

describe.each(tables)('%s', (table) => {
  describe('select', () => {
    it('anon is refused', async () => {
      expectRefused(await w.anon.select(table));
    });

    it.each(['ownerA', 'ownerB'] as const)('%s sees exactly its own rows', async (who) => {
      const actor = w[who];
      const expected = await ids(table, userIdOf(actor));
      expect(expected.length, 'the seed gives both owners rows in every table').toBeGreaterThan(0);
      const result = await actor.select(table);
      expect(result.error).toBeNull();
      expect(idsOf(result)).toEqual(expected);
      for (const row of result.rows) expect(row[ownerColumn(table)]).toBe(actor.userId);
    });

    it(adminReads.has(table) ? 'admin sees every row' : 'admin sees only its own rows', async () => {
      const result = await w.admin.select(table);
      expect(result.error).toBeNull();
      const expected = adminReads.has(table) ? await ids(table) : await ids(table, seedUsers.admin.id);
      expect(idsOf(result)).toEqual(expected);
      if (adminReads.has(table)) {
        // Both owners' rows are among them.
        for (const owner of [w.ownerA, w.ownerB]) {
          expect(result.rows.some((row) => row[ownerColumn(table)] === owner.userId)).toBe(true);
        }
      } else {
        expect(result.rows.some((row) => row[ownerColumn(table)] === w.ownerA.userId)).toBe(false);
      }
    });
  });

  describe('delete', () => {
    it.each(['anon', 'ownerA', 'ownerB', 'admin'] as const)('%s cannot delete owner A\'s row', async (who) => {
      const target = await firstId(table, seedUsers.owner1.id);
      const before = await rowOf(table, target);
      expectRefused(await w[who].remove(table, { id: target }));
      expect(await rowOf(table, target)).toEqual(before);
    });
  });

  describe('update', () => {
    it.each(['anon', 'ownerA', 'ownerB', 'admin'] as const)('%s cannot write a protected column of owner A\'s row',
      async (who) => {
        const target = await firstId(table, seedUsers.owner1.id);
        const before = await rowOf(table, target);
        expectRefused(await w[who].update(table, forbiddenPatch[table], { id: target }));
        expect(await rowOf(table, target)).toEqual(before);
      });
  });

  if (table !== 'support_tickets') {
    describe('insert', () => {
      it.each(['anon', 'ownerA', 'ownerB', 'admin'] as const)('%s cannot insert, not even for itself', async (who) => {
        const actor = w[who];
        // Anon tries to plant a row for owner A; signed-in callers for themselves.
        const forUser = actor.userId ?? seedUsers.owner1.id;
        const before = await ids(table);
        expectRefused(await actor.insert(table, validRow(table, forUser)));
        expect(await ids(table)).toEqual(before);
      });
    });
  }
});

describe('owner updates', () => {
  it('owner A updates its own full_name and phone', async () => {
    const result = await w.ownerA.update('profiles', { full_name: 'Olivia G. Grocer', phone: '+1 555 010 0111' },
      { id: seedUsers.owner1.id });
    expect(result.error).toBeNull();
    expect(idsOf(result)).toEqual([seedUsers.owner1.id]);
    expect(await rowOf('profiles', seedUsers.owner1.id)).toMatchObject({ full_name: 'Olivia G. Grocer',
      phone: '+1 555 010 0111', business_name: 'Fresh Corner Market' });
  });

  it.each([
    ['business_name', 'Renamed Market'], ['business_type', 'Electronics'], ['business_email', 'x@forged.example'],
    ['id', seedUsers.owner2.id], ['created_at', '2000-01-01T00:00:00Z'],
  ])('owner A cannot update its own profiles.%s', async (column, value) => {
    const before = await rowOf('profiles', seedUsers.owner1.id);
    expectRefused(await w.ownerA.update('profiles', { [column]: value }, { id: seedUsers.owner1.id }));
    expect(await rowOf('profiles', seedUsers.owner1.id)).toEqual(before);
  });

  it.each(['ownerB', 'admin'] as const)('%s changes 0 rows when updating owner A\'s full_name', async (who) => {
    const before = await rowOf('profiles', seedUsers.owner1.id);
    const result = await w[who].update('profiles', { full_name: 'Hijacked Name' }, { id: seedUsers.owner1.id });
    expect(result.error).toBeNull();
    expect(result.rows).toEqual([]);
    expect(await rowOf('profiles', seedUsers.owner1.id)).toEqual(before);
  });

  it('anon cannot update a profile', async () => {
    expectRefused(await w.anon.update('profiles', { full_name: 'Anon Name' }, { id: seedUsers.owner1.id }));
  });

  it('owner A switches its own auto_renew, and only that', async () => {
    const planId = await firstId('user_plans', seedUsers.owner1.id);
    const result = await w.ownerA.update('user_plans', { auto_renew: false }, { user_id: seedUsers.owner1.id });
    expect(result.error).toBeNull();
    expect(idsOf(result)).toEqual([planId]);
    expect(await rowOf('user_plans', planId)).toMatchObject({ auto_renew: false, price: 29.99, plan_name: 'Growth' });
    const back = await w.ownerA.update('user_plans', { auto_renew: true }, { id: planId });
    expect(idsOf(back)).toEqual([planId]);
    expect(await rowOf('user_plans', planId)).toMatchObject({ auto_renew: true });
  });

  it.each([
    ['price', 0], ['plan_name', 'Enterprise'], ['status', 'active'], ['billing_cycle', 'monthly'],
    ['next_billing_date', '2099-01-01T00:00:00Z'], ['user_id', seedUsers.owner2.id],
  ])('owner A cannot update its own user_plans.%s', async (column, value) => {
    const planId = await firstId('user_plans', seedUsers.owner1.id);
    const before = await rowOf('user_plans', planId);
    expectRefused(await w.ownerA.update('user_plans', { [column]: value }, { id: planId }));
    expect(await rowOf('user_plans', planId)).toEqual(before);
  });

  it.each(['ownerB', 'admin'] as const)('%s changes 0 rows when switching owner A\'s auto_renew', async (who) => {
    const planId = await firstId('user_plans', seedUsers.owner1.id);
    const before = await rowOf('user_plans', planId);
    const result = await w[who].update('user_plans', { auto_renew: false }, { id: planId });
    expect(result.error).toBeNull();
    expect(result.rows).toEqual([]);
    expect(await rowOf('user_plans', planId)).toEqual(before);
  });
});

describe('support tickets', () => {
  it('owner A files an open, medium ticket for itself', async () => {
    const result = await w.ownerA.insert('support_tickets', validRow('support_tickets', seedUsers.owner1.id));
    expect(result.error).toBeNull();
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0]).toMatchObject({ user_id: seedUsers.owner1.id, status: 'open', priority: 'medium',
      subject: 'Matrix ticket' });
    expect(await ids('support_tickets', seedUsers.owner1.id)).toContain(String(result.rows[0]?.id));
  });

  it('owner A may state open/medium explicitly', async () => {
    const result = await w.ownerA.insert('support_tickets',
      { ...validRow('support_tickets', seedUsers.owner1.id), status: 'open', priority: 'medium' });
    expect(result.error).toBeNull();
    expect(result.rows[0]).toMatchObject({ status: 'open', priority: 'medium' });
  });

  it.each([
    ['for owner B', { user_id: seedUsers.owner2.id }, 'row-level security'],
    ['as resolved', { status: 'resolved' }, 'row-level security'],
    ['as high priority', { priority: 'high' }, 'row-level security'],
    ['with a forged created_at', { created_at: '2000-01-01T00:00:00Z' }, 'permission denied'],
    ['with a chosen id', { id: randomUUID() }, 'permission denied'],
  ])('owner A cannot file a ticket %s', async (_label, change, message) => {
    const beforeA = await ids('support_tickets', seedUsers.owner1.id);
    const beforeB = await ids('support_tickets', seedUsers.owner2.id);
    expectRefused(await w.ownerA.insert('support_tickets', { ...validRow('support_tickets', seedUsers.owner1.id), ...change }),
      message);
    expect(await ids('support_tickets', seedUsers.owner1.id)).toEqual(beforeA);
    expect(await ids('support_tickets', seedUsers.owner2.id)).toEqual(beforeB);
  });

  it('anon cannot file a ticket', async () => {
    const before = await ids('support_tickets');
    expectRefused(await w.anon.insert('support_tickets', validRow('support_tickets', seedUsers.owner1.id)));
    expect(await ids('support_tickets')).toEqual(before);
  });

  it('an admin cannot file a ticket in owner A\'s name', async () => {
    const before = await ids('support_tickets', seedUsers.owner1.id);
    expectRefused(await w.admin.insert('support_tickets', validRow('support_tickets', seedUsers.owner1.id)),
      'row-level security');
    expect(await ids('support_tickets', seedUsers.owner1.id)).toEqual(before);
  });
});

describe('the service role writes what owners cannot', () => {
  it.each([...serviceOnly, 'user_plans'] as const)('inserts and deletes %s rows', async (table) => {
    // The admin account has no plan, so a plan row for it does not collide with the one-plan rule.
    const inserted = await w.service.insert(table, validRow(table, seedUsers.admin.id));
    expect(inserted.error).toBeNull();
    const id = String(inserted.rows[0]?.id);
    expect(await ids(table, seedUsers.admin.id)).toContain(id);
    const removed = await w.service.remove(table, { id });
    expect(removed.error).toBeNull();
    expect(idsOf(removed)).toEqual([id]);
    expect(await ids(table, seedUsers.admin.id)).not.toContain(id);
  });
});

describe('is_admin', () => {
  it.each([
    ['admin', seedUsers.admin.id, true],
    ['ownerA', seedUsers.owner1.id, false],
    ['ownerB', seedUsers.owner2.id, false],
  ] as const)('%s asking about itself gets %s', async (who, id, expected) => {
    const { data, error } = await w[who].rpc('is_admin', { _user_id: id });
    expect(error).toBeNull();
    expect(data).toBe(expected);
  });

  it.each([
    ['admin', seedUsers.owner1.id],
    ['ownerA', seedUsers.admin.id],
    ['ownerB', seedUsers.owner1.id],
  ] as const)('%s asking about someone else gets false', async (who, id) => {
    const { data, error } = await w[who].rpc('is_admin', { _user_id: id });
    expect(error).toBeNull();
    expect(data).toBe(false);
  });

  it('anon may not call it', async () => {
    const { data, error } = await w.anon.rpc('is_admin', { _user_id: seedUsers.admin.id });
    expect(error?.code).toBe('42501');
    expect(data).toBeNull();
  });
});

describe('choose_plan', () => {
  it('an owner without a plan starts a 7-day trial of the chosen annual plan, at the server\'s price', async () => {
    const { data, error } = await w.ownerC.rpc('choose_plan', { _plan_name: 'Pro' });
    expect(error).toBeNull();
    expect(data).toMatchObject({ user_id: seedUsers.owner3.id, plan_name: 'Pro', price: 99.99, billing_cycle: 'annual',
      status: 'trialing', auto_renew: true });
    const { rows } = await w.db.query<{ plan_name: string; trial_days: number }>(
      `select plan_name, round(extract(epoch from next_billing_date - started_at) / 86400)::int as trial_days
         from public.user_plans where user_id = $1`, [seedUsers.owner3.id]);
    expect(rows).toEqual([{ plan_name: 'Pro', trial_days: 7 }]);
  });

  it('a paid plan is not switched here: it changes through the payment provider (issue 24); the row stays', async () => {
    await w.db.query(
      `update public.user_plans set status = 'active', next_billing_date = now() + interval '300 days'
        where user_id = $1`, [seedUsers.owner3.id]);
    const { error } = await w.ownerC.rpc('choose_plan', { _plan_name: 'Starter' });
    expect(error?.code).toBe('SW002');
    expect(error?.message).toMatch(/Billing page/);
    const { rows } = await w.db.query<{ plan_name: string; status: string; days_left: number }>(
      `select plan_name, status, round(extract(epoch from next_billing_date - now()) / 86400)::int as days_left
         from public.user_plans where user_id = $1`, [seedUsers.owner3.id]);
    expect(rows).toEqual([{ plan_name: 'Pro', status: 'active', days_left: 300 }]);
  });

  it.each(['Enterprise', 'Platinum', ''])('refuses the unknown or unsold plan %j', async (plan) => {
    const before = await rowOf('user_plans', await firstId('user_plans', seedUsers.owner3.id));
    const { data, error } = await w.ownerC.rpc('choose_plan', { _plan_name: plan });
    expect(error?.code).toBe('P0001');
    expect(error?.message).toBe(`unknown plan: ${plan}`);
    expect(data).toBeNull();
    expect(await rowOf('user_plans', await firstId('user_plans', seedUsers.owner3.id))).toEqual(before);
  });

  it('refuses anon', async () => {
    const before = await ids('user_plans');
    const { error } = await w.anon.rpc('choose_plan', { _plan_name: 'Starter' });
    expect(error?.code).toBe('42501');
    expect(await ids('user_plans')).toEqual(before);
  });
});
