/**
 * What a refund of part of a sale line pays back, as post_refund computes it: the line's share rounded half away
 * from zero, and the last part of a line takes what remains so the parts add up to the line exactly.
 */
import { roundHalfAway } from './cart';

export interface RefundLine { line_no: number; qty: number; line_total: number; refunded: number; refundedAmount?: number }

export function refundLineAmount(line: RefundLine, qty: number): number {
  if (qty <= 0) return 0;
  const left = Math.round((line.qty - line.refunded) * 1000) / 1000;
  if (qty >= left) return line.line_total - (line.refundedAmount ?? roundHalfAway((line.line_total * line.refunded) / line.qty));
  return roundHalfAway((line.line_total * qty) / line.qty);
}

/** The tender a refund goes back to by default: the one that paid most (post_refund's rule). */
export function originalTender(tenders: { kind: string; amount: number }[]): 'cash' | 'card' | 'other' {
  const top = [...tenders].sort((a, b) => b.amount - a.amount || a.kind.localeCompare(b.kind))[0];
  return top?.kind === 'card' || top?.kind === 'other' ? top.kind : 'cash';
}
