import { useCallback, useEffect, useRef, useState } from 'react';
import type { StorewiseClient } from '../../lib/supabase-client';
import {
  enqueue, getMeta, openPosDb, pendingCount, refusedEntries, setMeta, syncOutbox, type EnqueueOptions, type HeldEntries,
  type OutboxAuthor, type OutboxKind, type PosDatabase,
} from './outbox';
import { sendSale, sendSales } from './pos-api';

/** The last person signed in on this device, kept so an entry made after the session expired offline is still theirs. */
const AUTHOR_KEY = 'author';

type SessionUser = { id: string; email?: string | null; user_metadata?: Record<string, unknown> } | null | undefined;
const authorOf = (user: SessionUser): OutboxAuthor | null => (user ? {
  id: user.id,
  label: String(user.user_metadata?.full_name || user.email || 'another cashier'),
} : null);

/** supabase-js has a session it can send requests with (it refreshes an expired one here, when it can). */
const hasSession = (supabase: StorewiseClient) =>
  supabase.auth.getSession().then(({ data }) => Boolean(data.session), () => false);

/**
 * The outbox as the register sees it: "Offline" and how many sales wait. Syncs on start, after every sale, when the
 * browser says it is online again and every 15 s, one pass at a time. Each entry records who made it and is sent
 * only under their sign-in (ADR 0165): another person's entries wait, and `held` says for whom.
 */
export function useOutbox(supabase: StorewiseClient) {
  const [db, setDb] = useState<PosDatabase | null>(null);
  const [waiting, setWaiting] = useState(0);
  const [refused, setRefused] = useState(0);
  const [held, setHeld] = useState<HeldEntries | null>(null);
  // Why the server holds every write now (an admin's read-only maintenance, ADR 0280); null when it does not.
  const [paused, setPaused] = useState<string | null>(null);
  const [online, setOnline] = useState(() => (typeof navigator === 'undefined' ? true : navigator.onLine));
  // The pass in flight; a sync asked for meanwhile runs one more pass after it and is awaited with it, so a
  // caller (the shift's close) can wait until what it just queued has been tried.
  const running = useRef<Promise<void> | null>(null);
  const again = useRef(false);
  // Who is signed in now (undefined until the session has been read; null: nobody).
  const user = useRef<OutboxAuthor | null | undefined>(undefined);

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

  useEffect(() => {
    const remember = (u: SessionUser) => {
      const author = authorOf(u);
      // A session that failed to refresh offline is not a sign-out: the last person stays until another signs in.
      if (author) user.current = author;
      else if (user.current === undefined) user.current = null;
      if (author && db) void setMeta(db, AUTHOR_KEY, author);
    };
    void supabase.auth.getSession().then(({ data }) => remember(data.session?.user), () => undefined);
    const { data } = supabase.auth.onAuthStateChange((event, session) => {
      if (event === 'SIGNED_OUT') user.current = null;
      else remember(session?.user);
    });
    return () => data.subscription.unsubscribe();
  }, [supabase, db]);

  /** The person at the register: the signed-in user, else the last one seen on this device. */
  const currentAuthor = useCallback(async (): Promise<OutboxAuthor | null> => {
    if (user.current) return user.current;
    const { data } = await supabase.auth.getSession().catch(() => ({ data: { session: null } }));
    const fromSession = authorOf(data.session?.user);
    if (fromSession) return (user.current = fromSession);
    return db ? (await getMeta<OutboxAuthor>(db, AUTHOR_KEY)) ?? null : null;
  }, [supabase, db]);

  const sync = useCallback(async (): Promise<void> => {
    if (!db) return;
    if (running.current) {
      again.current = true;
      return running.current;
    }
    const pass = (async () => {
      do {
        again.current = false;
        // Every write is for signed-in people: while the sign-in cannot be renewed (an expired token offline, or
        // back online before supabase-js has refreshed it) nothing is sent as anyone; the entries wait (ADR 0200).
        if (!(await hasSession(supabase))) {
          setWaiting(await pendingCount(db));
          break;
        }
        const signedIn = (await currentAuthor())?.id ?? null;
        const result = await syncOutbox(db, (entry) => sendSale(supabase, entry), undefined,
          { sendBatch: (entries) => sendSales(supabase, entries), signedIn });
        setWaiting(result.waiting);
        setRefused(result.rejected);
        setHeld(result.held ?? null);
        setPaused(result.paused ?? null);
        // Read-only maintenance is an answer from the server: the register is online, its sales just wait.
        setOnline(result.paused || result.waiting === result.rejected + (result.held?.count ?? 0) || result.sent > 0
          ? navigator.onLine : false);
      } while (again.current);
    })().finally(() => { running.current = null; });
    running.current = pass;
    return pass;
  }, [db, supabase, currentAuthor]);

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

  const add = useCallback(async (kind: OutboxKind, payload: Record<string, unknown> & { id: string }, options?: EnqueueOptions) => {
    if (!db) throw new Error('The register is still starting');
    await enqueue(db, kind, payload, await currentAuthor(), options);
    setWaiting(await pendingCount(db));
    void sync();
  }, [db, sync, currentAuthor]);

  /** Counts again after a manager retried or discarded a refused entry, and syncs. */
  const refresh = useCallback(async () => {
    if (!db) return;
    setWaiting(await pendingCount(db));
    setRefused((await refusedEntries(db)).length);
    await sync();
  }, [db, sync]);

  return { db, waiting, refused, held, paused, online, add, sync, refresh, currentAuthor };
}
