import { describe, expect, it } from 'vitest';
import { createChunkedStore } from './chunked-store';
import { createMemoryStore, type CredentialStore } from './credential-store';

/** A memory store that, like Windows Credential Manager, refuses secrets over a size. */
function limitedStore(limit: number) {
  const inner = createMemoryStore();
  const accounts = new Set<string>();
  const store: CredentialStore = {
    ...inner,
    set: async (account, secret) => {
      if (secret.length > limit) throw new Error('The stub received bad data.');
      accounts.add(account);
      await inner.set(account, secret);
    },
    delete: async (account) => {
      accounts.delete(account);
      return inner.delete(account);
    },
  };
  return { store, accounts };
}

describe('chunked credential store', () => {
  it('stores short secrets as they are', async () => {
    const { store, accounts } = limitedStore(100);
    const chunked = createChunkedStore(store, 100);
    await chunked.set('p', 'short');
    expect(await store.get('p')).toBe('short');
    expect([...accounts]).toEqual(['p']);
  });

  it('splits long secrets under the limit and reads them back whole', async () => {
    const { store, accounts } = limitedStore(100);
    const secret = 'x'.repeat(250) + 'end';
    await createChunkedStore(store, 100).set('p', secret);
    expect(accounts.size).toBe(3);
    expect(await createChunkedStore(store, 100).get('p')).toBe(secret);
  });

  it('removes parts a shorter secret no longer needs, and all parts on delete', async () => {
    const { store, accounts } = limitedStore(100);
    const chunked = createChunkedStore(store, 100);
    await chunked.set('p', 'y'.repeat(350));
    await chunked.set('p', 'z'.repeat(150));
    expect([...accounts].sort()).toEqual(['p', 'p#1']);
    expect(await chunked.get('p')).toBe('z'.repeat(150));
    expect(await chunked.delete('p')).toBe(true);
    expect(accounts.size).toBe(0);
    expect(await chunked.get('p')).toBeNull();
  });

  it('does not mistake a short secret that looks like a header for a chunked one', async () => {
    const { store } = limitedStore(100);
    const chunked = createChunkedStore(store, 100);
    await chunked.set('p', 'swc1:3:looks-like-a-header');
    expect(await chunked.get('p')).toBe('swc1:3:looks-like-a-header');
  });

  it('reads a torn write (missing part) as no secret', async () => {
    const { store } = limitedStore(100);
    const chunked = createChunkedStore(store, 100);
    await chunked.set('p', 'w'.repeat(250));
    await store.delete('p#2');
    expect(await chunked.get('p')).toBeNull();
  });
});
