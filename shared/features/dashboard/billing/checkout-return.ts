/**
 * The return from the provider's checkout, as a plain function the page drives: ask billing-reconcile to fetch
 * the session server-side (so the subscription is written now, webhook or not), retrying while the provider is
 * unreachable, then read public.my_billing until the database agrees that a paid plan is in force. Waits are
 * injected so the unit test runs without timers.
 */
export type ReturnOutcome =
  | { kind: 'active'; plan: string; status: string }
  | { kind: 'pending' }
  | { kind: 'canceled' }
  | { kind: 'failed'; message: string };

export interface ReturnDeps {
  reconcile: () => Promise<{ checkout: string | null }>;
  summary: () => Promise<{ plan: string; status: string } | null>;
  wait: (ms: number) => Promise<void>;
}

const LIVE = ['trialing', 'active', 'past_due'];

export async function settleCheckoutReturn(deps: ReturnDeps, attempts = 8): Promise<ReturnOutcome> {
  let checkout: string | null = null;
  let lastError = '';
  for (let attempt = 0; attempt < 4; attempt += 1) {
    try {
      checkout = (await deps.reconcile()).checkout;
      lastError = '';
      break;
    } catch (error) {
      lastError = error instanceof Error ? error.message : 'The billing service cannot be reached.';
      // A refusal (4xx) will not change by retrying; an unreachable provider (503, network) may.
      if (!/reach|try again|unexpected/i.test(lastError)) return { kind: 'failed', message: lastError };
      await deps.wait(500 * 2 ** attempt);
    }
  }
  if (checkout === 'open' || checkout === 'expired') return { kind: 'canceled' };
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const summary = await deps.summary();
    if (summary && summary.plan !== 'Free' && LIVE.includes(summary.status)) {
      return { kind: 'active', plan: summary.plan, status: summary.status };
    }
    await deps.wait(250);
  }
  return lastError ? { kind: 'failed', message: lastError } : { kind: 'pending' };
}
