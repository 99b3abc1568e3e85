import { minorToPlain, type Currency } from '../../lib/money';
import { useKeyedLoad, type LoadState } from '../../lib/use-keyed-load';

export type ReloadState<T> = LoadState<T>;

/**
 * Loads a screen's data, again when `key` changes or on reload(); answers to an older key are dropped. Keeps
 * showing the last data while reloading after a save (no flash of "Loading").
 */
export function useReload<T>(key: string, load: () => Promise<T>): [ReloadState<T>, () => void] {
  return useKeyedLoad(key, load, 'Catalog', true);
}

/** Minor units as a plain decimal in the currency's digits ("1250" -> "12.50"); two places without a currency. */
export const formatPlain = (minor: number | string, currency: Currency = null) => minorToPlain(minor, currency);
