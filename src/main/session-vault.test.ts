import { describe, expect, it } from 'vitest';
import { createMemoryStore, type CredentialStore } from './credential-store';
import { createSessionVault, keychainAccountFor } from './session-vault';

describe('session vault', () => {
  it('names the keychain account after the Supabase project host', () => {
    expect(keychainAccountFor('https://abcd.supabase.co')).toBe('abcd.supabase.co');
    expect(keychainAccountFor('http://127.0.0.1:54321/')).toBe('127.0.0.1:54321');
  });

  it('keeps every supabase-js key of one project in one entry, readable by a new vault', async () => {
    const store = createMemoryStore();
    const vault = createSessionVault(store, 'p');
    await vault.setItem('sb-p-auth-token-code-verifier', 'verifier');
    await vault.setItem('sb-p-auth-token', 'session');
    const reopened = createSessionVault(store, 'p');
    expect(await reopened.getItem('sb-p-auth-token')).toBe('session');
    expect(await reopened.getItem('sb-p-auth-token-code-verifier')).toBe('verifier');
  });

  it('deletes the keychain entry when the last key goes', async () => {
    const store = createMemoryStore();
    const vault = createSessionVault(store, 'p');
    await vault.setItem('a', '1');
    await vault.setItem('b', '2');
    await vault.removeItem('a');
    expect(await store.get('p')).toBe(JSON.stringify({ b: '2' }));
    await vault.removeItem('b');
    expect(await store.get('p')).toBeNull();
  });

  it('serializes concurrent writes so the last call wins', async () => {
    const writes: string[] = [];
    const memory = createMemoryStore();
    const slow: CredentialStore = {
      ...memory,
      set: async (account, secret) => {
        await new Promise((resolve) => setTimeout(resolve, secret.includes('first') ? 30 : 1));
        writes.push(secret);
        await memory.set(account, secret);
      },
    };
    const vault = createSessionVault(slow, 'p');
    await Promise.all([vault.setItem('k', 'first'), vault.setItem('k', 'second')]);
    expect(writes).toEqual([JSON.stringify({ k: 'first' }), JSON.stringify({ k: 'second' })]);
    expect(await createSessionVault(memory, 'p').getItem('k')).toBe('second');
  });

  it('starts signed out when the stored entry is corrupt or the keychain read fails', async () => {
    const store = createMemoryStore();
    await store.set('p', '{not json');
    expect(await createSessionVault(store, 'p').getItem('k')).toBeNull();
    await store.set('p', JSON.stringify({ k: 5 }));
    expect(await createSessionVault(store, 'p').getItem('k')).toBeNull();
    const failing: CredentialStore = { ...store, get: () => Promise.reject(new Error('locked')) };
    expect(await createSessionVault(failing, 'p').getItem('k')).toBeNull();
  });
});
