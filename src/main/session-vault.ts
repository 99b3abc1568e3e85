import { z } from 'zod';
import type { CredentialStore } from './credential-store';

/**
 * The renderer's supabase-js storage, kept in the main process: all keys of one Supabase project
 * (the session, the PKCE code verifier) live in ONE keychain entry named after the project's host.
 * Reads are served from memory after the first load; writes are serialized so two quick setItem calls
 * (token refresh racing a sign-out) cannot interleave their keychain writes.
 */
const entriesSchema = z.record(z.string(), z.string());

export function keychainAccountFor(supabaseUrl: string): string {
  return new URL(supabaseUrl).host;
}

export function createSessionVault(store: CredentialStore, account: string) {
  let loaded: Promise<Map<string, string>> | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  const load = () =>
    (loaded ??= store.get(account).then(
      (raw) => {
        if (raw === null) return new Map<string, string>();
        try {
          const parsed = entriesSchema.safeParse(JSON.parse(raw));
          return new Map(parsed.success ? Object.entries(parsed.data) : []);
        } catch {
          return new Map<string, string>(); // unreadable entry: start signed out rather than crash
        }
      },
      () => new Map<string, string>(),
    ));

  const persist = async (entries: Map<string, string>) => {
    if (entries.size === 0) await store.delete(account);
    else await store.set(account, JSON.stringify(Object.fromEntries(entries)));
  };

  const serialized = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  return {
    async getItem(key: string): Promise<string | null> {
      return (await load()).get(key) ?? null;
    },
    setItem(key: string, value: string): Promise<void> {
      return serialized(async () => {
        const entries = await load();
        entries.set(key, value);
        await persist(entries);
      });
    },
    /** Sign-out: supabase-js removes its key; the keychain entry goes when the last key does. */
    removeItem(key: string): Promise<void> {
      return serialized(async () => {
        const entries = await load();
        if (!entries.delete(key)) return;
        await persist(entries);
      });
    },
  };
}

export type SessionVault = ReturnType<typeof createSessionVault>;
