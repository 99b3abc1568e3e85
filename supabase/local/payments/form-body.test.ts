import { describe, expect, it } from 'vitest';
import { parseForm, str } from './form-body';

describe('parseForm (Stripe\'s bracketed form encoding)', () => {
  it('reads nested objects, indexed arrays and [] arrays as the stripe client writes them', () => {
    const body = parseForm('mode=subscription&line_items[0][price]=price_1&line_items[0][quantity]=1' +
      '&subscription_data[metadata][plan]=Pro&subscription_data[trial_period_days]=7&expand[]=subscription&expand[]=customer');
    expect(body).toEqual({
      mode: 'subscription',
      line_items: [{ price: 'price_1', quantity: '1' }],
      subscription_data: { metadata: { plan: 'Pro' }, trial_period_days: '7' },
      expand: ['subscription', 'customer'],
    });
    expect(str(body, 'line_items', 0, 'price')).toBe('price_1');
    expect(str(body, 'subscription_data', 'missing')).toBeUndefined();
  });

  it('keeps encoded characters and ignores nothing it does not know', () => {
    expect(parseForm('email=a%2Bb%40example.com&metadata[business_id]=x')).toEqual({ email: 'a+b@example.com', metadata: { business_id: 'x' } });
  });
});
