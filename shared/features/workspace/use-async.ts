import { useKeyedLoad, type LoadState } from '../../lib/use-keyed-load';

export type AsyncState<T> = LoadState<T>;

/** Loads data for a section and reloads on demand or when `key` changes; stale answers are dropped. */
export function useAsync<T>(key: string, load: () => Promise<T>): [AsyncState<T>, () => void] {
  return useKeyedLoad(key, load, 'Business');
}
