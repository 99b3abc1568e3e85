import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { LoadError } from '../../components/load-error';
import { LoadingText } from '../../components/loading-text';

export type LoadState<T> = { status: 'loading' } | { status: 'error'; error: Error } | { status: 'ready'; data: T };

/** Loads a screen's data, again when `key` changes or on reload(); answers to an older key are dropped. */
export function useLoad<T>(key: string, load: () => Promise<T>): [LoadState<T>, () => void] {
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<{ token: string; value: LoadState<T> } | null>(null);
  const token = `${key}#${version}`;
  useEffect(() => {
    let cancelled = false;
    load().then(
      (data) => !cancelled && setState({ token, value: { status: 'ready', data } }),
      (error: unknown) => {
        if (cancelled) return;
        console.error('Inventory load failed:', error);
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

/** Loading text, a retryable error, or the content. */
export function Loaded<T>({ state, what, reload, children }: {
  state: LoadState<T>; what: string; reload: () => void; children: (data: T) => ReactNode;
}) {
  if (state.status === 'loading') return <LoadingText />;
  if (state.status === 'error') return <LoadError message={`${what} could not be loaded.`} error={state.error} onRetry={reload} />;
  return <>{children(state.data)}</>;
}
