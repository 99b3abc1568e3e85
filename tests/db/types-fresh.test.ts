import type { createClient } from '@supabase/supabase-js';
import { describe, expectTypeOf, it } from 'vitest';
import type { Database, Tables, TablesInsert, TablesUpdate } from '../../shared/lib/database.types';

// Freshness (the file is exactly what `supabase gen types typescript` makes of the migrations) is checked
// by tests/hosted, which has the CLI and a hosted-shaped server at hand (docs/adr/0084).
describe('shared/lib/database.types.ts', () => {
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
  });
});
