import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StorewiseClient } from './supabase-client';
import { useLiveChanges, useLiveChannel } from './use-live-changes';

type StatusCallback = (status: string) => void;

/**
 * A client whose removeChannel reports CLOSED to the channel's status callback synchronously, as realtime-js does
 * when it unsubscribes a channel.
 */
function fakeClient() {
  const callbacks = new Map<object, StatusCallback>();
  const opened: object[] = [];
  const removeChannel = vi.fn(async (channel: object) => {
    callbacks.get(channel)?.('CLOSED');
    return 'ok';
  });
  const handlers: ((payload: unknown) => void)[] = [];
  const client = {
    channel: vi.fn(() => {
      const channel = {
        on: (_type: string, _filter: unknown, handler: (payload: unknown) => void) => {
          handlers.push(handler);
          return channel;
        },
        subscribe: (callback: StatusCallback) => {
          callbacks.set(channel, callback);
          return channel;
        },
      };
      opened.push(channel);
      return channel;
    }),
    removeChannel,
  };
  const serverCloses = (channel: object) => callbacks.get(channel)?.('CLOSED');
  /** A row change as Realtime delivers it, to every table the screen watches. */
  const rowChanged = () => handlers.forEach((handler) => handler({ table: 't', eventType: 'UPDATE', new: {}, old: {} }));
  return { client: client as unknown as StorewiseClient, opened, removeChannel, serverCloses, rowChanged };
}

describe('useLiveChannel', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('removes a channel the server closed once and opens one channel again, though removeChannel reports CLOSED again', () => {
    const fake = fakeClient();
    renderHook(() => useLiveChannel(fake.client, [{ table: 'products' }], { onChange: () => undefined }));
    expect(fake.opened).toHaveLength(1);

    fake.serverCloses(fake.opened[0]!);
    expect(fake.removeChannel).toHaveBeenCalledTimes(1);

    vi.advanceTimersByTime(60_000);
    expect(fake.opened).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('useLiveChanges', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('throttles on the trailing edge: a steady stream reloads once per settle time, never postponed for ever', () => {
    const fake = fakeClient();
    const reload = vi.fn();
    // The Overview's settle time (business-overview.tsx LIVE_SETTLE_MS).
    renderHook(() => useLiveChanges(fake.client, [{ table: 'sales' }], reload, true, 2_500));
    fake.rowChanged();
    vi.advanceTimersByTime(2_400);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(reload).toHaveBeenCalledTimes(1);
    // A change every 100 ms for 5 s (a busy register): two more reloads, not fifty.
    for (let i = 0; i < 50; i += 1) {
      fake.rowChanged();
      vi.advanceTimersByTime(100);
    }
    expect(reload).toHaveBeenCalledTimes(3);
    vi.advanceTimersByTime(10_000);
    expect(reload).toHaveBeenCalledTimes(3);
  });
});
