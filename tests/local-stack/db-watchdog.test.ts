/**
 * Issue 10, finding 1: no data-API request can stall the stack. A regular expression PGlite cannot
 * compile answers 400 (2201B) as PostgreSQL does; a statement past its role's timeout answers 57014 as
 * PostgREST does, while the auth API keeps answering; the database is then reopened with everything
 * committed before, and the stack answers normally.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type RunningStack } from '../../supabase/local/server';
import type { StackHandle } from '../helpers/stack';
import { userToken, users } from './rest-test-clients';

let stack: RunningStack;
let ownerToken: string;

beforeAll(async () => {
  // Shorter deadlines than hosted's 3 s / 8 s only to keep the test quick; the mechanism is the same.
  stack = await startLocalStack({ memory: true, apiPort: 0, inboxPort: 0, statementTimeouts: { anon: 1_500, authenticated: 2_000 } });
  ownerToken = await userToken(stack as unknown as StackHandle, users.owner1);
  // A function that runs far longer than any deadline, callable by signed-in users.
  await stack.db.exec(`
    create function public.watchdog_spin() returns bigint language sql volatile
      as $$ select count(*) from generate_series(1, 20000000000) $$;
    grant execute on function public.watchdog_spin() to authenticated;`);
  // Each file builds its own database; on a busy 2-core machine that can pass the default 120 s.
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

function asOwner(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${stack.apiUrl}/rest/v1/${path}`, {
    ...init,
    headers: { apikey: stack.anonKey, authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
}

async function errorOf(response: Response): Promise<{ status: number; code: unknown }> {
  const body = (await response.json()) as { code?: unknown };
  return { status: response.status, code: body.code };
}

describe('regular expressions', () => {
  it('answers a pattern too complex to compile with 400 2201B (or the timeout), then plain reads', async () => {
    // PostgreSQL refuses these patterns at once (2201B). PGlite compiles for a while first: on a busy
    // machine the deadline can come first, which answers 57014. Either way the request ends.
    const refused = [{ status: 400, code: '2201B' }, { status: 500, code: '57014' }];
    expect(refused).toContainEqual(await errorOf(await asOwner('profiles?select=id&full_name=match.(a{1,200}){1,200}b')));
    expect(refused).toContainEqual(await errorOf(await asOwner('profiles?select=id&full_name=match.a{1000}{1000}')));
    expect(refused).toContainEqual(await errorOf(await asOwner('profiles?select=id&or=(full_name.imatch.(a{1,200}){1,200}b)')));

    const read = await asOwner(`profiles?select=id&id=eq.${users.owner1}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual([{ id: users.owner1 }]);
  });
});

describe('statement timeout', () => {
  it('fails the stuck request with 57014 while auth answers, then recovers with committed data intact', async () => {
    const subject = `Before the stuck request ${Date.now()}`;
    const insert = await asOwner('support_tickets', {
      method: 'POST',
      headers: { prefer: 'return=minimal' },
      body: JSON.stringify({ user_id: users.owner1, subject, message: 'Committed before the watchdog fired' }),
    });
    expect(insert.status).toBe(201);

    let stuckSettled = false;
    const stuck = asOwner('rpc/watchdog_spin', { method: 'POST', body: '{}' }).then(async (response) => {
      stuckSettled = true;
      return errorOf(response);
    });

    // The HTTP thread is free while the database works: auth answers before the stuck request ends.
    const health = await fetch(`${stack.apiUrl}/auth/v1/health`, { headers: { apikey: stack.anonKey } });
    expect(health.status).toBe(200);
    expect(stuckSettled).toBe(false);

    expect(await stuck).toEqual({ status: 500, code: '57014' });

    // The database was reopened: reads answer, and what was committed before is still there.
    const after = await asOwner(`support_tickets?select=subject&subject=eq.${encodeURIComponent(subject)}`);
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual([{ subject }]);
    const inbox = await fetch(`${stack.inboxUrl}/api/v1/messages`);
    expect(inbox.status).toBe(200);
  });
});
