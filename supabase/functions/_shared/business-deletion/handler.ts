/**
 * business-deletion: an owner deletes the business (docs/adr/0220). The rules are in the database's functions; this
 * function adds what the database cannot do, the payment provider:
 * - `request` (the owner's token): request_business_deletion (owner only, the name typed, aal2 when enrolled), then
 *   the live subscription is set to end at its period end, so nothing renews during the 30 days;
 * - `cancel` (the owner's token): cancel_business_deletion, then the subscription renews again;
 * - `run` (the service role key; a schedule calls it daily): for every due deletion, the subscription is canceled
 *   now at the provider, then business_erasure_step is called until the business is erased. Each step is one
 *   transaction in the database, so a run cut off anywhere is finished by the next one. At the 'uploads' step the
 *   business's files are removed through the Storage API (docs/adr/0290).
 * Nothing personal or secret is logged.
 */
import { createClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { HttpRefusal, bearerOf, json, readBody } from '../billing/http.ts';
import type { BillingProvider } from '../billing/provider.ts';
import { serveBilling, type Log } from '../billing/serve.ts';
import type { BillingStore } from '../billing/store.ts';
import { syncStamp } from '../billing/sync.ts';

const body = z.discriminatedUnion('action', [
  z.object({ action: z.literal('request'), business_id: z.uuid(), confirm_name: z.string().max(200) }),
  z.object({ action: z.literal('cancel'), business_id: z.uuid() }),
  z.object({ action: z.literal('run'), batch: z.number().int().min(1).max(10_000).optional() }),
], { error: 'action must be request, cancel or run' });

export interface DeletionDeps {
  supabaseUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  provider: BillingProvider;
  store: BillingStore;
  log: Log;
}

/** The database's refusals, passed on with their sentence and a 4xx. */
const refusals: Record<string, 400 | 403 | 404 | 409> = { '42501': 403, PT404: 404, '22023': 400, P0001: 409 };

function refusalOf(error: { code?: string; message: string }): HttpRefusal | null {
  const status = error.code ? refusals[error.code] : undefined;
  return status ? new HttpRefusal(status, error.message.charAt(0).toUpperCase() + error.message.slice(1) + '.') : null;
}

const options = { auth: { persistSession: false, autoRefreshToken: false } };

export function createDeletionHandler(deps: DeletionDeps) {
  const service = createClient(deps.supabaseUrl, deps.serviceRoleKey, options);

  const serviceRpc = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
    const { data, error } = await service.rpc(name, args);
    if (error) throw refusalOf(error) ?? new Error(`${name}: ${error.code ?? ''}`);
    return data as T;
  };

  /** Renewal on or off for the live subscriptions; the provider being down does not undo the database's answer. */
  const setRenewal = async (businessId: string, renew: boolean): Promise<'updated' | 'none' | 'later'> => {
    const subscriptions = await serviceRpc<string[]>('business_deletion_subscriptions', { _business_id: businessId });
    if (subscriptions.length === 0) return 'none';
    try {
      for (const id of subscriptions) await deps.store.applySubscription(await deps.provider.setCancelAtPeriodEnd(id, !renew), syncStamp());
      return 'updated';
    } catch (error) {
      deps.log(`business-deletion: renewal not changed at the provider (${error instanceof Error ? error.name : 'error'})`);
      return 'later';
    }
  };

  /**
   * The business's files, removed through the Storage API (hosted refuses deletes from storage.objects), a batch
   * at a time, each bucket's count written to the proof log. The database's step stays at 'uploads' until no file
   * is left, so a run cut off here removes the rest next time.
   */
  const removeUploads = async (businessId: string) => {
    for (;;) {
      const files = await serviceRpc<{ bucket_id: string; name: string }[]>('business_erasure_uploads', { _business_id: businessId, _limit: 500 });
      if (files.length === 0) return;
      const byBucket = new Map<string, string[]>();
      for (const file of files) byBucket.set(file.bucket_id, [...(byBucket.get(file.bucket_id) ?? []), file.name]);
      let removed = 0;
      for (const [bucket, names] of byBucket) {
        const { data, error } = await service.storage.from(bucket).remove(names);
        if (error) throw new Error(`uploads: ${bucket} refused the removal`);
        removed += data.length;
        await serviceRpc('business_deletion_record', { _business_id: businessId, _what: `uploads removed from ${bucket}`, _rows: data.length });
      }
      // Files listed but not removable: stop here rather than loop; the next run tries again.
      if (removed === 0) throw new Error('uploads: none of the listed files could be removed');
    }
  };

  const erase = async (businessId: string, batch: number) => {
    const subscriptions = await serviceRpc<string[]>('business_deletion_subscriptions', { _business_id: businessId });
    for (const id of subscriptions) await deps.store.applySubscription(await deps.provider.cancelNow(id), syncStamp());
    await serviceRpc('business_deletion_record', { _business_id: businessId, _what: 'subscription canceled at the provider', _rows: subscriptions.length });
    for (let guard = 0; guard < 100_000; guard += 1) {
      const step = await serviceRpc<string>('business_erasure_step', { _business_id: businessId, _batch: batch });
      if (step === 'contact' || step === 'done') return;
      if (step === 'uploads') await removeUploads(businessId);
    }
    throw new Error('the erasure did not finish');
  };

  return serveBilling('business-deletion', deps.log, async (request) => {
    const input = await readBody(request, body);
    const jwt = bearerOf(request);
    if (!jwt) throw new HttpRefusal(401, 'Sign in first.');
    if (input.action === 'run') {
      if (jwt !== deps.serviceRoleKey) throw new HttpRefusal(403, 'Only the scheduler runs the deletions.');
      const due = await serviceRpc<string[]>('business_deletions_due', {});
      let erased = 0;
      for (const businessId of due) {
        await erase(businessId, input.batch ?? 500);
        erased += 1;
      }
      deps.log(`business-deletion: ${erased} business(es) erased`);
      return json(200, { erased });
    }
    const user = createClient(deps.supabaseUrl, deps.anonKey, { ...options, global: { headers: { Authorization: `Bearer ${jwt}` } } });
    if (input.action === 'request') {
      const { data, error } = await user.rpc('request_business_deletion', { _business_id: input.business_id, _confirm_name: input.confirm_name });
      if (error) throw refusalOf(error) ?? (error.code === 'PGRST301' || error.code === '401' ? new HttpRefusal(401, 'Sign in again.') : new Error(`request: ${error.code ?? ''}`));
      const subscription = await setRenewal(input.business_id, false);
      return json(200, { erase_after: data as string, subscription });
    }
    const { error } = await user.rpc('cancel_business_deletion', { _business_id: input.business_id });
    if (error) throw refusalOf(error) ?? new Error(`cancel: ${error.code ?? ''}`);
    const subscription = await setRenewal(input.business_id, true);
    return json(200, { canceled: true, subscription });
  });
}
