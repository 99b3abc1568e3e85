import { describe, expect, it } from 'vitest';
import { isSelfServicePlan } from './remembered-plan';

describe('isSelfServicePlan', () => {
  it('accepts the three self-service plans only', () => {
    expect(['Starter', 'Growth', 'Pro'].every(isSelfServicePlan)).toBe(true);
    expect(isSelfServicePlan('Enterprise')).toBe(false);
    expect(isSelfServicePlan('Free')).toBe(false);
    expect(isSelfServicePlan(null)).toBe(false);
    expect(isSelfServicePlan({ plan: 'Pro' })).toBe(false);
  });
});
