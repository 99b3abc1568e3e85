// An administrator refunds a paid invoice through the provider, audited (docs/adr/0190). JWT verification on.
import { createRefundHandler } from '../_shared/billing/refund-handler.ts';
import { billingRuntime } from '../_shared/billing/runtime.ts';

Deno.serve(createRefundHandler(billingRuntime((name) => Deno.env.get(name))));
