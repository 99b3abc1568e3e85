import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StorewiseClient } from './supabase-client';
import { useLiveChannel } from './use-live-changes';

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
  const client = {
    channel: vi.fn(() => {
      const channel = {
        on: () => channel,
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
  return { client: client as unknown as StorewiseClient, opened, removeChannel, serverCloses };
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
