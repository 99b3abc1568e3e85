// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/reports.sql: flagged_sales() review_sale()
import { z } from 'zod';
import type { StorewiseClient } from '../../lib/supabase-client';

/**
 * Sales flagged for review (supabase/migrations/20261123170000_sale_reviews.sql): what an offline register
 * kept that the server would have refused online, and the review an owner or manager records for each.
 */
export const flaggedSaleSchema = z.object({
  sale_id: z.guid(),
  store_id: z.guid(),
  store_name: z.string(),
  receipt_number: z.string(),
  cashier_name: z.string().nullable(),
  occurred_at: z.string(),
  recorded_at: z.string(),
  total: z.coerce.number(),
  currency: z.string(),
  offline: z.boolean(),
  review_reasons: z.array(z.string()),
  reviewed_at: z.string().nullable(),
  reviewer_name: z.string().nullable(),
  note: z.string().nullable(),
  total_count: z.coerce.number(),
});
export type FlaggedSale = z.infer<typeof flaggedSaleSchema>;

export const reviewNoteSchema = z.object({
  note: z.string().trim().min(1, 'Write what you found.').max(500, 'At most 500 characters.'),
});
export type ReviewNote = z.infer<typeof reviewNoteSchema>;

const reasonTexts: Record<string, string> = {
  price_mismatch: 'sold at a price the catalog no longer had',
  discount_over_limit: 'discount above the cashier\'s limit',
  tenders_mismatch: 'payments did not add up to the total',
  foreign_cash_mismatch: 'foreign cash at a rate or conversion the business does not have',
  no_open_shift: 'no open shift on the register',
  register_archived: 'register was archived',
  unknown_customer: 'customer not found',
  clock_ahead: 'register clock was ahead',
  receipt_number_reassigned: 'receipt number was taken: a new one was given',
  negative_stock: 'stock went below zero',
  zero_price_line: 'priced to nothing (too small a quantity)',
  after_close: 'arrived after its shift was closed (shown apart on the Z report)',
  time_before_shift: 'register clock was before the shift opened',
  time_after_close: 'register clock was after the shift closed',
  no_approval: 'refunded without a manager\'s approval (the register was offline)',
  sale_not_synced: 'the sale had not reached the server yet',
  over_refund: 'more than was left to refund: kept to what was left',
  till_switch_unverified: 'the offline PIN switch to another cashier could not be verified: kept under the signed-in person',
  expired_lot: 'an expired lot sold without a manager\'s approval (the register was offline)',
  recalled_lot: 'a recalled lot sold (the register was offline): see the recall\'s report',
  prescription_missing: 'a prescription-only item sold without a valid prescription recorded (the register was offline)',
};

/** A reason as the database writes it ("price_mismatch:2") in words ("line 2: sold at a price ..."). */
export function describeReason(reason: string): string {
  const [code = '', detail] = reason.split(':', 2);
  const text = reasonTexts[code] ?? code.replaceAll('_', ' ');
  if (!detail) return text;
  return /^\d+$/.test(detail) ? `line ${detail}: ${text}` : text;
}

export async function fetchFlaggedSales(
  supabase: StorewiseClient,
  args: { businessId: string; storeId: string; includeReviewed: boolean },
): Promise<FlaggedSale[]> {
  const { data, error } = await supabase.rpc('flagged_sales', {
    _business_id: args.businessId,
    _include_reviewed: args.includeReviewed,
    _limit: 200,
    ...(args.storeId ? { _store_id: args.storeId } : {}),
  });
  if (error) throw new Error(error.message);
  return flaggedSaleSchema.array().parse(data ?? []);
}

export async function reviewSale(supabase: StorewiseClient, saleId: string, values: ReviewNote): Promise<void> {
  const { note } = reviewNoteSchema.parse(values);
  const { error } = await supabase.rpc('review_sale', { _sale_id: saleId, _note: note });
  if (error) throw new Error(error.message);
}
