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
  // The pass in flight; a sync asked for meanwhile runs one more pass after it and is awaited with it, so a
  // caller (the shift's close) can wait until what it just queued has been tried.
  const running = useRef<Promise<void> | null>(null);
  const again = useRef(false);

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

  const sync = useCallback(async (): Promise<void> => {
    if (!db) return;
    if (running.current) {
      again.current = true;
      return running.current;
    }
    const pass = (async () => {
      do {
        again.current = false;
        const result = await syncOutbox(db, (entry) => sendSale(supabase, entry), undefined,
          { sendBatch: (entries) => sendSales(supabase, entries) });
        setWaiting(result.waiting);
        setOnline(result.waiting === 0 || result.sent > 0 ? navigator.onLine : false);
      } while (again.current);
    })().finally(() => { running.current = null; });
    running.current = pass;
    return pass;
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
