/**
 * Hosted setup of billing on a Stripe account (README, "Billing on hosted Supabase"):
 *   STRIPE_SECRET_KEY=sk_live_... tsx scripts/billing-setup.ts https://<project-ref>.supabase.co
 * creates the plan catalog's products and prices (idempotent) and, given the project URL, the webhook
 * endpoint at <project>/functions/v1/billing-webhook, printing its signing secret once for
 * `supabase secrets set STRIPE_WEBHOOK_SECRET=...`. The key comes from the environment only.
 */
import Stripe from 'stripe';
import { ensurePlanPrices } from './billing-prices';

async function main(): Promise<void> {
  const key = process.env.STRIPE_SECRET_KEY;
  if (!key) {
    console.error('Set STRIPE_SECRET_KEY in the environment (never on the command line).');
    process.exit(1);
  }
  const stripe = new Stripe(key);
  await ensurePlanPrices(stripe, (line) => console.log(line));
  const project = process.argv[2];
  if (!project) return;
  const url = `${project.replace(/\/+$/, '')}/functions/v1/billing-webhook`;
  const endpoints = await stripe.webhookEndpoints.list({ limit: 100 });
  if (endpoints.data.some((endpoint) => endpoint.url === url)) {
    console.log(`Webhook endpoint ${url} already exists (its secret is shown in the Stripe dashboard).`);
    return;
  }
  const endpoint = await stripe.webhookEndpoints.create({ url, enabled_events: ['*'] });
  console.log(`Webhook endpoint created: ${url}`);
  console.log(`Now run: supabase secrets set STRIPE_WEBHOOK_SECRET=${endpoint.secret ?? '(see the Stripe dashboard)'}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
