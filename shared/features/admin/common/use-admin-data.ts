import { useCallback, useEffect, useRef, useState } from 'react';

export type DataState<T> =
  | { status: 'loading'; previous: T | null }
  | { status: 'error'; error: Error; previous: T | null }
  | { status: 'ready'; data: T };

type Settled<T> = { token: string; ok: true; data: T } | { token: string; ok: false; error: Error };

/**
 * Loads what `key` names (a page, a search). A new key fetches again; answers for an older key are dropped,
 * so typing fast never shows the rows of an earlier search. While a new page loads, the previous data is
 * kept so the table does not flash empty between pages.
 */
export function useAdminData<T>(key: string, load: () => Promise<T>, onError?: (error: Error) => void) {
  const [version, setVersion] = useState(0);
  const [result, setResult] = useState<Settled<T> | null>(null);
  const [lastData, setLastData] = useState<T | null>(null);
  const token = `${key}#${version}`;
  const loadRef = useRef(load);
  const onErrorRef = useRef(onError);
  useEffect(() => {
    loadRef.current = load;
    onErrorRef.current = onError;
  });

  useEffect(() => {
    let cancelled = false;
    loadRef.current().then(
      (data) => {
        if (cancelled) return;
        setResult({ token, ok: true, data });
        setLastData(data);
      },
      (reason: unknown) => {
        if (cancelled) return;
        const error = reason instanceof Error ? reason : new Error(String(reason));
        console.error('Admin load failed:', error);
        setResult({ token, ok: false, error });
        onErrorRef.current?.(error);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [token]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  // A live change: load again with the data still on screen, and swap it in (only the newest answer lands).
  const refreshes = useRef(0);
  const refresh = useCallback(() => {
    const mine = ++refreshes.current;
    loadRef.current().then(
      (data) => {
        if (mine !== refreshes.current) return;
        setResult((current) => (current?.ok ? { token: current.token, ok: true, data } : current));
        setLastData(data);
      },
      (reason: unknown) => console.error('Admin refresh failed:', reason),
    );
  }, []);

  let state: DataState<T>;
  if (result?.token !== token) state = { status: 'loading', previous: lastData };
  else if (result.ok) state = { status: 'ready', data: result.data };
  else state = { status: 'error', error: result.error, previous: lastData };
  return { state, reload, refresh };
}
