// The payment provider's webhook (docs/adr/0190). Deployed with --no-verify-jwt (config.toml): the provider
// sends no Supabase JWT; the Stripe-Signature over the raw body is the check.
import { billingRuntime } from '../_shared/billing/runtime.ts';
import { createWebhookHandler } from '../_shared/billing/webhook-handler.ts';

Deno.serve(createWebhookHandler(billingRuntime((name) => Deno.env.get(name))));
