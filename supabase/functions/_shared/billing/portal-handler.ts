/**
 * billing-portal: the owner's card and renewal actions. `portal` opens the provider's portal (add a card,
 * change the default); `auto_renew` is the specification's switch, i.e. cancel at period end and back;
 * `remove_method` removes a card, but never the only card of a live subscription.
 */
import { z } from 'zod';
import { LIVE, ownerOf } from './authorize.ts';
import { HttpRefusal, json, readBody } from './http.ts';
import type { BillingProvider } from './provider.ts';
import { serveBilling, type Log } from './serve.ts';
import type { BillingStore } from './store.ts';
import { syncPaymentMethods, syncStamp } from './sync.ts';

const body = z.discriminatedUnion('action', [
  z.object({ action: z.literal('portal'), business_id: z.uuid().optional() }),
  z.object({ action: z.literal('auto_renew'), auto_renew: z.boolean(), business_id: z.uuid().optional() }),
  z.object({ action: z.literal('remove_method'), payment_method_id: z.string().min(3).max(255), business_id: z.uuid().optional() }),
], { error: 'action must be portal, auto_renew or remove_method' });

export function createPortalHandler(deps: { provider: BillingProvider; store: BillingStore; siteUrl: string; log: Log }) {
  const { provider, store } = deps;
  return serveBilling('billing-portal', deps.log, async (request) => {
    const input = await readBody(request, body);
    const owner = await ownerOf(request, store, input.business_id);
    const customer = owner.customer_id;
    if (!customer) throw new HttpRefusal(409, 'There is no billing account yet: choose a plan first.');
    const live = owner.subscription && LIVE.includes(owner.subscription.status) ? owner.subscription : null;
    if (input.action === 'portal') {
      const session = await provider.createPortalSession({ customer, returnUrl: `${deps.siteUrl}/dashboard/billing?from=portal` });
      return json(200, { url: session.url });
    }
    if (input.action === 'auto_renew') {
      if (!live) throw new HttpRefusal(409, 'There is no subscription to renew: choose a plan first.');
      const updated = await provider.setCancelAtPeriodEnd(live.id, !input.auto_renew);
      await store.applySubscription(updated, syncStamp());
      return json(200, { auto_renew: !updated.cancel_at_period_end });
    }
    const methods = await provider.listPaymentMethods(customer);
    if (!methods.some((m) => m.id === input.payment_method_id)) throw new HttpRefusal(404, 'That payment method is not on this account.');
    if (live && methods.length === 1) {
      throw new HttpRefusal(409, 'This is the only payment method of your subscription. Add another before removing it.');
    }
    await provider.detachPaymentMethod(customer, input.payment_method_id);
    await syncPaymentMethods(provider, store, customer);
    return json(200, { removed: input.payment_method_id });
  });
}
