import { z } from 'zod';
import type { StorewiseClient } from '../../lib/supabase-client';
import { normaliseRate } from '../../lib/exchange-rate';
import { getMeta, setMeta, type PosDatabase } from './outbox';

/**
 * The register's copy of the business's exchange rates into the store's currency (issue 29, ADR 0395), kept on the
 * device like the catalog copy so foreign cash is taken offline. Read with the cashier's own session (RLS: members
 * of the business). The copy holds every version, scheduled ones too, so a register offline when a new rate takes
 * effect switches to it on time; the rate a sale uses is the one in effect when it is made, and the sale names it.
 */
export interface ExchangeRate {
  id: string;
  currency: string;
  /** Store-currency units for one foreign unit, as the exact decimal PostgREST returns. */
  rate: string;
  effectiveFrom: string;
}

const rowSchema = z.object({
  id: z.string().uuid(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  rate: z.union([z.string(), z.number()]).transform(String),
  effective_from: z.string(),
});

/** How many versions of the pair's rates the copy keeps (newest first): plenty for a year of daily changes. */
export const RATE_VERSIONS_KEPT = 500;

export const ratesKey = (businessId: string, base: string) => `rates:${businessId}:${base}`;

/** Reads the business's rates into `base` from the server and keeps them; null when the read failed (offline). */
export async function refreshRates(supabase: StorewiseClient, db: PosDatabase, businessId: string, base: string): Promise<ExchangeRate[] | null> {
  const { data, error } = await supabase.from('exchange_rates').select('id, currency, rate, effective_from')
    .eq('business_id', businessId).eq('base_currency', base)
    .order('effective_from', { ascending: false }).order('created_at', { ascending: false }).limit(RATE_VERSIONS_KEPT);
  if (error) return null;
  const rates = z.array(rowSchema).parse(data ?? []).map((r) => ({ id: r.id, currency: r.currency, rate: normaliseRate(r.rate),
    effectiveFrom: r.effective_from }));
  await setMeta(db, ratesKey(businessId, base), rates);
  return rates;
}

/** The copy on the device (empty before the first read). */
export async function cachedRates(db: PosDatabase, businessId: string, base: string): Promise<ExchangeRate[]> {
  return (await getMeta<ExchangeRate[]>(db, ratesKey(businessId, base))) ?? [];
}

/** Per currency, the rate in effect at `at`: the newest effective_from not after it (the newest row wins a tie). */
export function currentRates(rates: readonly ExchangeRate[], at: Date = new Date()): ExchangeRate[] {
  const best = new Map<string, ExchangeRate>();
  for (const r of rates) {
    if (Date.parse(r.effectiveFrom) > at.getTime()) continue;
    const held = best.get(r.currency);
    if (!held || Date.parse(r.effectiveFrom) > Date.parse(held.effectiveFrom)) best.set(r.currency, r);
  }
  return [...best.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}
