import type * as Crypto from 'node:crypto';
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';

// Spy on the constant-time compare: `!==` returns at the first differing byte, a timing signal.
const compare = vi.hoisted(() => ({ calls: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof Crypto>();
  return {
    ...actual,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      compare.calls += 1;
      return actual.timingSafeEqual(a, b);
    },
  };
});

const { apiKeyProblem } = await import('./api-key');
const keys = { anonKey: 'anon-key-value', serviceRoleKey: 'service-role-key-value' };

function app() {
  const hono = new Hono();
  hono.get('/', (c) => apiKeyProblem(c, keys) ?? c.text('ok'));
  return hono;
}

describe('the apikey check', () => {
  it('accepts both project keys and compares in constant time, both keys every time', async () => {
    for (const key of [keys.anonKey, keys.serviceRoleKey, 'anon-key-valuX', 'x', 'anon-key-value-and-more']) {
      compare.calls = 0;
      const response = await app().request('/', { headers: { apikey: key } });
      expect(response.status, key).toBe(key === keys.anonKey || key === keys.serviceRoleKey ? 200 : 401);
      expect(compare.calls, key).toBe(2);
    }
  });

  it('answers 401 without a key', async () => {
    expect((await app().request('/')).status).toBe(401);
  });
});
