import { useCallback, useEffect, useState } from 'react';

export type ReloadState<T> = { status: 'loading' } | { status: 'error'; error: Error } | { status: 'ready'; data: T };

/** Loads a screen's data, again when `key` changes or on reload(); answers to an older key are dropped. */
export function useReload<T>(key: string, load: () => Promise<T>): [ReloadState<T>, () => void] {
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<{ token: string; value: ReloadState<T> } | null>(null);
  const token = `${key}#${version}`;
  useEffect(() => {
    let cancelled = false;
    load().then(
      (data) => !cancelled && setState({ token, value: { status: 'ready', data } }),
      (error: unknown) => {
        if (cancelled) return;
        console.error('Catalog load failed:', error);
        setState({ token, value: { status: 'error', error: error instanceof Error ? error : new Error(String(error)) } });
      },
    );
    return () => {
      cancelled = true;
    };
    // The loader is recreated on every render; the token says when to load again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  // Keep showing the last data while reloading after a save (no flash of "Loading").
  const [last, setLast] = useState<ReloadState<T> | null>(null);
  const current = state?.token === token ? state.value : null;
  if (current && current !== last) setLast(current);
  return [current ?? last ?? { status: 'loading' }, reload];
}

/** Minor units as a plain decimal with two places ("1250" -> "12.50"). */
export const formatPlain = (minor: number | string) => (Number(minor) / 100).toFixed(2);
