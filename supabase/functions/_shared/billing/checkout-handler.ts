/**
 * billing-checkout: buy a plan or change it. Without a live subscription: the business's provider customer is
 * made once (stored under the business's key; a double click reuses it), then one hosted checkout shared by
 * every tab of the same claim. With one: an upgrade updates that subscription now with proration (never a
 * second subscription), a downgrade applies from the next period and the paid plan's limits stay until then.
 */
import { z } from 'zod';
import { LIVE, ownerOf } from './authorize.ts';
import { HttpRefusal, json, readBody } from './http.ts';
import { TRIAL_DAYS, planRank } from './plans.ts';
import type { BillingProvider } from './provider.ts';
import { serveBilling, type Log } from './serve.ts';
import type { BillingStore, OwnerContext } from './store.ts';
import { syncCustomer, syncStamp } from './sync.ts';

const body = z.object({
  plan: z.enum(['Starter', 'Growth', 'Pro'], { error: 'must be Starter, Growth or Pro (Enterprise is sold by our sales team)' }),
  business_id: z.uuid().optional(),
  /** Only say what confirming would charge now; change nothing. */
  preview: z.boolean().optional(),
});

/** The trial a first subscription gets: the platform setting (docs/adr/0260), none once the business had one. */
const trialDaysFor = (owner: OwnerContext): number => (owner.trial_available ? (owner.trial_days ?? TRIAL_DAYS) : 0);

export function createCheckoutHandler(deps: { provider: BillingProvider; store: BillingStore; siteUrl: string; log: Log }) {
  const { provider, store } = deps;
  return serveBilling('billing-checkout', deps.log, async (request) => {
    const input = await readBody(request, body);
    const owner = await ownerOf(request, store, input.business_id);
    const live = owner.subscription && LIVE.includes(owner.subscription.status) ? owner.subscription : null;
    if (input.preview) {
      const upgrade = live !== null && planRank(input.plan) > planRank(live.plan);
      const due = live && upgrade && live.status === 'active' ? await provider.previewPlanChange(live.id, input.plan) : 0;
      return json(200, { kind: 'preview', plan: input.plan, amount_due_cents: due, new_subscription: live === null });
    }
    if (live) {
      if (live.plan === input.plan) throw new HttpRefusal(409, `You are already on the ${input.plan} plan.`);
      if (live.status === 'past_due') {
        throw new HttpRefusal(409, 'Your last payment failed. Update your payment method before changing plan.');
      }
      const upgrade = planRank(input.plan) > planRank(live.plan);
      const updated = await provider.changePlan(live.id, input.plan, upgrade ? 'now' : 'period_end');
      const now = syncStamp();
      await store.applySubscription(updated, now);
      // A paid period keeps the plan that was paid for until it ends (a trial has nothing to carry).
      if (!upgrade && live.status === 'active') await store.setCarry(live.id, live.plan, updated.current_period_end);
      if (owner.customer_id) await syncCustomer(provider, store, owner.customer_id, now);
      return json(200, { kind: upgrade ? 'upgraded' : 'downgrade_scheduled', plan: input.plan,
        effective_at: upgrade || live.status !== 'active' ? now : updated.current_period_end });
    }
    const customer = owner.customer_id ?? await store.saveCustomer(owner.business_id, await provider.ensureCustomer({
      businessId: owner.business_id, email: owner.email, name: owner.business_name,
      idempotencyKey: `storewise-customer-${owner.business_id}`,
    }));
    const claim = await store.claimCheckout(owner.business_id, input.plan);
    const session = await provider.createCheckout({
      customer, businessId: owner.business_id, plan: input.plan, trialDays: trialDaysFor(owner),
      successUrl: `${deps.siteUrl}/dashboard/billing/return?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${deps.siteUrl}/dashboard/billing?checkout=canceled`,
      idempotencyKey: `storewise-checkout-${claim}`,
    });
    return json(200, { kind: 'checkout', url: session.url, trial_days: trialDaysFor(owner) });
  });
}
