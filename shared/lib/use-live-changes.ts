import { useEffect, useRef } from 'react';
import type { RealtimeChannel } from '@supabase/supabase-js';
import type { StorewiseClient } from './supabase-client';

/** One table to watch; `filter` narrows it as Realtime does (e.g. `store_id=eq.<uuid>`). */
export interface LiveTable {
  table: string;
  filter?: string;
  event?: '*' | 'INSERT' | 'UPDATE' | 'DELETE';
}

/** A change as Realtime delivers it: the new row (as the user may select it) and the old key or row. */
export interface LiveChange {
  table: string;
  eventType: 'INSERT' | 'UPDATE' | 'DELETE';
  new: Record<string, unknown>;
  old: Record<string, unknown>;
}

export interface LiveHandlers {
  onChange(change: LiveChange): void;
  /**
   * After each join: `first` is false when the channel joined again (a dropped connection, a server restart, a
   * channel the server ended): what changed meanwhile was not delivered, so the screen reloads its state.
   */
  onJoin?(first: boolean): void;
}

/** Changes arriving together (a sale touches several rows) make one reload. */
const SETTLE_MS = 60;
/** A channel the server ended (membership changed, token refused) is opened again after this, doubling to 30 s. */
const REOPEN_MS = 1_000;
const REOPEN_MAX_MS = 30_000;

let channelNumber = 0;

/**
 * Watches tables through Supabase Realtime and hands each change (as the user's RLS lets them see it) to
 * `onChange`. realtime-js rejoins by itself after a dropped connection; a channel the server closed is opened
 * again here (with the client's current token), so a screen stays live after the server ended its channel.
 */
export function useLiveChannel(supabase: StorewiseClient, tables: LiveTable[], handlers: LiveHandlers, enabled = true): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  const key = JSON.stringify(tables);
  useEffect(() => {
    if (!enabled || tables.length === 0) return undefined;
    let disposed = false;
    let joinedBefore = false;
    let delay = REOPEN_MS;
    let reopenTimer: ReturnType<typeof setTimeout> | undefined;
    let channel: RealtimeChannel | undefined;
    const open = () => {
      const current: RealtimeChannel = supabase.channel(`live-${++channelNumber}`);
      channel = current;
      for (const spec of tables) {
        current.on('postgres_changes', { event: spec.event ?? '*', schema: 'public', table: spec.table, ...(spec.filter ? { filter: spec.filter } : {}) } as never,
          ((payload: LiveChange) => latest.current.onChange(payload)) as never);
      }
      current.subscribe((status) => {
        if (disposed || channel !== current) return;
        if (status === 'SUBSCRIBED') {
          delay = REOPEN_MS;
          latest.current.onJoin?.(!joinedBefore);
          joinedBefore = true;
        } else if (status === 'CLOSED') {
          // Closed by the server, not by us: realtime-js does not rejoin such a channel by itself. removeChannel
          // reports CLOSED again synchronously, so the channel is forgotten first: that second report is ignored
          // (above) instead of removing and scheduling again without end.
          channel = undefined;
          void supabase.removeChannel(current);
          reopenTimer = setTimeout(open, delay);
          delay = Math.min(delay * 2, REOPEN_MAX_MS);
        }
      });
    };
    open();
    return () => {
      disposed = true;
      clearTimeout(reopenTimer);
      if (channel) void supabase.removeChannel(channel);
    };
    // `key` stands for the tables' content.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [supabase, key, enabled]);
}

/**
 * Returns a function that calls `callback` once `settleMs` after its first call: the calls in between ride on that
 * one. A trailing throttle: a steady stream of calls (a busy store) runs the callback once per `settleMs`, never
 * postponed for ever (a debounce would be).
 */
export function useSettledCall(callback: () => void, settleMs = SETTLE_MS): () => void {
  const latest = useRef(callback);
  useEffect(() => {
    latest.current = callback;
  });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return () => {
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      latest.current();
    }, settleMs);
  };
}

/**
 * Calls `onChange` (at most once per `settleMs`) when a row of the watched tables changes, and after the channel
 * joins again (what changed meanwhile was not delivered). The reload itself reads through the data API; the change only says "read again".
 */
export function useLiveChanges(supabase: StorewiseClient, tables: LiveTable[], onChange: () => void, enabled = true, settleMs = SETTLE_MS): void {
  const changed = useSettledCall(onChange, settleMs);
  useLiveChannel(supabase, tables, { onChange: changed, onJoin: (first) => !first && changed() }, enabled);
}
