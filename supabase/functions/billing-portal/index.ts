// The provider's portal, auto-renew and card removal (docs/adr/0190). JWT verification on.
import { createPortalHandler } from '../_shared/billing/portal-handler.ts';
import { billingRuntime } from '../_shared/billing/runtime.ts';

const runtime = billingRuntime((name) => Deno.env.get(name));
Deno.serve(createPortalHandler({ ...runtime, siteUrl: runtime.config.siteUrl }));
