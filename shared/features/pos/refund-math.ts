/**
 * What a refund of part of a sale line pays back, as post_refund computes it (ADR 0171): from cumulative quantities,
 * what the refunded quantity is worth after this part (rounded half away from zero) less what was already paid
 * back, so the parts never add up to more than the line and the last part takes exactly what remains.
 */
import { roundHalfAway } from './cart';

export interface RefundLine { line_no: number; qty: number; line_total: number; refunded: number; refundedAmount?: number }

export function refundLineAmount(line: RefundLine, qty: number): number {
  if (qty <= 0) return 0;
  const paid = line.refundedAmount ?? roundHalfAway((line.line_total * line.refunded) / line.qty);
  const after = Math.round((line.refunded + qty) * 1000) / 1000;
  const worth = after >= line.qty ? line.line_total : roundHalfAway((line.line_total * after) / line.qty);
  return Math.max(0, Math.min(worth, line.line_total) - paid);
}

/** The tender a refund goes back to by default: the one that paid most (post_refund's rule). */
export function originalTender(tenders: { kind: string; amount: number }[]): 'cash' | 'card' | 'other' {
  const top = [...tenders].sort((a, b) => b.amount - a.amount || a.kind.localeCompare(b.kind))[0];
  return top?.kind === 'card' || top?.kind === 'other' ? top.kind : 'cash';
}

/**
 * The role a refund at a shared till (ADR 0300) is checked against: post_refund reads the signed-in session's
 * role, while the panel's manager prompt follows the person switched in. A cashier on either side makes it a
 * cashier's refund, so the prompt appears whenever the server would refuse a refund without a manager.
 */
export function refundRole(signedInRole: string, sellingRole: string): string {
  return signedInRole === 'cashier' || sellingRole === 'cashier' ? 'cashier' : sellingRole;
}
