/**
 * billing-reconcile: the return from checkout. The webhook may still be on its way, so the session is fetched
 * server-side and, when complete, its subscription, invoices and cards are written now: the plan is active
 * the moment the owner lands back. Without a session id it re-syncs the owner's customer (the dashboard's
 * "refresh" after the provider was down).
 */
import { z } from 'zod';
import { ownerOf } from './authorize.ts';
import { HttpRefusal, json, readBody } from './http.ts';
import type { BillingProvider } from './provider.ts';
import { serveBilling, type Log } from './serve.ts';
import type { BillingStore } from './store.ts';
import { syncCustomer, syncStamp } from './sync.ts';

const body = z.object({
  session_id: z.string().regex(/^cs_[A-Za-z0-9_]{4,250}$/, 'is not a checkout session id').optional(),
  business_id: z.uuid().optional(),
});

export function createReconcileHandler(deps: { provider: BillingProvider; store: BillingStore; log: Log }) {
  const { provider, store } = deps;
  return serveBilling('billing-reconcile', deps.log, async (request) => {
    const input = await readBody(request, body);
    const owner = await ownerOf(request, store, input.business_id);
    let checkout: string | null = null;
    if (input.session_id) {
      const session = await provider.fetchCheckout(input.session_id);
      // Someone else's session id answers like an unknown one.
      if (!owner.customer_id || session.customer !== owner.customer_id) {
        throw new HttpRefusal(404, 'That checkout was not found on this account.');
      }
      checkout = session.status;
    }
    if (!owner.customer_id) return json(200, { checkout: null, synced: false });
    await syncCustomer(provider, store, owner.customer_id, syncStamp());
    return json(200, { checkout, synced: true });
  });
}
