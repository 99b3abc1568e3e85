/**
 * Products and prices at the payment provider from the plan catalog (supabase/functions/_shared/billing/plans.ts):
 * one product per self-service plan and one annual price each (the per-month price x 12, as the pricing says
 * "billed annually"), found again by lookup key so running it twice changes nothing. Used by
 * scripts/billing-setup.ts on a real Stripe account and by the local stack on its test provider.
 */
import type Stripe from 'stripe';
import { sellablePlans } from '../supabase/functions/_shared/billing/plans.ts';

export async function ensurePlanPrices(stripe: Stripe, log: (line: string) => void = () => {}): Promise<void> {
  const existing = await stripe.prices.list({ lookup_keys: sellablePlans.map((p) => p.lookup_key), active: true, limit: 100 });
  for (const plan of sellablePlans) {
    const annual = plan.monthly_cents * 12;
    const found = existing.data.find((price) => price.lookup_key === plan.lookup_key);
    if (found && found.unit_amount === annual && found.recurring?.interval === 'year') {
      log(`${plan.plan}: price ${found.id} already set`);
      continue;
    }
    const product = await stripe.products.create({ name: `Storewise ${plan.plan}`, metadata: { plan: plan.plan } });
    // transfer_lookup_key moves the key from an older price with another amount to this one.
    const price = await stripe.prices.create({
      product: product.id, unit_amount: annual, currency: 'usd', recurring: { interval: 'year' },
      lookup_key: plan.lookup_key, transfer_lookup_key: true, metadata: { plan: plan.plan },
    });
    log(`${plan.plan}: created ${product.id} and ${price.id} (${(annual / 100).toFixed(2)} USD a year)`);
  }
}
