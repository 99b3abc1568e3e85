// The return from checkout: fetch the session server-side so the plan is active at once (docs/adr/0190).
import { createReconcileHandler } from '../_shared/billing/reconcile-handler.ts';
import { billingRuntime } from '../_shared/billing/runtime.ts';

Deno.serve(createReconcileHandler(billingRuntime((name) => Deno.env.get(name))));
