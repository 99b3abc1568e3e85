/**
 * The billing Edge Functions as the Billing page calls them (supabase-js functions.invoke, the user's session
 * attached). Their refusals carry a sentence ({ error }); it becomes the thrown message, so screens show what
 * the server said (a declined card, "already on this plan", the provider being down) instead of a status code.
 */
import { FunctionsHttpError } from '@supabase/supabase-js';
import { z } from 'zod';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { ServiceError } from '../api-result';

async function call<T extends z.ZodType>(supabase: StorewiseClient, name: string, body: Record<string, unknown>, schema: T): Promise<z.infer<T>> {
  const { data, error } = await supabase.functions.invoke(name, { body });
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response;
    const payload = (await response.json().catch(() => null)) as { error?: unknown } | null;
    const sentence = typeof payload?.error === 'string' ? payload.error : 'Billing is not available right now. Please try again.';
    throw new ServiceError(sentence, String(response.status));
  }
  if (error) throw new ServiceError('The billing service cannot be reached. Check your connection and try again.', 'network');
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ServiceError('The billing service gave an answer this page does not understand.');
  return parsed.data;
}

const planChange = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('checkout'), url: z.url(), trial_days: z.number() }),
  z.object({ kind: z.literal('upgraded'), plan: z.string(), effective_at: z.string().nullable() }),
  z.object({ kind: z.literal('downgrade_scheduled'), plan: z.string(), effective_at: z.string().nullable() }),
]);
export type PlanChangeResult = z.infer<typeof planChange>;

/** Buy a plan (a checkout URL comes back) or change the plan of the live subscription. */
export const startPlanChange = (supabase: StorewiseClient, plan: 'Starter' | 'Growth' | 'Pro') =>
  call(supabase, 'billing-checkout', { plan }, planChange);

/** What confirming a plan change would charge now, as the provider computes it (nothing changes). */
export const previewPlanChange = (supabase: StorewiseClient, plan: 'Starter' | 'Growth' | 'Pro') =>
  call(supabase, 'billing-checkout', { plan, preview: true },
    z.object({ kind: z.literal('preview'), amount_due_cents: z.number().int().nonnegative(), new_subscription: z.boolean() }));

/** The provider's portal (add a card, change the default). */
export const openBillingPortal = (supabase: StorewiseClient) =>
  call(supabase, 'billing-portal', { action: 'portal' }, z.object({ url: z.url() }));

/** The auto-renew switch: cancel at period end at the provider, and back. Returns the stored value. */
export const setProviderAutoRenew = async (supabase: StorewiseClient, autoRenew: boolean) =>
  (await call(supabase, 'billing-portal', { action: 'auto_renew', auto_renew: autoRenew }, z.object({ auto_renew: z.boolean() }))).auto_renew;

export const removePaymentMethod = (supabase: StorewiseClient, providerId: string) =>
  call(supabase, 'billing-portal', { action: 'remove_method', payment_method_id: providerId }, z.object({ removed: z.string() }));

/** Back from checkout: the server fetches the session and writes the subscription now. */
export const reconcileCheckout = (supabase: StorewiseClient, sessionId: string | null) =>
  call(supabase, 'billing-reconcile', sessionId ? { session_id: sessionId } : {},
    z.object({ checkout: z.string().nullable(), synced: z.boolean().optional() }));
