// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/admin.sql: admin_business_deletions() admin_business_erasure_proofs()
//     admin_set_legal_hold()
// SQL: supabase/migrations/20261201190000_business_deletion.sql (docs/adr/0220).
import { z } from 'zod';
import type { StorewiseClient } from '../../../lib/supabase-client';

const deletionRow = z.object({
  business_id: z.string(),
  business_name: z.string(),
  state: z.enum(['pending', 'erasing', 'retained', 'purged']),
  requested_at: z.string(),
  erase_after: z.string(),
  legal_hold: z.boolean(),
  legal_hold_reason: z.string().nullable(),
  erased_at: z.string().nullable(),
  retain_until: z.string().nullable(),
  purged_at: z.string().nullable(),
});
export type DeletionRow = z.infer<typeof deletionRow>;

const proofRow = z.object({ what: z.string(), rows_affected: z.number(), at: z.string() });
export type ProofRow = z.infer<typeof proofRow>;

export async function fetchDeletionQueue(supabase: StorewiseClient): Promise<DeletionRow[]> {
  const { data, error } = await supabase.rpc('admin_business_deletions');
  if (error) throw new Error(error.message);
  return z.array(deletionRow).parse(data ?? []);
}

export async function fetchErasureProofs(supabase: StorewiseClient, businessId: string): Promise<ProofRow[]> {
  const { data, error } = await supabase.rpc('admin_business_erasure_proofs', { _business_id: businessId });
  if (error) throw new Error(error.message);
  return z.array(proofRow).parse(data ?? []);
}

export async function setLegalHold(supabase: StorewiseClient, businessId: string, hold: boolean, reason?: string): Promise<void> {
  const { error } = await supabase.rpc('admin_set_legal_hold', { _business_id: businessId, _hold: hold, ...(reason ? { _reason: reason } : {}) });
  if (error) throw new Error(error.message);
}
