/**
 * Realtime from a test's point of view: a channel of the official supabase-js client, subscribed and
 * collecting what it receives (changes, broadcasts, system messages), with waits on what should arrive.
 */
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';

export interface ChangeSpec {
  event: '*' | 'INSERT' | 'UPDATE' | 'DELETE';
  schema: string;
  table?: string;
  filter?: string;
}

export interface Received {
  eventType: string;
  table: string;
  new: Record<string, unknown>;
  old: Record<string, unknown>;
  /** When the change committed (ISO text), as Realtime sends it. */
  commit_timestamp: string;
  /** Realtime's per-change errors (e.g. a record too large to send), null when none. */
  errors: string[] | null;
  /** Which of the channel's specs the change came through (by index). */
  spec: number;
}

export interface Watch {
  channel: RealtimeChannel;
  changes: Received[];
  system: { extension: string; status: string; message: string }[];
  statuses: string[];
  errors: string[];
  stop(): Promise<void>;
}

let counter = 0;

/** Subscribes to postgres_changes and waits for SUBSCRIBED (or throws with the channel's error). */
export async function watch(client: SupabaseClient, specs: ChangeSpec[], name = `watch-${++counter}`): Promise<Watch> {
  const channel = client.channel(name);
  const result: Watch = { channel, changes: [], system: [], statuses: [], errors: [], stop: () => client.removeChannel(channel).then(() => {}) };
  specs.forEach((spec, index) => {
    channel.on('postgres_changes' as never, spec as never, ((payload: Omit<Received, 'spec'>) => {
      result.changes.push({ ...payload, spec: index });
    }) as never);
  });
  channel.on('system', {}, (payload: { extension: string; status: string; message: string }) => result.system.push(payload));
  await new Promise<void>((resolve, reject) => {
    channel.subscribe((status, error) => {
      result.statuses.push(status);
      if (error) result.errors.push(error.message);
      if (status === 'SUBSCRIBED') resolve();
      if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(new Error(`${status}: ${error?.message ?? ''}`));
    });
  });
  return result;
}

/** Waits until the watch has received something matching. */
export async function received(w: Watch, match: (change: Received) => boolean, timeout = 10_000): Promise<Received> {
  await expect.poll(() => w.changes.some(match), { timeout, interval: 20 }).toBe(true);
  return w.changes.find(match)!;
}
