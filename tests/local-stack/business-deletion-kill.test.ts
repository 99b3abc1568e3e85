/**
 * A business deletion killed halfway (kill -9 of the process holding the database and running the erasure) resumes
 * where it stopped and never leaves a half-erased customer: each customer is either untouched (name, email, phone
 * and trail entries as they were) or fully erased (anonymous, no contact details, trail entries redacted), and the
 * second run finishes with every customer erased once, the fiscal records whole and the proof log adding up.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../supabase/local/db/open-db';
import type { Db } from '../../supabase/local/db/types';
import { seedUsers } from '../db/support/seed-ids';

const root = mkdtempSync(join(tmpdir(), 'storewise-deletion-kill-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const eraser = fileURLToPath(new URL('./deletion-eraser.ts', import.meta.url));
const EXTRA = 30;

interface CustomerRow { id: string; name: string; email: string | null; phone: string | null; erased_at: string | null; trail_named: number }

async function customers(db: Db, business: string): Promise<CustomerRow[]> {
  return (await db.query<CustomerRow>(
    `select c.id, c.name, c.email, c.phone, c.erased_at,
            (select count(*)::int from public.activity a
              where a.entity_type = 'customer' and a.entity_id = c.id and (a.before ? 'name' or a.after ? 'name')) as trail_named
       from public.customers c where c.business_id = $1 order by c.id`, [business])).rows;
}

function expectWhole(rows: CustomerRow[]) {
  for (const row of rows) {
    if (row.erased_at === null) {
      expect(row.name).not.toBe('Anonymous customer');
      expect(row.trail_named).toBeGreaterThan(0);
    } else {
      expect(row).toMatchObject({ name: 'Anonymous customer', email: null, phone: null, trail_named: 0 });
    }
  }
}

describe('a business deletion killed halfway', () => {
  it('resumes and never leaves a half-erased customer', async () => {
    const dataDir = join(root, 'data');
    let db = await openDb({ dataDir });
    const business = (await db.query<{ id: string }>('select id from public.businesses where owner_id = $1', [seedUsers.owner2.id])).rows[0]?.id ?? '';
    expect(business).not.toBe('');
    await db.query(
      `insert into public.customers (business_id, name, email, phone)
       select $1, 'Customer ' || n, 'customer' || n || '@example.com', '+1555000' || lpad(n::text, 4, '0')
         from generate_series(1, $2::int) n`, [business, EXTRA]);
    const total = (await customers(db, business)).length;
    expect(total).toBeGreaterThanOrEqual(EXTRA);
    const sales = (await db.query<{ n: number }>('select count(*)::int as n from public.sales where business_id = $1', [business])).rows[0]?.n;
    // A deletion asked 31 days ago, due now; no live subscription at the provider.
    await db.query(
      `insert into private.business_deletions (business_id, business_name, requested_by, requested_at, erase_after)
       select b.id, b.name, b.owner_id, now() - interval '31 days', now() - interval '1 day' from public.businesses b where b.id = $1`, [business]);
    await db.query(`select public.business_deletion_record($1, 'subscription canceled at the provider', 0)`, [business]);
    await db.close();

    const child = spawn(process.execPath, ['--import', 'tsx', eraser, dataDir, business], { stdio: ['ignore', 'pipe', 'inherit'] });
    let erasedBatches = 0;
    await new Promise<void>((resolve, reject) => {
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          if (line === 'step customers') erasedBatches += 1;
          // Without warning, in the middle of the customers (one per transaction).
          if (erasedBatches === 10) child.kill('SIGKILL');
        }
      });
      child.on('exit', () => resolve());
      child.on('error', reject);
    });
    expect(child.signalCode).toBe('SIGKILL');

    db = await openDb({ dataDir, seed: false });
    try {
      const halfway = await customers(db, business);
      const erased = halfway.filter((row) => row.erased_at !== null).length;
      expect(erased).toBeGreaterThanOrEqual(10);
      expect(erased).toBeLessThan(total);
      expectWhole(halfway);
      const state = (await db.query<{ state: string; step: string }>('select state, step from private.business_deletions where business_id = $1', [business])).rows[0];
      expect(state).toEqual({ state: 'erasing', step: 'customers' });

      // The next run finishes it.
      for (let guard = 0; guard < 1000; guard += 1) {
        const step = (await db.query<{ step: string }>('select public.business_erasure_step($1, 7) as step', [business])).rows[0]?.step;
        if (step === 'contact') break;
      }
      const after = await customers(db, business);
      expect(after).toHaveLength(total);
      expectWhole(after);
      expect(after.every((row) => row.erased_at !== null)).toBe(true);
      const done = (await db.query<{ state: string; years: number; suspended: boolean; email: string | null }>(
        `select d.state, extract(year from age(d.retain_until, d.erased_at))::int as years, b.suspended_at is not null as suspended, b.email
           from private.business_deletions d join public.businesses b on b.id = d.business_id where d.business_id = $1`, [business])).rows[0];
      expect(done).toEqual({ state: 'retained', years: 10, suspended: true, email: null });
      // The fiscal records stay whole; the proof log counts every customer once; staff are gone but the owner.
      expect((await db.query<{ n: number }>('select count(*)::int as n from public.sales where business_id = $1', [business])).rows[0]?.n).toBe(sales);
      const proved = (await db.query<{ n: number }>(
        `select coalesce(sum(rows_affected), 0)::int as n from private.business_erasure_proofs where business_id = $1 and what = 'customers erased'`, [business])).rows[0]?.n;
      expect(proved).toBe(total);
      const members = (await db.query<{ role: string }>('select role::text from public.business_members where business_id = $1', [business])).rows;
      expect(members).toEqual([{ role: 'owner' }]);
      const named = (await db.query<{ n: number }>(
        'select count(*)::int as n from public.activity where business_id = $1 and (actor_label is not null or actor_email is not null)', [business])).rows[0]?.n;
      expect(named).toBe(0);
      // Calling again changes nothing.
      expect((await db.query<{ step: string }>('select public.business_erasure_step($1, 7) as step', [business])).rows[0]?.step).toBe('done');

      // The retention period ends: the scheduled purge deletes the business and its fiscal records.
      await db.query(`update private.business_deletions set retain_until = now() - interval '1 minute' where business_id = $1`, [business]);
      expect((await db.query<{ n: number }>('select private.purge_expired_retention() as n')).rows[0]?.n).toBe(1);
      expect((await db.query<{ n: number }>('select count(*)::int as n from public.sales where business_id = $1', [business])).rows[0]?.n).toBe(0);
      expect((await db.query<{ n: number }>('select count(*)::int as n from public.businesses where id = $1', [business])).rows[0]?.n).toBe(0);
      const last = (await db.query<{ what: string; rows_affected: number }>(
        'select what, rows_affected from private.business_erasure_proofs where business_id = $1 order by id desc limit 1', [business])).rows[0];
      expect(last).toEqual({ what: 'retention ended: business and fiscal records (sales counted) purged', rows_affected: sales });
    } finally {
      await db.close();
    }
  }, 400_000);
});
