/**
 * Builds the module's parts from a function's environment (Deno.env locally and on hosted Supabase).
 * Only this file and the four index.ts entries know which provider is shipped.
 */
import { billingConfigFromEnv } from './config.ts';
import { createBillingStore } from './store.ts';
import { createStripeProvider } from './stripe-provider.ts';

export function billingRuntime(get: (name: string) => string | undefined) {
  const config = billingConfigFromEnv(get);
  return {
    config,
    provider: createStripeProvider(config.stripe),
    store: createBillingStore(config.supabaseUrl, config.anonKey, config.serviceRoleKey),
    log: (line: string) => console.error(line),
  };
}
