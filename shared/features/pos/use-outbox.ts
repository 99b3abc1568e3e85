import { useCallback, useEffect, useRef, useState } from 'react';
import type { StorewiseClient } from '../../lib/supabase-client';
import { enqueue, openPosDb, pendingCount, syncOutbox, type OutboxKind, type PosDatabase } from './outbox';
import { sendSale, sendSales } from './pos-api';

/**
 * The outbox as the register sees it: "Offline" and how many sales wait. Syncs on start, after every sale, when the
 * browser says it is online again and every 15 s, one pass at a time.
 */
export function useOutbox(supabase: StorewiseClient) {
  const [db, setDb] = useState<PosDatabase | null>(null);
  const [waiting, setWaiting] = useState(0);
  const [online, setOnline] = useState(() => (typeof navigator === 'undefined' ? true : navigator.onLine));
  const syncing = useRef(false);

  useEffect(() => {
    let opened: PosDatabase | null = null;
    void openPosDb().then((d) => {
      opened = d;
      setDb(d);
      void pendingCount(d).then(setWaiting);
    });
    // Ask the browser not to evict the outbox under storage pressure.
    void navigator.storage?.persist?.().catch(() => undefined);
    return () => opened?.close();
  }, []);

  const sync = useCallback(async () => {
    if (!db || syncing.current) return;
    syncing.current = true;
    try {
      const result = await syncOutbox(db, (entry) => sendSale(supabase, entry), undefined,
        { sendBatch: (entries) => sendSales(supabase, entries) });
      setWaiting(result.waiting);
      setOnline(result.waiting === 0 || result.sent > 0 ? navigator.onLine : false);
    } finally {
      syncing.current = false;
    }
  }, [db, supabase]);

  useEffect(() => {
    if (!db) return;
    void sync();
    const goOnline = () => { setOnline(true); void sync(); };
    const goOffline = () => setOnline(false);
    window.addEventListener('online', goOnline);
    window.addEventListener('offline', goOffline);
    const timer = setInterval(() => void sync(), 15_000);
    return () => {
      window.removeEventListener('online', goOnline);
      window.removeEventListener('offline', goOffline);
      clearInterval(timer);
    };
  }, [db, sync]);

  const add = useCallback(async (kind: OutboxKind, payload: Record<string, unknown> & { id: string }) => {
    if (!db) throw new Error('The register is still starting');
    await enqueue(db, kind, payload);
    setWaiting(await pendingCount(db));
    void sync();
  }, [db, sync]);

  return { db, waiting, online, add, sync };
}
