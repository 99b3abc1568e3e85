// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/inventory.sql: lot_list() recall_report() release_recall() start_recall() recalls
import { z } from 'zod';
import type { Database } from '../../lib/database.types';
import type { StorewiseClient } from '../../lib/supabase-client';
import { unwrap } from './inventory-api';

export type LotRow = Database['public']['Functions']['lot_list']['Returns'][number];
export interface RecallRow { id: string; reason: string; created_at: string }

/** The recall form; start_recall checks the same (1 to 200 lots of the business, a reason of 1 to 500 characters). */
export const recallSchema = z.object({
  lotIds: z.array(z.string().uuid()).min(1, 'Tick at least one lot to recall').max(200, 'Choose at most 200 lots for one recall'),
  reason: z.string().trim().min(1, 'Say why the lots are recalled (for example the supplier\u2019s notice)')
    .max(500, 'Keep the reason under 500 characters'),
});
export type RecallValues = z.infer<typeof recallSchema>;

/** Releasing a recall's lots back to sale; release_recall checks the same (lots of the recall, a reason). */
export const releaseSchema = z.object({
  lotIds: z.array(z.string().uuid()).min(1, 'Tick at least one lot to release').max(200, 'Choose at most 200 lots at once'),
  reason: z.string().trim().min(1, 'Say why the lots can be sold again (for example the lab\u2019s clearance)')
    .max(500, 'Keep the reason under 500 characters'),
});
export type ReleaseValues = z.infer<typeof releaseSchema>;

const num = z.coerce.number();
/** recall_report's answer, checked at the edge. */
export const recallReportSchema = z.object({
  recall: z.object({ id: z.string(), reason: z.string(), created_at: z.string(), created_by_name: z.string().nullable() }),
  lots: z.array(z.object({
    lot_id: z.string(), lot_number: z.string(), expires_on: z.string().nullable(), product_name: z.string(),
    sku: z.string().nullable(), on_hand_at_recall: num,
    quarantined: z.boolean(), released_at: z.string().nullable(), release_reason: z.string().nullable(),
    released_by_name: z.string().nullable(),
    stock: z.array(z.object({ store_id: z.string(), store_name: z.string(), qty: num })),
  })),
  sales: z.array(z.object({
    sale_id: z.string(), receipt_number: z.string(), occurred_at: z.string(), store_name: z.string(),
    lot_number: z.string(), product_name: z.string(), qty: num, refunded_qty: num,
    customer: z.object({ name: z.string(), phone: z.string().nullable(), email: z.string().nullable() }).nullable(),
  })),
});
export type RecallReport = z.infer<typeof recallReportSchema>;

export async function fetchLots(supabase: StorewiseClient, businessId: string, query: string): Promise<LotRow[]> {
  return unwrap(await supabase.rpc('lot_list', { _business_id: businessId, _query: query, _limit: 200 })) ?? [];
}

export async function fetchRecalls(supabase: StorewiseClient, businessId: string): Promise<RecallRow[]> {
  return unwrap(await supabase.from('recalls').select('id, reason, created_at').eq('business_id', businessId)
    .order('created_at', { ascending: false }).limit(50)) ?? [];
}

export async function startRecall(supabase: StorewiseClient, businessId: string, values: RecallValues): Promise<string> {
  const parsed = recallSchema.parse(values);
  return unwrap(await supabase.rpc('start_recall', { _business_id: businessId, _lot_ids: parsed.lotIds, _reason: parsed.reason }));
}

export async function fetchRecallReport(supabase: StorewiseClient, recallId: string): Promise<RecallReport> {
  return recallReportSchema.parse(unwrap(await supabase.rpc('recall_report', { _recall_id: recallId })));
}

/** Releases the ticked lots of a recall from quarantine (owners and managers; audited); returns how many. */
export async function releaseRecall(supabase: StorewiseClient, recallId: string, values: ReleaseValues): Promise<number> {
  const parsed = releaseSchema.parse(values);
  return unwrap(await supabase.rpc('release_recall', { _recall_id: recallId, _reason: parsed.reason, _lot_ids: parsed.lotIds }));
}
