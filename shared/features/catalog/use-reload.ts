import { useKeyedLoad, type LoadState } from '../../lib/use-keyed-load';

export type ReloadState<T> = LoadState<T>;

/**
 * Loads a screen's data, again when `key` changes or on reload(); answers to an older key are dropped. Keeps
 * showing the last data while reloading after a save (no flash of "Loading").
 */
export function useReload<T>(key: string, load: () => Promise<T>): [ReloadState<T>, () => void] {
  return useKeyedLoad(key, load, 'Catalog', true);
}

/** Minor units as a plain decimal with two places ("1250" -> "12.50"). */
export const formatPlain = (minor: number | string) => (Number(minor) / 100).toFixed(2);
