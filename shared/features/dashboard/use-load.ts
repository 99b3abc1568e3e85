import { useCallback, useEffect, useRef, useState } from 'react';

export type LoadState<T> =
  | { status: 'loading' }
  | { status: 'error'; error: Error }
  | { status: 'ready'; data: T };

export interface Load<T> {
  state: LoadState<T>;
  /** Loads again (after a failure, or after a change made elsewhere). */
  reload: () => void;
  /** Changes the loaded data in place: optimistic updates and rows the screen just inserted. */
  update: (change: (data: T) => T) => void;
  /**
   * Loads again while the current data stays on screen, then swaps it in (a live change arrived): no
   * "Loading", and forms on the screen keep what is typed in them.
   */
  refresh: () => void;
}

const LOADING = { status: 'loading' } as const;

/**
 * Loads one screen section. `key` names what is loaded (usually the user id); a new key or a reload fetches
 * again, and an answer that arrives for an older key is ignored, so a fast user never sees stale rows.
 * Each section has its own load, so one failing query does not blank the others and they run in parallel.
 */
export function useLoad<T>(key: string, load: () => Promise<T>): Load<T> {
  const [version, setVersion] = useState(0);
  const [result, setResult] = useState<{ token: string; state: LoadState<T> } | null>(null);
  const token = `${key}#${version}`;
  // The loader closes over props; the latest one is used without making it an effect dependency.
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });

  useEffect(() => {
    let cancelled = false;
    loadRef.current().then(
      (data) => {
        if (!cancelled) setResult({ token, state: { status: 'ready', data } });
      },
      (error: unknown) => {
        if (cancelled) return;
        console.error('Dashboard load failed:', error);
        setResult({ token, state: { status: 'error', error: error instanceof Error ? error : new Error(String(error)) } });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [token]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  // Only the newest refresh may land: an older answer arriving late must not replace a newer one.
  const refreshes = useRef(0);
  const refresh = useCallback(() => {
    const mine = ++refreshes.current;
    loadRef.current().then(
      (data) => {
        if (mine !== refreshes.current) return;
        setResult((current) => (current && current.state.status === 'ready' ? { token: current.token, state: { status: 'ready', data } } : current));
      },
      (error: unknown) => console.error('Dashboard refresh failed:', error),
    );
  }, []);
  const update = useCallback((change: (data: T) => T) => {
    setResult((current) =>
      current && current.state.status === 'ready'
        ? { token: current.token, state: { status: 'ready', data: change(current.state.data) } }
        : current,
    );
  }, []);

  return { state: result?.token === token ? result.state : LOADING, reload, update, refresh };
}
