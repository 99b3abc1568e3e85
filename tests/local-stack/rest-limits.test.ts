/**
 * Issue 10, finding 11 (data API parts): reads are capped at max_rows (1000, supabase/config.toml) like
 * PostgREST's db-max-rows, and POST to a STABLE function runs read-only as in PostgREST, so a write
 * inside it fails with 25006 (405) and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type StackHandle } from '../helpers/stack';
import { rawRest, userToken, users } from './rest-test-clients';

let stack: StackHandle;
let ownerToken: string;

beforeAll(async () => {
  stack = await startStack();
  ownerToken = await userToken(stack, users.owner1);
  await stack.db.exec(`
    insert into public.support_tickets (user_id, subject, message)
      select '${users.owner1}', 'Bulk ticket ' || g, 'Bulk message' from generate_series(1, 1005) g;
    create table public.limits_log (id bigint generated always as identity primary key, note text not null);
    alter table public.limits_log enable row level security;
    -- The writer runs as its owner; only the functions below are reachable from the API.
    create function public.limits_write(note text) returns bigint language sql volatile security definer set search_path = ''
      as $$ insert into public.limits_log (note) values (note) returning id $$;
    create function public.limits_stable_write(note text) returns bigint language sql stable
      as $$ select public.limits_write(note) $$;
    create function public.limits_volatile_write(note text) returns bigint language sql volatile
      as $$ select public.limits_write(note) $$;
    revoke execute on function public.limits_write(text) from public;
    grant execute on function public.limits_write(text) to authenticated;
    grant execute on function public.limits_stable_write(text), public.limits_volatile_write(text) to authenticated;`);
  // Each file builds its own database; on a busy 2-core machine that can pass the default 120 s.
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

function asOwner(path: string, init: RequestInit = {}): Promise<Response> {
  return rawRest(stack, path, { ...init, headers: { ...(init.headers ?? {}), Authorization: `Bearer ${ownerToken}`, apikey: stack.anonKey } });
}

describe('max_rows', () => {
  it('returns at most 1000 rows, whatever the limit, and pages the rest', async () => {
    const total = (await stack.db.query<{ n: number }>(`select count(*)::int as n from public.support_tickets where user_id = $1`, [users.owner1])).rows[0]?.n ?? 0;
    expect(total).toBeGreaterThan(1000);

    const all = await asOwner('support_tickets?select=id', { headers: { prefer: 'count=exact' } });
    expect(all.status).toBe(206);
    expect(((await all.json()) as unknown[]).length).toBe(1000);
    expect(all.headers.get('content-range')).toBe(`0-999/${total}`);

    const asked = await asOwner('support_tickets?select=id&limit=5000');
    expect(((await asked.json()) as unknown[]).length).toBe(1000);

    const ranged = await asOwner('support_tickets?select=id', { headers: { range: '0-4999' } });
    expect(((await ranged.json()) as unknown[]).length).toBe(1000);

    const rest = await asOwner('support_tickets?select=id&offset=1000');
    expect(((await rest.json()) as unknown[]).length).toBe(total - 1000);
  });
});

describe('rpc volatility', () => {
  it('POST to a STABLE function runs read-only: a write inside fails with 25006 and nothing is written', async () => {
    const response = await asOwner('rpc/limits_stable_write', { method: 'POST', body: JSON.stringify({ note: 'from stable' }) });
    expect(response.status).toBe(405);
    expect(((await response.json()) as { code: string }).code).toBe('25006');
    const written = await stack.db.query(`select 1 from public.limits_log where note = 'from stable'`);
    expect(written.rows).toEqual([]);
  });

  it('POST to a VOLATILE function still writes', async () => {
    const response = await asOwner('rpc/limits_volatile_write', { method: 'POST', body: JSON.stringify({ note: 'from volatile' }) });
    expect(response.status).toBe(200);
    const written = await stack.db.query(`select 1 from public.limits_log where note = 'from volatile'`);
    expect(written.rows).toHaveLength(1);
  });
});
