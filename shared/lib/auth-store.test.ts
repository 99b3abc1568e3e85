import type { AuthChangeEvent, Session } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { createAuthStore } from './auth-store';
import type { StorewiseClient } from './supabase-client';

type Listener = (event: AuthChangeEvent, session: Session | null) => void;

/** supabase-js's auth events, played by the test. */
function fakeClient() {
  let listener: Listener = () => undefined;
  const client = { auth: { onAuthStateChange: (callback: Listener) => {
    listener = callback;
    return { data: { subscription: { unsubscribe: () => undefined } } };
  } } } as unknown as StorewiseClient;
  return { client, emit: (event: AuthChangeEvent, session: Session | null) => listener(event, session) };
}

const session = (id: string) => ({ access_token: 'a', refresh_token: 'r', expires_at: 1, user: { id } }) as unknown as Session;

/** The store's state once it has stopped loading. */
function settled(store: ReturnType<typeof createAuthStore>) {
  return new Promise<ReturnType<typeof store.getSnapshot>>((resolve) => {
    const unsubscribe = store.subscribe(() => {
      const state = store.getSnapshot();
      if (!state.loading) {
        unsubscribe();
        resolve(state);
      }
    });
  });
}

describe('the auth store (offline start, docs/adr/0200)', () => {
  it('keeps the stored session when supabase-js could not refresh it offline', async () => {
    const { client, emit } = fakeClient();
    const store = createAuthStore(Promise.resolve(client), async () => session('cashier'));
    await Promise.resolve();
    emit('INITIAL_SESSION', null);
    const state = await settled(store);
    expect(state.user?.id).toBe('cashier');
    expect(state.session?.refresh_token).toBe('r');
  });

  it('is signed out when nothing is stored, and follows supabase-js once it refreshes or signs out', async () => {
    const { client, emit } = fakeClient();
    const store = createAuthStore(Promise.resolve(client), async () => null);
    await Promise.resolve();
    emit('INITIAL_SESSION', null);
    expect((await settled(store)).user).toBeNull();
    emit('TOKEN_REFRESHED', session('cashier'));
    expect(store.getSnapshot().user?.id).toBe('cashier');
    emit('SIGNED_OUT', null);
    expect(store.getSnapshot().session).toBeNull();
  });

  it('uses the session supabase-js reports, without reading storage', async () => {
    const { client, emit } = fakeClient();
    let read = 0;
    const store = createAuthStore(Promise.resolve(client), async () => { read += 1; return session('other'); });
    await Promise.resolve();
    emit('INITIAL_SESSION', session('owner'));
    expect((await settled(store)).user?.id).toBe('owner');
    expect(read).toBe(0);
  });

  it('lets an event that came meanwhile win over the kept session', async () => {
    const { client, emit } = fakeClient();
    let release: (s: Session | null) => void = () => undefined;
    const store = createAuthStore(Promise.resolve(client), () => new Promise((resolve) => { release = resolve; }));
    await Promise.resolve();
    emit('INITIAL_SESSION', null);
    await new Promise((resolve) => setTimeout(resolve, 0));
    emit('SIGNED_IN', session('fresh'));
    release(session('stale'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.getSnapshot().user?.id).toBe('fresh');
  });
});
