import { describe, expect, it } from 'vitest';
import { createChunkedStore } from './chunked-store';
import { createMemoryStore, type CredentialStore } from './credential-store';

/**
 * A memory store that, like Windows Credential Manager, refuses secrets over a size; it records every
 * call, and can "crash" (throw) on the n-th set or delete to simulate the app dying mid-write.
 */
function limitedStore(limit: number) {
  const inner = createMemoryStore();
  const accounts = new Set<string>();
  const calls: string[] = [];
  let crashAt = Infinity;
  let writes = 0;
  const write = () => {
    writes += 1;
    if (writes === crashAt) throw new Error('crashed');
  };
  const store: CredentialStore = {
    persistent: true,
    get: async (account) => {
      calls.push(`get ${account}`);
      return inner.get(account);
    },
    set: async (account, secret) => {
      if (secret.length > limit) throw new Error('The stub received bad data.');
      write();
      calls.push(`set ${account}`);
      accounts.add(account);
      await inner.set(account, secret);
    },
    delete: async (account) => {
      write();
      calls.push(`delete ${account}`);
      accounts.delete(account);
      return inner.delete(account);
    },
  };
  return {
    store,
    accounts,
    calls,
    /** The next run of writes throws on its n-th (1-based) set/delete. */
    crashOnWrite(n: number) {
      writes = 0;
      crashAt = n;
    },
    noCrash() {
      crashAt = Infinity;
    },
  };
}

/** Deterministic generation tags, so two writes never share one. */
function generations() {
  let next = 0;
  return () => (next += 1).toString(16).padStart(8, '0');
}

const chunked = (store: CredentialStore) => createChunkedStore(store, 100, generations());

describe('chunked credential store', () => {
  it('stores short secrets as they are', async () => {
    const { store, accounts } = limitedStore(100);
    await chunked(store).set('p', 'short');
    expect(await store.get('p')).toBe('short');
    expect([...accounts]).toEqual(['p']);
  });

  it('splits long secrets under the limit and reads them back whole', async () => {
    const { store, accounts } = limitedStore(100);
    const secret = 'x'.repeat(250) + 'end';
    await chunked(store).set('p', secret);
    expect([...accounts].sort()).toEqual(['p', 'p#1', 'p#2']);
    expect(await createChunkedStore(store, 100).get('p')).toBe(secret);
  });

  it('removes parts a shorter secret no longer needs, and all parts on delete', async () => {
    const { store, accounts } = limitedStore(100);
    const chunks = chunked(store);
    await chunks.set('p', 'y'.repeat(350));
    await chunks.set('p', 'z'.repeat(150));
    expect([...accounts].sort()).toEqual(['p', 'p#1']);
    expect(await chunks.get('p')).toBe('z'.repeat(150));
    await chunks.set('p', 'short again');
    expect([...accounts]).toEqual(['p']);
    await chunks.set('p', 'w'.repeat(250));
    expect(await chunks.delete('p')).toBe(true);
    expect(accounts.size).toBe(0);
    expect(await chunks.get('p')).toBeNull();
  });

  it.each(['swc2:3:00000001:looks-like-a-header', 'swc2:1:abcdef01:'])('does not mistake the short secret %s for a chunked one', async (secret) => {
    const { store } = limitedStore(100);
    await chunked(store).set('p', secret);
    expect(await chunked(store).get('p')).toBe(secret);
  });

  it('reads a torn write (missing part) as no secret', async () => {
    const { store } = limitedStore(100);
    await chunked(store).set('p', 'w'.repeat(250));
    await store.delete('p#2');
    expect(await chunked(store).get('p')).toBeNull();
  });

  it('reads a part written by another write (other generation) as no secret', async () => {
    const { store } = limitedStore(100);
    await chunked(store).set('p', 'w'.repeat(250));
    await store.set('p#1', `ffffffff:${'v'.repeat(91)}`);
    expect(await chunked(store).get('p')).toBeNull();
  });
});

describe('chunked credential store: write order', () => {
  it('writes every part before the head, and removes stale parts only after the head, highest first', async () => {
    const { store, calls } = limitedStore(100);
    const chunks = chunked(store);
    await chunks.set('p', 'a'.repeat(350));
    expect(calls.splice(0)).toEqual(['set p#1', 'set p#2', 'set p#3', 'set p', 'get p#4']);
    await chunks.set('p', 'b'.repeat(150));
    expect(calls.splice(0)).toEqual(['set p#1', 'set p', 'get p#2', 'get p#3', 'get p#4', 'delete p#3', 'delete p#2']);
    await chunks.set('p', 'short');
    expect(calls.splice(0)).toEqual(['set p', 'get p#1', 'get p#2', 'delete p#1']);
  });

  it('deletes the parts before the head, highest first', async () => {
    const { store, calls } = limitedStore(100);
    const chunks = chunked(store);
    await chunks.set('p', 'a'.repeat(250));
    calls.splice(0);
    expect(await chunks.delete('p')).toBe(true);
    expect(calls).toEqual(['get p#1', 'get p#2', 'get p#3', 'delete p#2', 'delete p#1', 'delete p']);
  });
});

/**
 * The app can die between any two keychain calls. Whatever call a write stops at, a restarted app reads
 * the old secret, the new one, or nothing (signed out): never a splice of two sessions. The next complete
 * write leaves exactly its own entries behind.
 */
describe('chunked credential store: interrupted writes', () => {
  const sizes = { short: 40, twoParts: 150, threeParts: 250, fiveParts: 420 };
  const secret = (tag: string, length: number) => `${tag}:`.padEnd(length, tag);
  const pairs = Object.entries(sizes).flatMap(([from, a]) => Object.entries(sizes).map(([to, b]) => [from, to, a, b] as const));

  it.each(pairs)('set %s -> %s: old, new or nothing after a crash at any call', async (_from, _to, fromLength, toLength) => {
    const before = secret('A', fromLength);
    const after = secret('B', toLength);
    const next = generations();
    for (let crash = 1; ; crash += 1) {
      const harness = limitedStore(100);
      const chunks = createChunkedStore(harness.store, 100, next);
      await chunks.set('p', before);
      harness.crashOnWrite(crash);
      const finished = await chunks.set('p', after).then(
        () => true,
        () => false,
      );
      harness.noCrash();
      const read = await createChunkedStore(harness.store, 100).get('p');
      expect([before, after, null]).toContain(read);
      if (finished) expect(read).toBe(after);

      const final = secret('C', 150);
      await chunks.set('p', final);
      expect(await createChunkedStore(harness.store, 100).get('p')).toBe(final);
      expect([...harness.accounts].sort()).toEqual(['p', 'p#1']);
      if (finished) break;
    }
  });

  it('an interrupted delete leaves the old secret or nothing, and a second delete removes every part', async () => {
    const value = secret('A', sizes.fiveParts);
    for (let crash = 1; ; crash += 1) {
      const harness = limitedStore(100);
      const chunks = chunked(harness.store);
      await chunks.set('p', value);
      harness.crashOnWrite(crash);
      const finished = await chunks.delete('p').then(
        () => true,
        () => false,
      );
      harness.noCrash();
      expect([value, null]).toContain(await chunks.get('p'));
      if (finished) {
        expect(crash).toBe(6); // four parts and the head were deleted before the crash point was reached
        expect(harness.accounts.size).toBe(0);
        break;
      }
      await chunks.delete('p');
      expect(harness.accounts.size).toBe(0);
    }
  });
});
