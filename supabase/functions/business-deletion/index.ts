// An owner deletes the business; the scheduler runs the due erasures (docs/adr/0220). JWT verification on: the
// owner's token for request and cancel, the service role key for run.
import { createDeletionHandler } from '../_shared/business-deletion/handler.ts';
import { billingRuntime } from '../_shared/billing/runtime.ts';

const runtime = billingRuntime((name) => Deno.env.get(name));
Deno.serve(createDeletionHandler({
  supabaseUrl: runtime.config.supabaseUrl,
  anonKey: runtime.config.anonKey,
  serviceRoleKey: runtime.config.serviceRoleKey,
  provider: runtime.provider,
  store: runtime.store,
  log: runtime.log,
}));
