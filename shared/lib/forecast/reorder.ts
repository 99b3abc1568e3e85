/**
 * Reorder suggestion: enough stock to cover the forecast demand over the supplier's lead time plus a safety
 * stock, minus what is on hand and already on order, rounded up to whole units (or whole packs).
 *
 *   order = ceil( sum(forecast over lead time) + z * sigma * sqrt(lead time) - on hand - on order ), >= 0
 *
 * sigma is the standard deviation of one day's forecast error; over L independent days it grows as sqrt(L).
 * z = 1.65 is a 95 % cycle service level under a normal error.
 */

export interface ReorderInput {
  /** Expected units per day from today on; must cover the lead time. */
  forecast: readonly number[];
  leadTimeDays: number;
  sigma: number;
  onHand: number;
  onOrder: number;
  /** Service level factor (default 1.65, 95 %). */
  z?: number;
  /** Order in multiples of this many units (default 1). */
  packSize?: number;
}

export interface ReorderSuggestion {
  demandOverLeadTime: number;
  safetyStock: number;
  quantity: number;
}

export function suggestReorder(input: ReorderInput): ReorderSuggestion {
  const { forecast, leadTimeDays, sigma, onHand, onOrder } = input;
  const z = input.z ?? 1.65;
  const packSize = input.packSize ?? 1;
  if (!Number.isInteger(leadTimeDays) || leadTimeDays < 0) throw new RangeError('lead time must be whole days >= 0');
  if (forecast.length < leadTimeDays) throw new RangeError('the forecast does not cover the lead time');
  if (!(packSize >= 1) || !Number.isInteger(packSize)) throw new RangeError('pack size must be a whole number >= 1');
  if (![sigma, onHand, onOrder, z].every(Number.isFinite) || sigma < 0) throw new RangeError('invalid reorder input');

  const demandOverLeadTime = forecast.slice(0, leadTimeDays).reduce((a, b) => a + b, 0);
  const safetyStock = z * sigma * Math.sqrt(leadTimeDays);
  // Round away floating-point dust (1e-9) before ceil so that an exact 12 does not become 13.
  const needed = Math.max(0, demandOverLeadTime + safetyStock - onHand - onOrder);
  const units = Math.ceil(Math.round(needed * 1e6) / 1e6);
  return { demandOverLeadTime, safetyStock, quantity: Math.ceil(units / packSize) * packSize };
}
