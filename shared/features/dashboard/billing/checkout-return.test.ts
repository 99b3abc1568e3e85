import { describe, expect, it } from 'vitest';
import { settleCheckoutReturn, type ReturnDeps } from './checkout-return';

const noWait = async () => {};

describe('settleCheckoutReturn', () => {
  it('reconciles, then reads until the database shows the paid plan', async () => {
    const answers = [null, { plan: 'Free', status: 'none' }, { plan: 'Growth', status: 'trialing' }];
    const deps: ReturnDeps = { reconcile: async () => ({ checkout: 'complete' }), summary: async () => answers.shift() ?? null, wait: noWait };
    expect(await settleCheckoutReturn(deps)).toEqual({ kind: 'active', plan: 'Growth', status: 'trialing' });
  });

  it('retries while the provider is unreachable, and says so if it stays down', async () => {
    let calls = 0;
    const down: ReturnDeps = {
      reconcile: async () => { calls += 1; throw new Error('The payment provider cannot be reached right now.'); },
      summary: async () => ({ plan: 'Free', status: 'none' }), wait: noWait,
    };
    expect(await settleCheckoutReturn(down, 2)).toEqual({ kind: 'failed', message: 'The payment provider cannot be reached right now.' });
    expect(calls).toBe(4);
  });

  it('an abandoned checkout is not a purchase; a refusal is shown as said', async () => {
    expect(await settleCheckoutReturn({ reconcile: async () => ({ checkout: 'open' }), summary: async () => null, wait: noWait }))
      .toEqual({ kind: 'canceled' });
    const refused = await settleCheckoutReturn({
      reconcile: async () => { throw new Error('That checkout was not found on this account.'); }, summary: async () => null, wait: noWait });
    expect(refused).toEqual({ kind: 'failed', message: 'That checkout was not found on this account.' });
  });

  it('still waiting after the reads: pending (the webhook will finish it)', async () => {
    expect(await settleCheckoutReturn({ reconcile: async () => ({ checkout: 'complete' }), summary: async () => null, wait: noWait }, 3))
      .toEqual({ kind: 'pending' });
  });
});
