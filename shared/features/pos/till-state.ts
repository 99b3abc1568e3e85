import type { CartEntry, Discount } from './cart';
import type { Customer } from './pos-api';

/** Everything that makes up the sale being rung up; parked as a whole (IndexedDB) and resumed as a whole. */
export interface CartState {
  entries: CartEntry[];
  cartDiscount?: Discount | undefined;
  customer?: Customer | null;
  /** A manager's approval for the discounts, up to a percent of any line (ADR 0131). */
  approval?: { id: string; percent: number; at: number } | null;
  /** A manager's approval to sell the cart's expired lots (ADR 0360). */
  lotApproval?: { id: string; at: number } | null;
}

export const emptyCart: CartState = { entries: [] };

/** A label for a parked cart: the customer, else its first item and how many lines. */
export function parkLabel(cart: CartState): string {
  const first = cart.entries[0]?.item.name ?? 'Empty cart';
  const more = cart.entries.length > 1 ? ` + ${cart.entries.length - 1} more` : '';
  return cart.customer ? `${cart.customer.name}: ${first}${more}` : `${first}${more}`;
}
