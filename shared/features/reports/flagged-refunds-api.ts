// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/shared.sql: flagged_refunds() review_refund()
import { z } from 'zod';
import type { StorewiseClient } from '../../lib/supabase-client';
import { reviewNoteSchema, type ReviewNote } from './flagged-sales-api';

/**
 * Refunds flagged for review (supabase/migrations/20261127100000_pos_money_rules.sql, ADR 0171): taken on offline
 * terms without a manager's approval, arriving after their shift closed, or clamped. Listed beside flagged sales
 * with the sale each refunds; reviewed by a second person (a manager does not clear their own).
 */
export const flaggedRefundSchema = z.object({
  refund_id: z.guid(),
  store_id: z.guid(),
  store_name: z.string(),
  sale_id: z.guid(),
  sale_receipt_number: z.string(),
  sale_total: z.coerce.number(),
  sale_review_reasons: z.array(z.string()),
  actor_name: z.string().nullable(),
  occurred_at: z.string(),
  recorded_at: z.string(),
  total: z.coerce.number(),
  tender_kind: z.string(),
  currency: z.string(),
  offline: z.boolean(),
  review_reasons: z.array(z.string()),
  reason: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  reviewer_name: z.string().nullable(),
  note: z.string().nullable(),
  total_count: z.coerce.number(),
});
export type FlaggedRefund = z.infer<typeof flaggedRefundSchema>;

export async function fetchFlaggedRefunds(
  supabase: StorewiseClient,
  args: { businessId: string; storeId: string; includeReviewed: boolean },
): Promise<FlaggedRefund[]> {
  const { data, error } = await supabase.rpc('flagged_refunds', {
    _business_id: args.businessId,
    _include_reviewed: args.includeReviewed,
    _limit: 200,
    ...(args.storeId ? { _store_id: args.storeId } : {}),
  });
  if (error) throw new Error(error.message);
  return flaggedRefundSchema.array().parse(data ?? []);
}

export async function reviewRefund(supabase: StorewiseClient, refundId: string, values: ReviewNote): Promise<void> {
  const { note } = reviewNoteSchema.parse(values);
  const { error } = await supabase.rpc('review_refund', { _refund_id: refundId, _note: note });
  if (error) throw new Error(error.message);
}
