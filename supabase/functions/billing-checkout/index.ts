// Buy or change a plan (docs/adr/0190). Deployed with JWT verification on; the owner's session is checked again.
import { createCheckoutHandler } from '../_shared/billing/checkout-handler.ts';
import { billingRuntime } from '../_shared/billing/runtime.ts';

const runtime = billingRuntime((name) => Deno.env.get(name));
Deno.serve(createCheckoutHandler({ ...runtime, siteUrl: runtime.config.siteUrl }));
