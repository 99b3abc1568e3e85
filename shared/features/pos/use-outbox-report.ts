import { useEffect } from 'react';
import type { StorewiseClient } from '../../lib/supabase-client';
import { pendingEntries, type PosDatabase } from './outbox';

/** While online, the register repeats its report this often, so a manager sees when it was last heard from. */
const REPORT_EVERY_MS = 60_000;

/**
 * Tells the store how many entries this register's outbox holds and since when (report_register_outbox), so a
 * manager watching the Overview sees which registers hold unsent sales (issue 28). Sent when the count changes
 * and every minute while online; offline nothing can be sent, and the manager sees the last report's time.
 */
export function useOutboxReport(supabase: StorewiseClient, db: PosDatabase | null, registerId: string | undefined, waiting: number, online: boolean): void {
  useEffect(() => {
    if (!db || !registerId || !online) return undefined;
    let stale = false;
    const report = async () => {
      const entries = waiting > 0 ? await pendingEntries(db) : [];
      const oldest = entries.reduce<string | null>((min, entry) => (!min || entry.createdAt < min ? entry.createdAt : min), null);
      if (stale) return;
      // A failed report is not worth a message at the till: the next one (a minute later) says the same.
      await supabase.rpc('report_register_outbox', { _register_id: registerId, _waiting: waiting, ...(oldest ? { _oldest_waiting_at: oldest } : {}) });
    };
    void report().catch(() => undefined);
    const timer = setInterval(() => void report().catch(() => undefined), REPORT_EVERY_MS);
    return () => {
      stale = true;
      clearInterval(timer);
    };
  }, [supabase, db, registerId, waiting, online]);
}
