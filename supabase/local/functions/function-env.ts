import { createHmac } from 'node:crypto';
import type { ApiKeys } from '../keys/api-keys';

/** The local provider's test keys derive from the stack's JWT secret: stable per install, nothing to copy. */
export function paymentKeys(jwtSecret: string): { secretKey: string; webhookSecret: string } {
  const derive = (label: string) => createHmac('sha256', jwtSecret).update(label).digest('hex').slice(0, 40);
  return { secretKey: `sk_test_local_${derive('stripe secret key')}`, webhookSecret: `whsec_local_${derive('stripe webhook secret')}` };
}

// Secrets an operator may set in the environment, passed on as `supabase secrets set` would (hosted functions
// see only the platform's variables and their own secrets, never the whole host environment).
const passThrough = /^(STRIPE_[A-Z_]+|EMAIL_[A-Z_]+|OUTBOX_SENDER_TOKEN|BILLING_[A-Z_]+)$/;

/** What a function sees: hosted Supabase's variables, the site URL, and the payment provider's keys. */
export function functionEnv(input: { apiUrl: string; siteUrl: string; keys: ApiKeys;
  payments?: { secretKey: string; webhookSecret: string; url: string } }): Record<string, string> {
  const env: Record<string, string> = {
    SUPABASE_URL: input.apiUrl,
    SUPABASE_ANON_KEY: input.keys.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: input.keys.serviceRoleKey,
    SITE_URL: input.siteUrl,
  };
  if (input.payments) {
    env.STRIPE_SECRET_KEY = input.payments.secretKey;
    env.STRIPE_WEBHOOK_SECRET = input.payments.webhookSecret;
    env.STRIPE_API_URL = input.payments.url;
  }
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && passThrough.test(name) && !(input.payments && name.startsWith('STRIPE_'))) env[name] = value;
  }
  return env;
}
