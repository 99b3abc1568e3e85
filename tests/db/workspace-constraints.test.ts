/**
 * The workspace's value rules live in domains (supabase/migrations/20261122100000_workspace.sql): each one
 * rejects its bad values with 23514 and accepts its boundary values. A new domain without cases fails here.
 * Also: a store's time zone must be real, and the sign-up trigger gives each new owner a business.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type OpenedDb } from '../../supabase/local/db/open-db';

let db: OpenedDb;

const cases: Record<string, { bad: (string | number)[]; good: (string | number)[] }> = {
  business_type: { bad: ['Bakery', 'grocery', ''], good: ['Grocery', 'Clothing', 'Medical', 'Electronics', 'Others'] },
  member_role: { bad: ['admin', 'Owner', ''], good: ['owner', 'manager', 'cashier'] },
  entity_name: { bad: ['A', '   ', 'x'.repeat(101)], good: ['Ab', 'x'.repeat(100)] },
  email_address: { bad: ['no-at', 'a@b', 'a b@c.io', `${'x'.repeat(247)}@shop.example`], good: ['a@b.co'] },
  phone_number: { bad: ['123456789', '1'.repeat(21)], good: ['5550100100', '1'.repeat(20)] },
  short_text: { bad: ['x'.repeat(501)], good: ['', 'x'.repeat(500)] },
  currency_code: { bad: ['usd', 'US', 'XYZ', 'EURO'], good: ['USD', 'EUR', 'JPY', 'GBP'] },
  tax_rate: { bad: [-0.001, 100.001, 250], good: [0, 8.875, 100] },
  receipt_prefix: { bad: ['', 'ab', 'A-1', 'ABCDEFGHI'], good: ['A', 'DT1', 'ABCDEFGH'] },
};

beforeAll(async () => {
  db = await openDb({ memory: true, seed: false });
});

afterAll(async () => {
  await db?.close();
});

describe('workspace domains', () => {
  it('every domain in public has cases', async () => {
    const { rows } = await db.query<{ name: string }>(
      `select t.typname as name from pg_type t join pg_namespace n on n.oid = t.typnamespace
        where n.nspname = 'public' and t.typtype = 'd' order by 1`);
    expect(rows.map((row) => row.name)).toEqual(Object.keys(cases).sort());
  });

  for (const [domain, { bad, good }] of Object.entries(cases)) {
    it.each(bad)(`${domain} rejects %j`, async (value) => {
      await expect(db.query(`select $1::public.${domain}`, [value])).rejects.toMatchObject({ code: '23514' });
    });
    it.each(good)(`${domain} accepts %j`, async (value) => {
      const { rows } = await db.query<{ v: string }>(`select $1::public.${domain}::text as v`, [value]);
      expect(rows).toHaveLength(1);
    });
  }
});

describe('sign-up gives an owner a business', () => {
  async function signUp(meta: unknown): Promise<string> {
    const id = randomUUID();
    await db.query(
      `insert into auth.users (instance_id, id, aud, role, email, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, $3::jsonb, now(), now())`,
      [id, `${id}@workspace.storewise.test`, JSON.stringify(meta)]);
    return id;
  }

  it('from the sign-up form\'s business fields, with the user as its one owner', async () => {
    const id = await signUp({ full_name: 'Dana Deli', business_name: ' Dana\'s Deli ', business_type: 'Grocery',
      business_email: 'dana@deli.example', phone: '+1 555 010 0199' });
    const { rows } = await db.query(
      `select b.name, b.type, b.email, b.phone, m.role from public.businesses b
         join public.business_members m on m.business_id = b.id where b.owner_id = $1`, [id]);
    expect(rows).toEqual([{ name: 'Dana\'s Deli', type: 'Grocery', email: 'dana@deli.example', phone: '+1 555 010 0199',
      role: 'owner' }]);
  });

  it('named after the person when the form gave no business (Google sign-in)', async () => {
    const id = await signUp({ name: 'Gale Google' });
    const { rows } = await db.query('select name, type from public.businesses where owner_id = $1', [id]);
    expect(rows).toEqual([{ name: 'Gale Google\'s business', type: 'Others' }]);
  });

  it('none for someone who signs up to accept an invitation', async () => {
    const id = await signUp({ full_name: 'Ivy Invited', invited: true });
    const { rows } = await db.query('select 1 from public.businesses where owner_id = $1', [id]);
    expect(rows).toEqual([]);
  });

  it('a second owner row in one business is refused', async () => {
    const id = await signUp({ full_name: 'Olly Owner', business_name: 'Olly Shop' });
    const other = await signUp({ full_name: 'Second Owner', invited: true });
    await expect(db.query(
      `insert into public.business_members (business_id, user_id, role)
       select id, $2, 'owner' from public.businesses where owner_id = $1`, [id, other]))
      .rejects.toThrow(/business_members_one_owner_idx/);
  });

  it('a store\'s time zone must exist', async () => {
    const id = await signUp({ full_name: 'Tz Owner', business_name: 'Tz Shop' });
    await expect(db.query(
      `insert into public.stores (business_id, name, time_zone)
       select id, 'Main', 'Mars/Olympus' from public.businesses where owner_id = $1`, [id]))
      .rejects.toMatchObject({ code: '22023' });
    const { rows } = await db.query<{ time_zone: string }>(
      `insert into public.stores (business_id, name, time_zone)
       select id, 'Main', 'Europe/Paris' from public.businesses where owner_id = $1 returning time_zone`, [id]);
    expect(rows).toEqual([{ time_zone: 'Europe/Paris' }]);
  });
});
