import { describe, expect, it } from 'vitest';
import { renderOutboxEmail } from '../../functions/_shared/outbox-email';
import { outboxRenderers } from '../../functions/_shared/outbox-renderers';

describe('billing_payment_failed email', () => {
  it('says what failed, until when the plan stays and links to Billing on the site', () => {
    const email = renderOutboxEmail({ to_email: 'owner@example.com', template: 'billing_payment_failed',
      params: { plan: 'Growth', amount: 359.88, grace_until: '2027-12-11T10:00:00Z' } }, 'https://app.storewise.example', outboxRenderers);
    expect(email?.subject).toBe('Your Storewise payment of $359.88 failed');
    expect(email?.text).toContain('Update your payment method by 2027-12-11 to keep the Growth plan');
    expect(email?.text).toContain('https://app.storewise.example/dashboard/billing');
    expect(email?.html).toContain('Nothing is deleted, and your registers keep selling.');
  });

  it('renders nothing for params it does not understand (the row is kept and retried)', () => {
    expect(renderOutboxEmail({ to_email: 'a@b.c', template: 'billing_payment_failed', params: {} }, 'https://x.example', outboxRenderers)).toBeNull();
  });
});
