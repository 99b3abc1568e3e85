import { describe, expect, it } from 'vitest';
import { inviteSchema, registerSchema, storeSchema } from './workspace-schemas';

const store = { name: 'Downtown', address: '', phone: '', time_zone: 'Europe/London', currency: 'GBP',
  tax_inclusive: true, default_tax_rate: 20, receipt_header: '', receipt_footer: '', offline_refund_limit: '50.00',
  cash_rounding_step: '0.05' };

describe('workspace forms', () => {
  it('accepts a valid store and refuses what the database refuses', () => {
    expect(storeSchema.safeParse(store).success).toBe(true);
    for (const bad of [{ currency: 'usd' }, { currency: 'XYZ' }, { time_zone: 'Mars/Olympus' },
      { default_tax_rate: 100.5 }, { name: 'A' }, { phone: '12345' }, { offline_refund_limit: '50.001' },
      { offline_refund_limit: '-1' }, { offline_refund_limit: '1000000.01' }, { offline_refund_limit: 'fifty' },
      { cash_rounding_step: '0.001' }, { cash_rounding_step: '-0.05' }, { cash_rounding_step: '1001' }, { cash_rounding_step: 'a' }]) {
      expect(storeSchema.safeParse({ ...store, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('upper-cases a receipt prefix and bounds it', () => {
    expect(registerSchema.parse({ name: 'Front till', receipt_prefix: 'dt1' }).receipt_prefix).toBe('DT1');
    expect(registerSchema.safeParse({ name: 'Front till', receipt_prefix: 'TOO-LONG-1' }).success).toBe(false);
  });

  it('needs a store when the invitee does not get all stores', () => {
    const invite = { email: 'c@shop.example', role: 'cashier', allStores: false, storeIds: [] };
    const result = inviteSchema.safeParse(invite);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['storeIds']);
    expect(inviteSchema.safeParse({ ...invite, storeIds: ['s1'] }).success).toBe(true);
    expect(inviteSchema.safeParse({ ...invite, role: 'owner', storeIds: ['s1'] }).success).toBe(false);
  });
});
