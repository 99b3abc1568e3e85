import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type OpenedDb } from '../../supabase/local/db/open-db';
import { lintRules } from './support/lint-rules';

let db: OpenedDb;

beforeAll(async () => {
  db = await openDb({ memory: true, seed: false });
});

afterAll(async () => {
  await db?.close();
});

class Rollback extends Error {}

describe('schema lint (splinter rules over the migrated schema)', () => {
  for (const rule of lintRules) {
    describe(rule.name, () => {
      it(`passes: ${rule.description}`, async () => {
        const { rows } = await db.query<{ object: string }>(rule.sql);
        expect(rows.map((row) => row.object), `${rule.name}: ${rule.description}; offenders`).toEqual([]);
      });

      it('reports a schema that breaks it', async () => {
        let found: string[] = [];
        await db
          .transaction(async (tx) => {
            for (const statement of rule.fixture.statements) await tx.query(statement);
            found = (await tx.query<{ object: string }>(rule.sql)).rows.map((row) => row.object);
            throw new Rollback();
          })
          .catch((error: unknown) => {
            if (!(error instanceof Rollback)) throw error;
          });
        expect(found).toContain(rule.fixture.offender);
      });
    });
  }

  it('covers the tables the screens read', async () => {
    const { rows } = await db.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' and c.relrowsecurity order by 1`,
    );
    expect(rows.map((row) => row.name)).toEqual(
      expect.arrayContaining(['active_sessions', 'billing_history', 'login_activity', 'payment_methods', 'profiles',
        'support_tickets', 'user_plans']),
    );
  });
});
