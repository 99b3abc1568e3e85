import { describe, expect, it } from 'vitest';
import { planChoiceMessage } from './plan-choice-message';

describe('planChoiceMessage', () => {
  it('announces a trial with its end date when the plan is on trial', () => {
    expect(planChoiceMessage({ plan_name: 'Growth', status: 'trialing', next_billing_date: '2026-11-28T10:00:00Z' })).toEqual({
      title: 'Trial started',
      description: 'Your 7-day free trial of the Growth plan runs until Nov 28, 2026.',
    });
  });

  it('says the plan changed, not that a trial started, when the trial was already used', () => {
    for (const status of ['active', 'canceled', 'expired', 'past_due']) {
      const message = planChoiceMessage({ plan_name: 'Pro', status, next_billing_date: null });
      expect(message.title).toBe('Plan changed');
      expect(message.description).toBe('You are now on the Pro plan.');
    }
  });
});
