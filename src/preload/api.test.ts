import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { IPC, type AuthDeepLink, type RendererIpc } from '../ipc-contract';
import { createStorewiseApi } from './api';

/** An ipcRenderer stand-in: invoke records calls, events go through a real emitter. */
function fakeIpc() {
  const emitter = new EventEmitter();
  const calls: unknown[][] = [];
  const ipc: RendererIpc = {
    invoke: async (channel, ...args) => {
      calls.push([channel, ...args]);
      return channel === IPC.appVersion ? '9.9.9' : null;
    },
    on: (channel, listener) => emitter.on(channel, listener),
    removeListener: (channel, listener) => emitter.removeListener(channel, listener),
  };
  return { ipc, calls, emit: (link: AuthDeepLink) => emitter.emit(IPC.authDeepLink, {}, link) };
}

describe('preload api', () => {
  it('exposes only the task-level namespaces, never the ipc object', () => {
    const api = createStorewiseApi(fakeIpc().ipc);
    expect(Object.keys(api).sort()).toEqual(['app', 'auth', 'links', 'machine', 'printing', 'session']);
    expect(JSON.stringify(Object.entries(api).map(([name, ns]) => [name, Object.keys(ns)]))).toBe(
      JSON.stringify([
        ['session', ['getItem', 'setItem', 'removeItem', 'persistenceWarning']],
        ['links', ['openExternal']],
        ['auth', ['onDeepLink']],
        ['app', ['version', 'config']],
        ['machine', ['status', 'reportRegister', 'changeSettings']],
        ['printing', ['printReceipt', 'printSlip', 'listPrinters', 'getSettings', 'saveSettings']],
      ]),
    );
  });

  it('maps each call to its contract channel', async () => {
    const { ipc, calls } = fakeIpc();
    const api = createStorewiseApi(ipc);
    await api.session.setItem('sb-x-auth-token', 'v');
    await api.session.getItem('sb-x-auth-token');
    await api.session.removeItem('sb-x-auth-token');
    await api.links.openExternal('https://storewise.app');
    expect(await api.app.version()).toBe('9.9.9');
    await api.printing.printReceipt({ receiptNumber: 'DT1-000001' } as never, { openDrawer: true });
    await api.printing.printSlip({ title: 'Z report' } as never, { openDrawer: false });
    expect(calls).toEqual([
      [IPC.sessionSet, 'sb-x-auth-token', 'v'],
      [IPC.sessionGet, 'sb-x-auth-token'],
      [IPC.sessionRemove, 'sb-x-auth-token'],
      [IPC.openExternal, 'https://storewise.app'],
      [IPC.appVersion],
      [IPC.printReceipt, { receiptNumber: 'DT1-000001' }, { openDrawer: true }],
      [IPC.printSlip, { title: 'Z report' }, { openDrawer: false }],
    ]);
  });

  it('keeps deep links that arrive before anyone subscribes, and stops after unsubscribe', () => {
    const { ipc, emit } = fakeIpc();
    const api = createStorewiseApi(ipc);
    emit({ kind: 'oauth-callback', code: 'early' });
    const received: AuthDeepLink[] = [];
    const unsubscribe = api.auth.onDeepLink((link) => received.push(link));
    emit({ kind: 'recovery', params: { code: 'live' } });
    unsubscribe();
    emit({ kind: 'oauth-callback', code: 'after' });
    expect(received).toEqual([
      { kind: 'oauth-callback', code: 'early' },
      { kind: 'recovery', params: { code: 'live' } },
    ]);
  });
});
