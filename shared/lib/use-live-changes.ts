import { useEffect, useRef } from 'react';
import type { RealtimeChannel } from '@supabase/supabase-js';
import type { StorewiseClient } from './supabase-client';

/** One table to watch; `filter` narrows it as Realtime does (e.g. `store_id=eq.<uuid>`). */
export interface LiveTable {
  table: string;
  filter?: string;
  event?: '*' | 'INSERT' | 'UPDATE' | 'DELETE';
}

/** Changes arriving together (a sale touches several rows) make one reload. */
const SETTLE_MS = 60;

let channelNumber = 0;

/**
 * Calls `onChange` when a row of the watched tables changes (as the user's RLS lets them see it), through
 * Supabase Realtime. Also after the channel joins again (a dropped connection, a server restart): what
 * changed meanwhile was not delivered, so the screen reloads its state then. The reload itself reads
 * through the data API; the change only says "read again".
 */
export function useLiveChanges(supabase: StorewiseClient, tables: LiveTable[], onChange: () => void, enabled = true): void {
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  const key = JSON.stringify(tables);
  useEffect(() => {
    if (!enabled || tables.length === 0) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const changed = () => {
      clearTimeout(timer);
      timer = setTimeout(() => latest.current(), SETTLE_MS);
    };
    let joinedBefore = false;
    const channel: RealtimeChannel = supabase.channel(`live-${++channelNumber}`);
    for (const spec of tables) {
      channel.on('postgres_changes', { event: spec.event ?? '*', schema: 'public', table: spec.table, ...(spec.filter ? { filter: spec.filter } : {}) } as never, changed);
    }
    channel.subscribe((status) => {
      if (status !== 'SUBSCRIBED') return;
      if (joinedBefore) changed();
      joinedBefore = true;
    });
    return () => {
      clearTimeout(timer);
      void supabase.removeChannel(channel);
    };
    // `key` stands for the tables' content.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [supabase, key, enabled]);
}
