/**
 * The store PCs' version heartbeat over HTTP with supabase-js (docs/adr/0270): a member reports for their own
 * business only, a repeat the same day is one row, nobody reads a row back, the server stamps the time,
 * bad values are a 4xx; admins read the latest report per device through admin_desktop_versions, which needs
 * aal2 once the admin has an authenticator (ADR 0207).
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendStorePcHeartbeat } from '../../shared/lib/store-pc-heartbeat';
import type { StorewiseClient } from '../../shared/lib/supabase-client';
import { nodeClientOptions } from '../helpers/node-supabase-client';
import { startStack, type StackHandle } from '../helpers/stack';
import { anonClient, userClient, users } from './rest-test-clients';

let stack: StackHandle;
let owner1: SupabaseClient;
let admin: SupabaseClient;
let business1: string;
let business2: string;

const report = (businessId: string, deviceId: string, version = '1.4.0') => ({
  business_id: businessId,
  device_id: deviceId,
  app_version: version,
  channel: 'stable',
  platform: 'win32',
  arch: 'x64',
});

/** A raw insert, for what the app's helper would never send. */
const send = (client: SupabaseClient, row: Record<string, unknown>) => client.from('desktop_heartbeats').insert(row);

/** The app's own heartbeat call (shared/lib/store-pc-heartbeat.ts). */
const beat = (client: SupabaseClient, businessId: string, deviceId: string, version = '1.4.0') =>
  sendStorePcHeartbeat(client as unknown as StorewiseClient, businessId, { deviceId, version, channel: 'stable', platform: 'win32', arch: 'x64' });

async function rowsFor(deviceId: string) {
  const { rows } = await stack.db.query<{ business_id: string; app_version: string; reported_at: Date }>(
    'select business_id, app_version, reported_at from public.desktop_heartbeats where device_id = $1 order by reported_at',
    [deviceId],
  );
  return rows;
}

async function tokenWithAal(sub: string, aal: 'aal1' | 'aal2'): Promise<string> {
  return new SignJWT({ role: 'authenticated', aud: 'authenticated', sub, aal, email: `${sub}@test.local` })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(stack.jwtSecret));
}

beforeAll(async () => {
  stack = await startStack();
  owner1 = await userClient(stack, users.owner1);
  admin = await userClient(stack, users.admin);
  const { rows } = await stack.db.query<{ owner_id: string; id: string }>(
    'select owner_id, id from public.businesses where owner_id = any($1::uuid[])',
    [[users.owner1, users.owner2]],
  );
  business1 = rows.find((row) => row.owner_id === users.owner1)?.id as string;
  business2 = rows.find((row) => row.owner_id === users.owner2)?.id as string;
  expect(business1).toBeTruthy();
  expect(business2).toBeTruthy();
});

afterAll(async () => {
  await stack?.stop();
});

