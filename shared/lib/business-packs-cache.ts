// SQL (supabase/schemas, docs/adr/0250): workspace.sql businesses.packs
import type { StorewiseClient } from './supabase-client';

interface Entry {
  load: Promise<string[]>;
  /** Set once the load answered, so a screen mounted later starts with the packs instead of a loading pass. */
  packs?: string[];
}

/**
 * One load of a business's packs per client (one client per signed-in session), shared by every screen that asks:
 * the products, product, count and report screens each offer a pack's tools, and each used to query on every mount.
 */
const caches = new WeakMap<StorewiseClient, Map<string, Entry>>();
const listeners = new Set<(businessId: string) => void>();

function cacheOf(supabase: StorewiseClient): Map<string, Entry> {
  let cache = caches.get(supabase);
  if (!cache) {
    cache = new Map();
    caches.set(supabase, cache);
  }
  return cache;
}

/** The business's packs, read once; a failed read reads as no packs and is not kept, so the next screen asks again. */
export function loadBusinessPacks(supabase: StorewiseClient, businessId: string): Promise<string[]> {
  const cache = cacheOf(supabase);
  const cached = cache.get(businessId);
  if (cached) return cached.load;
  const entry: Entry = { load: Promise.resolve([]) };
  entry.load = (async () => {
    const { data, error } = await supabase.from('businesses').select('packs').eq('id', businessId).maybeSingle();
    if (error) {
      console.error('Packs load failed:', error.message);
      if (cache.get(businessId) === entry) cache.delete(businessId);
      return [];
    }
    entry.packs = data?.packs ?? [];
    return entry.packs;
  })();
  cache.set(businessId, entry);
  return entry.load;
}

/** The packs already loaded for the business, or undefined. */
export function peekBusinessPacks(supabase: StorewiseClient, businessId: string): string[] | undefined {
  return caches.get(supabase)?.get(businessId)?.packs;
}

/** A pack was switched (the packs card): the new list replaces the cached one and mounted screens follow it. */
export function businessPacksChanged(supabase: StorewiseClient, businessId: string, packs: string[]): void {
  cacheOf(supabase).set(businessId, { load: Promise.resolve(packs), packs });
  for (const listener of listeners) listener(businessId);
}

/** Calls `listener` with the business id whenever its packs change; returns the unsubscribe. */
export function onBusinessPacksChanged(listener: (businessId: string) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
