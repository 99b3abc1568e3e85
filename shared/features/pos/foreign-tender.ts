import { foreignChange, foreignDue, foreignValue } from '../../lib/exchange-rate';
import { cashRemaining, tenderState, type Tender } from './cart';
import type { ExchangeRate } from './exchange-rates-cache';

/**
 * A cash tender in another currency (issue 29, ADR 0395): the cashier types what the customer hands over in that
 * currency; it pays at most what is left for cash (in the store's currency, after the cash rounding) and the rest
 * of its value is the change, in the store's currency, rounded down to the store's cash step. post_sale checks the
 * same figures against the rate the tender names (private.sale_foreign_cash_checked).
 */
export interface ForeignCash {
  currency: string;
  rateId: string;
  rate: string;
  /** What was handed over, in the foreign currency's minor units. */
  tendered: number;
}

/** What the customer is asked for in the foreign currency: what is left for cash, converted and rounded up. */
export function foreignCashDue(total: number, tenders: Tender[], rate: ExchangeRate, base: string, step = 0): number {
  return foreignDue(cashRemaining(total, tenders, step), rate.rate, rate.currency, base);
}

/** Adds the foreign cash handed over (null: exactly what is due); a message for the cashier when it cannot. */
export function addForeignTender(total: number, tenders: Tender[], given: number | null, rate: ExchangeRate, base: string,
  step = 0): Tender[] | string {
  const { remaining, complete } = tenderState(total, tenders, step);
  const forCash = cashRemaining(total, tenders, step);
  if (complete || remaining <= 0 || forCash <= 0) return 'The sale is already paid';
  const handed = given ?? foreignDue(forCash, rate.rate, rate.currency, base);
  if (!Number.isInteger(handed) || handed <= 0) return 'Enter an amount above zero';
  const value = foreignValue(handed, rate.rate, rate.currency, base);
  if (value <= 0) return `That much ${rate.currency} is worth nothing in ${base}`;
  const amount = Math.min(value, forCash);
  const change = foreignChange(value, amount, step);
  return [...tenders, { kind: 'cash', amount, tendered: amount + change,
    foreign: { currency: rate.currency, rateId: rate.id, rate: rate.rate, tendered: handed } }];
}

/** The change the foreign cash being typed would give (for the live figure), in the store's currency. */
export function foreignChangeDue(total: number, tenders: Tender[], given: number | null, rate: ExchangeRate, base: string,
  step = 0): number {
  if (given === null || given <= 0) return 0;
  const forCash = cashRemaining(total, tenders, step);
  const value = foreignValue(given, rate.rate, rate.currency, base);
  return foreignChange(value, Math.min(value, forCash), step);
}

/** A tender as post_sale takes it: a foreign one with its currency, the rate it names and what was handed over. */
export function tenderPayload(t: Tender) {
  return {
    kind: t.kind, amount: t.amount, tendered: t.tendered,
    ...(t.foreign ? { currency: t.foreign.currency, rate_id: t.foreign.rateId, rate: t.foreign.rate, foreign_tendered: t.foreign.tendered } : {}),
  };
}
