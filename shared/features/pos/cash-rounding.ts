/**
 * Cash rounding (issue 29, ADR 0251): where the smallest coins are gone (CHF 0.05, SEK 1), cash pays the amount
 * rounded to the store's step; card and other tenders pay exact. The same rule as the database's
 * private.round_to_step, private.sale_cash_rounding and private.refund_cash_rounding
 * (supabase/migrations/20261201141000_cash_rounding.sql), in integers of minor units: a 0-decimal currency
 * (JPY step 10) and a 3-decimal one (KWD step 5 = 0.005) need nothing special.
 */

/** An amount to the nearest multiple of the step, halves away from zero; a step of 0 or 1 leaves it as it is. */
export function roundToStep(amount: number, step: number): number {
  if (!(step > 1)) return amount;
  const magnitude = Math.floor((2 * Math.abs(amount) + step) / (2 * step)) * step;
  return amount < 0 ? -magnitude : magnitude;
}

export interface RoundingTender {
  kind: 'cash' | 'card' | 'other';
  amount: number;
}

/**
 * What rounding adds to a sale's total (negative: takes off): when a cash tender pays part of it, what is left for
 * cash after the other tenders is rounded. No cash tender, no step or nothing left for cash: 0.
 */
export function saleCashRounding(total: number, tenders: readonly RoundingTender[], step: number): number {
  if (!(step > 1) || !tenders.some((t) => t.kind === 'cash')) return 0;
  const forCash = total - tenders.filter((t) => t.kind !== 'cash').reduce((a, t) => a + t.amount, 0);
  return forCash <= 0 ? 0 : roundToStep(forCash, step) - forCash;
}

/**
 * A cash refund's rounding, over what the sale's earlier refunds returned (their exact totals): refunding a sale
 * in parts pays back, together, what refunding it at once would.
 */
export function refundCashRounding(refundedBefore: number, total: number, step: number, tender: 'cash' | 'card' | 'other'): number {
  if (tender !== 'cash' || !(step > 1)) return 0;
  return roundToStep(refundedBefore + total, step) - roundToStep(refundedBefore, step) - total;
}
