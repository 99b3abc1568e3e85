import type { ReactNode } from 'react';
import { useKeyedLoad, type LoadState } from '../../lib/use-keyed-load';
import { LoadError } from '../../components/load-error';
import { LoadingText } from '../../components/loading-text';

export type { LoadState };

/**
 * Loads a screen's data, again when `key` changes or on reload(); answers to an older key are dropped.
 * `keepLast` keeps the last answer on screen while a reload runs (live screens reload often).
 */
export function useLoad<T>(key: string, load: () => Promise<T>, keepLast = false): [LoadState<T>, () => void] {
  return useKeyedLoad(key, load, 'Inventory', keepLast);
}

/** Loading text, a retryable error, or the content. */
export function Loaded<T>({ state, what, reload, children }: {
  state: LoadState<T>; what: string; reload: () => void; children: (data: T) => ReactNode;
}) {
  if (state.status === 'loading') return <LoadingText />;
  if (state.status === 'error') return <LoadError message={`${what} could not be loaded.`} error={state.error} onRetry={reload} />;
  return <>{children(state.data)}</>;
}
