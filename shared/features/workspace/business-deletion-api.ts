// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/workspace.sql: business_deletion_status()
// SQL: supabase/migrations/20261201190000_business_deletion.sql; function: supabase/functions/business-deletion
// (docs/adr/0220).
import { useCallback, useEffect, useState } from 'react';
import { z } from 'zod';
import { sharedRequest } from '../../lib/shared-request';
import type { StorewiseClient } from '../../lib/supabase-client';

/** A pending (or begun) deletion of the business, as business_deletion_status returns it. */
export const deletionStatusSchema = z.object({
  state: z.enum(['pending', 'erasing']),
  requested_at: z.string(),
  erase_after: z.string(),
}).nullable();
export type DeletionStatus = z.infer<typeof deletionStatusSchema>;

/** The banner and the Business page's card ask at the same moment: one request answers both. */
export function fetchDeletionStatus(supabase: StorewiseClient, businessId: string): Promise<DeletionStatus> {
  return sharedRequest(supabase, `business-deletion:${businessId}`, async () => {
    const { data, error } = await supabase.rpc('business_deletion_status', { _business_id: businessId });
    if (error) throw new Error(error.message);
    return deletionStatusSchema.parse(data ?? null);
  });
}

/** The function's sentence for a refusal (wrong name, not the owner, second factor needed...). */
async function refusalOf(error: unknown): Promise<string> {
  const context = (error as { context?: Response }).context;
  const body = context && typeof context.json === 'function'
    ? ((await context.json().catch(() => ({}))) as { error?: string })
    : {};
  return body.error ?? 'The request failed. Try again shortly.';
}

/** Asks for the deletion (30 days pending); the subscription stops renewing. Returns a refusal's sentence or null. */
export async function requestBusinessDeletion(supabase: StorewiseClient, businessId: string, confirmName: string): Promise<string | null> {
  const { error } = await supabase.functions.invoke('business-deletion', {
    method: 'POST', body: { action: 'request', business_id: businessId, confirm_name: confirmName },
  });
  return error ? refusalOf(error) : null;
}

export async function cancelBusinessDeletion(supabase: StorewiseClient, businessId: string): Promise<string | null> {
  const { error } = await supabase.functions.invoke('business-deletion', {
    method: 'POST', body: { action: 'cancel', business_id: businessId },
  });
  return error ? refusalOf(error) : null;
}

const changed = 'storewise:business-deletion-changed';

/** Tells every banner and card on the page that a deletion was asked for or canceled. */
export const announceDeletionChange = () => window.dispatchEvent(new Event(changed));

/** The deletion status of a business, reloaded when a card or banner on the page changes it. */
export function useDeletionStatus(supabase: StorewiseClient, businessId: string) {
  const [status, setStatus] = useState<DeletionStatus>(null);
  const load = useCallback(() => {
    fetchDeletionStatus(supabase, businessId).then(setStatus, () => setStatus(null));
  }, [supabase, businessId]);
  useEffect(() => {
    load();
    window.addEventListener(changed, load);
    return () => window.removeEventListener(changed, load);
  }, [load]);
  return status;
}
