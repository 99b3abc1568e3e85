// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/reports.sql: flagged_shifts() review_shift()
import { z } from 'zod';
import type { StorewiseClient } from '../../lib/supabase-client';

/**
 * Shifts opened in conflict (supabase/migrations/20261126110000_pos_catalog_delta_and_shift_reviews.sql, ADR 0169):
 * a register opened a shift offline while another was open on it; the server kept it, flagged. Owners and managers
 * see each beside the shift it overlapped and resolve it with a reason.
 */
export const flaggedShiftSchema = z.object({
  shift_id: z.guid(),
  store_id: z.guid(),
  store_name: z.string(),
  register_name: z.string(),
  cashier_name: z.string().nullable(),
  opened_at: z.string(),
  closed_at: z.string().nullable(),
  opening_float: z.coerce.number(),
  sales_count: z.coerce.number(),
  gross: z.coerce.number(),
  expected_cash: z.coerce.number().nullable(),
  counted_total: z.coerce.number().nullable(),
  difference: z.coerce.number().nullable(),
  currency: z.string(),
  review_reasons: z.array(z.string()),
  other_shift_id: z.guid().nullable(),
  other_cashier_name: z.string().nullable(),
  other_opened_at: z.string().nullable(),
  other_closed_at: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  reviewer_name: z.string().nullable(),
  reason: z.string().nullable(),
  total_count: z.coerce.number(),
});
export type FlaggedShift = z.infer<typeof flaggedShiftSchema>;

/** As review_shift checks it: 3 to 500 characters once trimmed. */
export const shiftReasonSchema = z.object({
  reason: z.string().trim().min(3, 'Give a reason (at least 3 characters).').max(500, 'At most 500 characters.'),
});
export type ShiftReason = z.infer<typeof shiftReasonSchema>;

export async function fetchFlaggedShifts(
  supabase: StorewiseClient,
  args: { businessId: string; storeId: string; includeReviewed: boolean },
): Promise<FlaggedShift[]> {
  const { data, error } = await supabase.rpc('flagged_shifts', {
    _business_id: args.businessId,
    _include_reviewed: args.includeReviewed,
    _limit: 200,
    ...(args.storeId ? { _store_id: args.storeId } : {}),
  });
  if (error) throw new Error(error.message);
  return flaggedShiftSchema.array().parse(data ?? []);
}

export async function reviewShift(supabase: StorewiseClient, shiftId: string, values: ShiftReason): Promise<void> {
  const { reason } = shiftReasonSchema.parse(values);
  const { error } = await supabase.rpc('review_shift', { _shift_id: shiftId, _reason: reason });
  if (error) throw new Error(error.message);
}
