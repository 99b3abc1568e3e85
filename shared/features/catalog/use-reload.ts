import { minorToPlain, type Currency } from '../../lib/money';
import { useSupabase } from '../../lib/platform-context';
import { useKeyedLoad, type LoadState } from '../../lib/use-keyed-load';
import { fetchCatalogCurrency } from './catalog-api';

export type ReloadState<T> = LoadState<T>;

/**
 * Loads a screen's data, again when `key` changes or on reload(); answers to an older key are dropped. Keeps
 * showing the last data while reloading after a save (no flash of "Loading").
 */
export function useReload<T>(key: string, load: () => Promise<T>): [ReloadState<T>, () => void] {
  return useKeyedLoad(key, load, 'Catalog', true);
}

/**
 * The currency of the business's stores (null when they use several: amounts then have two places), loaded when the
 * business changes. Whatever reads or writes amounts (CSV export, import check, markdown) waits for 'ready': before it, a
 * JPY or KWD amount would be read or written 100 or 10 times off.
 */
export function useCatalogCurrency(businessId: string): [ReloadState<Currency>, () => void] {
  const supabase = useSupabase();
  // Not useReload: its last answer (another business's currency) must not stand in while the new one loads.
  return useKeyedLoad(businessId, () => fetchCatalogCurrency(supabase, businessId), 'Catalog currency');
}

/** Minor units as a plain decimal in the currency's digits ("1250" -> "12.50"); two places without a currency. */
export const formatPlain = (minor: number | string, currency: Currency = null) => minorToPlain(minor, currency);
