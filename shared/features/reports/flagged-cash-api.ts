// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/reports.sql: flagged_cash_movements()
import { z } from 'zod';
import type { StorewiseClient } from '../../lib/supabase-client';

/**
 * Cash in and out flagged for review (ADR 0402): rung under a PIN switch whose offline proof failed
 * (till_switch_unverified, ADR 0350), so kept under the signed-in person. Listed beside the flagged sales.
 */
export const flaggedCashSchema = z.object({
  movement_id: z.guid(),
  store_id: z.guid(),
  store_name: z.string(),
  register_name: z.string().nullable(),
  shift_id: z.guid(),
  kind: z.enum(['in', 'out']),
  amount: z.coerce.number(),
  currency: z.string(),
  reason: z.string(),
  actor_name: z.string().nullable(),
  claimed_name: z.string().nullable(),
  at: z.string(),
  review_reasons: z.array(z.string()),
  total_count: z.coerce.number(),
});
export type FlaggedCash = z.infer<typeof flaggedCashSchema>;

export async function fetchFlaggedCash(
  supabase: StorewiseClient,
  args: { businessId: string; storeId: string },
): Promise<FlaggedCash[]> {
  const { data, error } = await supabase.rpc('flagged_cash_movements', {
    _business_id: args.businessId,
    _limit: 200,
    ...(args.storeId ? { _store_id: args.storeId } : {}),
  });
  if (error) throw new Error(error.message);
  return flaggedCashSchema.array().parse(data ?? []);
}
