import type { StorewiseClient } from '../../lib/supabase-client';
import type { SelfServicePlanName } from '../../lib/remembered-plan';

export type PlanStart =
  | { kind: 'checkout'; url: string }
  | { kind: 'changed'; plan: string }
  | { kind: 'refused'; status: number; message: string };

/**
 * Get Started for a signed-in owner (issue 24): billing-checkout answers with the provider's hosted checkout
 * (card entry and the 7-day trial happen there) or, with a live subscription, changes its plan. Its refusals
 * carry a sentence ("already on this plan", the provider being down).
 */
export async function startPlan(supabase: StorewiseClient, planName: SelfServicePlanName): Promise<PlanStart> {
  const { data, error } = await supabase.functions.invoke('billing-checkout', { body: { plan: planName } });
  // supabase-js's FunctionsHttpError carries the Response; read it by shape so that importing this file does not
  // pull supabase-js into the landing's first chunk (docs/adr/0043).
  const context: unknown = error && typeof error === 'object' && 'context' in error ? error.context : undefined;
  if (context instanceof Response) {
    const response = context;
    const payload = (await response.json().catch(() => null)) as { error?: unknown } | null;
    return { kind: 'refused', status: response.status,
      message: typeof payload?.error === 'string' ? payload.error : 'The plan could not be started. Please try again.' };
  }
  if (error) return { kind: 'refused', status: 0, message: 'Billing cannot be reached. Check your connection and try again.' };
  const answer = data as { kind?: unknown; url?: unknown; plan?: unknown } | null;
  if (answer?.kind === 'checkout' && typeof answer.url === 'string') return { kind: 'checkout', url: answer.url };
  return { kind: 'changed', plan: typeof answer?.plan === 'string' ? answer.plan : planName };
}
