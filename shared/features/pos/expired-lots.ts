import type { CartLine } from './cart';

/**
 * Expired lots at the register (ADR 0360). A line knows its lot's expiry only when a GS1 DataMatrix named it; the
 * server judges every line again when the sale posts (post_sale: an expired lot needs an owner, a manager or a
 * manager's 'expired_lot' approval; offline it is kept and flagged). `today` is the register's local date,
 * yyyy-MM-dd, as the expiry is.
 */
export function expiredLotLines(lines: Pick<CartLine, 'lot'>[], today: string): { number: string; expiry: string }[] {
  return lines.flatMap((l) => (l.lot?.expiry && l.lot.expiry < today ? [{ number: l.lot.number, expiry: l.lot.expiry }] : []));
}

/** Whether this sale waits for a manager's approval before it is paid: a cashier selling an expired lot without one. */
export function needsLotApproval(role: string, expired: readonly unknown[], approval: { id: string } | null | undefined): boolean {
  return expired.length > 0 && role !== 'owner' && role !== 'manager' && !approval;
}

/** The warning under the cart: which lots are expired. */
export function expiredLotText(expired: { number: string; expiry: string }[]): string {
  return expired.map((e) => `Lot ${e.number} expired on ${e.expiry}`).join('; ');
}
