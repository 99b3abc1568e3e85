import { useCallback, useEffect, useState } from 'react';

export type LoadState<T> = { status: 'loading' } | { status: 'error'; error: Error } | { status: 'ready'; data: T };

/**
 * Loads a screen's data, again when `key` changes or on reload(); answers to an older key are dropped. `what`
 * names the screen in the console on failure. With `keepLast`, the last answer stays while a reload is under
 * way (no flash of "Loading" after a save).
 */
export function useKeyedLoad<T>(
  key: string,
  load: () => Promise<T>,
  what: string,
  keepLast = false,
): [LoadState<T>, () => void] {
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<{ token: string; value: LoadState<T> } | null>(null);
  const [last, setLast] = useState<LoadState<T> | null>(null);
  const token = `${key}#${version}`;
  useEffect(() => {
    let cancelled = false;
    load().then(
      (data) => !cancelled && setState({ token, value: { status: 'ready', data } }),
      (error: unknown) => {
        if (cancelled) return;
        console.error(`${what} load failed:`, error);
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
  const current = state?.token === token ? state.value : null;
  if (keepLast && current && current !== last) setLast(current);
  return [current ?? (keepLast ? last : null) ?? { status: 'loading' }, reload];
}
