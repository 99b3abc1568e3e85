import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { deriveApiKeys } from './api-keys';
import { loadJwtSecret } from './jwt-secret';
import { verifyJwt } from './verify-jwt';

const dir = mkdtempSync(join(tmpdir(), 'storewise-secret-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the JWT secret and the API keys', () => {
  it('is generated once per data folder, readable only by its owner, and stable across loads', () => {
    const first = loadJwtSecret(dir, {});
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(statSync(join(dir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    expect(loadJwtSecret(dir, {})).toBe(first);
    expect(loadJwtSecret(dir, { STOREWISE_JWT_SECRET: 'e'.repeat(40) })).toBe('e'.repeat(40));
    expect(() => loadJwtSecret(dir, { STOREWISE_JWT_SECRET: 'short' })).toThrow(/at least 32/);
    expect(loadJwtSecret(undefined, {})).not.toBe(loadJwtSecret(undefined, {}));
  });

  it('derives the same anon and service_role keys from the same secret, verifiable only with it', async () => {
    const keys = await deriveApiKeys('s'.repeat(40));
    expect(await deriveApiKeys('s'.repeat(40))).toEqual(keys);
    expect(decodeJwt(keys.anonKey)).toMatchObject({ role: 'anon', iss: 'supabase-demo' });
    expect(decodeJwt(keys.serviceRoleKey)).toMatchObject({ role: 'service_role' });
    expect(await verifyJwt(keys.anonKey, 's'.repeat(40))).toMatchObject({ ok: true, role: 'anon' });
    expect(await verifyJwt(keys.anonKey, 't'.repeat(40))).toMatchObject({ ok: false, reason: 'invalid' });
  });
});