describe('a member reports a store PC', () => {
  it('inserts for their own business; a repeat the same day is one row, a new version is a new row', async () => {
    const device = crypto.randomUUID();
    const first = await send(owner1, report(business1, device));
    expect(first.error).toBeNull();
    expect(first.status).toBe(201);
    const again = await send(owner1, report(business1, device));
    expect(again.status).toBe(409);
    expect(again.error?.code).toBe('23505');
    // The app's helper counts that as sent.
    expect(await beat(owner1, business1, device)).toEqual({ ok: true });
    expect(await rowsFor(device)).toHaveLength(1);
    expect(await beat(owner1, business1, device, '1.5.0-beta.1')).toEqual({ ok: true });
    expect((await rowsFor(device)).map((row) => row.app_version)).toEqual(['1.4.0', '1.5.0-beta.1']);
  });

  it('cannot report for another business (RLS), and nothing is written', async () => {
    const device = crypto.randomUUID();
    const { error, status } = await send(owner1, report(business2, device));
    expect(status).toBe(403);
    expect(error?.code).toBe('42501');
    expect(await beat(owner1, business2, device)).toEqual({ ok: false, message: expect.stringMatching(/row-level security/) });
    expect(await rowsFor(device)).toEqual([]);
  });

  it('cannot choose the time it reports for, nor read any report back', async () => {
    const device = crypto.randomUUID();
    const backdated = await send(owner1, { ...report(business1, device), reported_at: '2020-01-01T00:00:00Z' });
    expect(backdated.error?.code).toBe('42501');
    expect(await rowsFor(device)).toEqual([]);

    expect((await send(owner1, report(business1, device))).error).toBeNull();
    expect(await rowsFor(device)).toHaveLength(1);
    const read = await owner1.from('desktop_heartbeats').select('device_id').eq('device_id', device);
    expect(read.error?.code).toBe('42501');
    expect(read.data).toBeNull();
    // Nor through the insert's answer.
    const echoed = await owner1.from('desktop_heartbeats').insert(report(business1, crypto.randomUUID())).select('device_id');
    expect(echoed.error?.code).toBe('42501');
  });

  it('refuses values outside the rules with a 400, never a 5xx', async () => {
    for (const bad of [{ channel: 'nightly' }, { app_version: '1.4.0; drop table x' }, { platform: 'freebsd' }]) {
      const { error, status } = await send(owner1, { ...report(business1, crypto.randomUUID()), ...bad });
      expect(status).toBe(400);
      expect(error?.code).toBe('23514');
    }
  });

  it('the anonymous key writes nothing', async () => {
    const device = crypto.randomUUID();
    const { error } = await send(anonClient(stack), report(business1, device));
    expect(error?.code).toBe('42501');
    expect(await rowsFor(device)).toEqual([]);
  });
});

describe('admin_desktop_versions', () => {
  it('gives admins the latest report of each device, with the business name and the devices per version', async () => {
    const a = crypto.randomUUID();
    const b = crypto.randomUUID();
    await stack.db.query(
      `insert into public.desktop_heartbeats (business_id, device_id, app_version, channel, platform, arch, reported_on, reported_at)
       values ($1, $2, '1.3.0', 'stable', 'win32', 'x64', (now() - interval '2 days')::date, now() - interval '2 days'),
              ($1, $2, '1.6.0', 'beta', 'win32', 'x64', current_date, now()),
              ($3, $4, '1.6.0', 'stable', 'darwin', 'arm64', current_date, now() - interval '1 minute')`,
      [business1, a, business2, b],
    );
    const { data, error } = await admin.rpc('admin_desktop_versions', { _days: 30, _limit: 200 });
    expect(error).toBeNull();
    const mine = (data ?? []).filter((row: { device_id: string }) => row.device_id === a || row.device_id === b);
    expect(mine.map((row: { device_id: string; app_version: string; channel: string }) => [row.device_id, row.app_version, row.channel]))
      .toEqual([[a, '1.6.0', 'beta'], [b, '1.6.0', 'stable']]);
    const onSix = (data ?? []).filter((row: { app_version: string }) => row.app_version === '1.6.0');
    expect(onSix.every((row: { devices_on_version: number }) => row.devices_on_version === onSix.length)).toBe(true);
    const { rows } = await stack.db.query<{ name: string }>('select name from public.businesses where id = $1', [business1]);
    expect(mine[0].business_name).toBe(rows[0]?.name);
  });

  it('refuses members (42501)', async () => {
    const { data, error } = await owner1.rpc('admin_desktop_versions', {});
    expect(error?.code).toBe('42501');
    expect(data).toBeNull();
  });

  it('needs aal2 once the admin has an authenticator', async () => {
    await stack.db.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at)
       values (gen_random_uuid(), $1, 'Phone', 'totp', 'verified', now(), now())`,
      [users.admin],
    );
    const as = async (aal: 'aal1' | 'aal2') => createClient(stack.apiUrl, stack.anonKey, {
      ...nodeClientOptions, global: { headers: { Authorization: `Bearer ${await tokenWithAal(users.admin, aal)}` } },
    });
    const stale = await (await as('aal1')).rpc('admin_desktop_versions', {});
    expect(stale.error?.code).toBe('42501');
    const verified = await (await as('aal2')).rpc('admin_desktop_versions', {});
    expect(verified.error).toBeNull();
    expect(Array.isArray(verified.data)).toBe(true);
  });
});
