import { beforeEach, describe, expect, it } from 'vitest';
import { IPC } from '../ipc-contract';
import { createMemoryStore } from './credential-store';
import { registerIpcHandlers, type InvokeEventLike } from './ipc-handlers';
import { createNavigationPolicy, defaultExternalOrigins } from './navigation-policy';
import { createSessionVault } from './session-vault';
import { createPrintService } from './printing/print-service';
import { defaultPrinterSettings } from './printing/printer-settings';

type Listener = (event: InvokeEventLike, ...args: unknown[]) => unknown;

const APP_FRAME = { senderFrame: { url: 'app://storewise/index.html#/auth', parent: null } };

function setup(persistenceWarning: string | null = null) {
  const handlers = new Map<string, Listener>();
  const opened: string[] = [];
  const logs: string[] = [];
  const store = createMemoryStore();
  const policy = createNavigationPolicy({ appOrigin: 'app://storewise', externalOrigins: defaultExternalOrigins('https://abcd.supabase.co') });
  registerIpcHandlers(
    { handle: (channel, listener) => void handlers.set(channel, listener) },
    {
      isAppUrl: policy.isAppUrl,
      isAllowedExternal: policy.isAllowedExternal,
      openExternal: async (url) => void opened.push(url),
      vault: createSessionVault(store, 'abcd.supabase.co'),
      appVersion: '1.2.3',
      appConfig: { ok: true, config: { url: 'https://abcd.supabase.co', anonKey: 'anon' } },
      persistenceWarning,
      // Printing's own behaviour is tested in tests/desktop/receipt-printer.test.ts; here only its channels count.
      printing: createPrintService({
        managed: null, loadSettings: async () => defaultPrinterSettings(null), saveSettings: async () => undefined,
        lookup: async () => [], sendRaw: async () => ({ ok: true }), listPrinters: async () => [],
        printPage: async () => ({ ok: true, reason: '' }),
      }),
      // The store PC's behaviour is tested in machine/store-pc.test.ts; here only its channels count.
      storePc: { status: () => { throw new Error('not used'); }, reportRegister: () => undefined, changeSettings: async () => ({ ok: true, message: '' }) },
      log: (message) => logs.push(message),
    },
  );
  const invoke = async (channel: string, event: InvokeEventLike, ...args: unknown[]) => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler(event, ...args);
  };
  return { handlers, invoke, opened, logs, store };
}

let ctx: ReturnType<typeof setup>;
beforeEach(() => {
  ctx = setup();
});

describe('contract coverage', () => {
  it('handles every renderer -> main channel of the contract', () => {
    const invokable = Object.values(IPC).filter((channel) => channel !== IPC.authDeepLink);
    expect([...ctx.handlers.keys()].sort()).toEqual([...invokable].sort());
  });
});

describe('sender frame check', () => {
  it.each([
    ['a remote page', { senderFrame: { url: 'https://evil.example/', parent: null } }],
    ['a look-alike origin', { senderFrame: { url: 'app://storewise.evil/index.html', parent: null } }],
    ['a file page', { senderFrame: { url: 'file:///tmp/x.html', parent: null } }],
    ['an iframe inside the app', { senderFrame: { url: 'app://storewise/index.html', parent: {} } }],
    ['a destroyed frame', { senderFrame: null }],
  ])('refuses %s on every channel', async (_name, event) => {
    for (const channel of ctx.handlers.keys()) {
      await expect(ctx.invoke(channel, event, 'sb-abcd-auth-token', '{}')).rejects.toThrow(/sender not allowed/);
    }
    expect(await ctx.store.get('abcd.supabase.co')).toBeNull();
    expect(ctx.opened).toEqual([]);
  });
});

describe('payload validation', () => {
  it.each([
    [IPC.sessionGet, []],
    [IPC.sessionGet, [42]],
    [IPC.sessionGet, ['']],
    [IPC.sessionGet, ['../../etc/passwd']],
    [IPC.sessionGet, ['sb-abcd-auth-token', 'extra']],
    [IPC.sessionSet, ['sb-abcd-auth-token']],
    [IPC.sessionSet, ['sb-abcd-auth-token', { access_token: 'x' }]],
    [IPC.sessionSet, ['sb-abcd-auth-token', 'x'.repeat(70_000)]],
    [IPC.sessionSet, ['k'.repeat(201), 'v']],
    [IPC.sessionRemove, [null]],
    [IPC.openExternal, []],
    [IPC.openExternal, [{ href: 'https://storewise.app' }]],
    [IPC.openExternal, ['https://storewise.app/'.padEnd(5000, 'a')]],
    [IPC.appVersion, ['unexpected']],
    [IPC.appConfig, [1]],
  ])('refuses %s with %j', async (channel, args) => {
    await expect(ctx.invoke(channel, APP_FRAME, ...args)).rejects.toThrow(/invalid payload/);
  });
});

describe('session storage', () => {
  it('keeps the session in the credential store and removes it on sign-out', async () => {
    const session = JSON.stringify({ access_token: 'a', refresh_token: 'r', expires_in: 3600 });
    await ctx.invoke(IPC.sessionSet, APP_FRAME, 'sb-abcd-auth-token', session);
    expect(await ctx.invoke(IPC.sessionGet, APP_FRAME, 'sb-abcd-auth-token')).toBe(session);
    expect(JSON.parse((await ctx.store.get('abcd.supabase.co'))!)).toEqual({ 'sb-abcd-auth-token': session });
    await ctx.invoke(IPC.sessionRemove, APP_FRAME, 'sb-abcd-auth-token');
    expect(await ctx.invoke(IPC.sessionGet, APP_FRAME, 'sb-abcd-auth-token')).toBeNull();
    expect(await ctx.store.get('abcd.supabase.co')).toBeNull();
  });
});

describe('openExternal', () => {
  it.each(['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'https://unknown.example/', 'http://storewise.app/'])(
    'refuses %s',
    async (url) => {
      expect(await ctx.invoke(IPC.openExternal, APP_FRAME, url)).toBe(false);
      expect(ctx.opened).toEqual([]);
    },
  );

  it('opens allowed https links and the Supabase OAuth URL in the system browser', async () => {
    expect(await ctx.invoke(IPC.openExternal, APP_FRAME, 'https://storewise.app/privacy-policy')).toBe(true);
    expect(await ctx.invoke(IPC.openExternal, APP_FRAME, 'https://abcd.supabase.co/auth/v1/authorize?provider=google')).toBe(true);
    expect(ctx.opened).toEqual(['https://storewise.app/privacy-policy', 'https://abcd.supabase.co/auth/v1/authorize?provider=google']);
  });
});

describe('app info', () => {
  it('answers version and config', async () => {
    expect(await ctx.invoke(IPC.appVersion, APP_FRAME)).toBe('1.2.3');
    expect(await ctx.invoke(IPC.appConfig, APP_FRAME)).toEqual({ ok: true, config: { url: 'https://abcd.supabase.co', anonKey: 'anon' } });
  });

  it('tells about missing persistence exactly once', async () => {
    const withWarning = setup('not remembered');
    expect(await withWarning.invoke(IPC.persistenceWarning, APP_FRAME)).toBe('not remembered');
    expect(await withWarning.invoke(IPC.persistenceWarning, APP_FRAME)).toBeNull();
    expect(await ctx.invoke(IPC.persistenceWarning, APP_FRAME)).toBeNull();
  });
});
