import { readFileSync } from 'node:fs';
import type { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { openDb, type OpenedDb } from '../../supabase/local/db/open-db';
import { databaseTypesFile, generateDatabaseTypes } from '../../scripts/gen-types';
import type { Database, Tables, TablesInsert, TablesUpdate } from '../../shared/lib/database.types';

let db: OpenedDb;

beforeAll(async () => {
  db = await openDb({ memory: true, seed: false });
});

afterAll(async () => {
  await db?.close();
});

describe('shared/lib/database.types.ts', () => {
  it('matches a fresh generation from the migrations', async () => {
    const fresh = await generateDatabaseTypes(db);
    const checkedIn = readFileSync(databaseTypesFile, 'utf8');
    if (checkedIn !== fresh) {
      expect.fail('shared/lib/database.types.ts is stale: run npm run types:gen');
    }
    // Every table of the schema is typed (a generator that emitted nothing would also be "fresh").
    for (const table of ['profiles', 'user_plans', 'billing_history', 'payment_methods', 'login_activity',
      'active_sessions', 'support_tickets']) {
      expect(fresh).toContain(`      ${table}: {\n        Row: {`);
    }
  });

  it('is deterministic', async () => {
    expect(await generateDatabaseTypes(db)).toBe(await generateDatabaseTypes(db));
  });

  it('types supabase-js queries (checked by tsc; the queries are never sent)', () => {
    // The client type createClient<Database>() returns, without opening a client (no network in this test).
    type Client = ReturnType<typeof createClient<Database>>;
    const _profiles = (client: Client) => client.from('profiles').select('*');
    type ProfileRows = NonNullable<Awaited<ReturnType<typeof _profiles>>['data']>;
    expectTypeOf<ProfileRows[number]>().toEqualTypeOf<Tables<'profiles'>>();
    expectTypeOf<ProfileRows[number]['full_name']>().toEqualTypeOf<string | null>();

    const _plan = (client: Client) => client.from('user_plans').select('plan_name, price, auto_renew').single();
    type PlanRow = NonNullable<Awaited<ReturnType<typeof _plan>>['data']>;
    expectTypeOf<PlanRow>().toEqualTypeOf<{ plan_name: string; price: number; auto_renew: boolean }>();

    const _isAdmin = (client: Client) => client.rpc('is_admin', { _user_id: 'x' });
    expectTypeOf<Awaited<ReturnType<typeof _isAdmin>>['data']>().toEqualTypeOf<boolean | null>();

    // Owners may only update what the column grants allow; the types still describe the whole row.
    expectTypeOf<TablesUpdate<'user_plans'>['auto_renew']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<TablesInsert<'support_tickets'>['subject']>().toEqualTypeOf<string>();
    // The marker createClient<Database>() reads to pick the PostgREST dialect of the generics above.
    expect(readFileSync(databaseTypesFile, 'utf8')).toContain('PostgrestVersion: "12"');
  });
});
