import { useCallback, useEffect, useState } from 'react';

export type AsyncState<T> = { status: 'loading' } | { status: 'error'; error: Error } | { status: 'ready'; data: T };

/** Loads data for a section and reloads on demand or when `key` changes; stale answers are dropped. */
export function useAsync<T>(key: string, load: () => Promise<T>): [AsyncState<T>, () => void] {
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<{ token: string; value: AsyncState<T> } | null>(null);
  const token = `${key}#${version}`;
  useEffect(() => {
    let cancelled = false;
    load().then(
      (data) => !cancelled && setState({ token, value: { status: 'ready', data } }),
      (error: unknown) => {
        if (cancelled) return;
        console.error('Business load failed:', error);
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
  return [state?.token === token ? state.value : { status: 'loading' }, reload];
}
