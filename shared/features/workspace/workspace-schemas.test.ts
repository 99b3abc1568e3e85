import { describe, expect, it } from 'vitest';
import { exportPercent } from './business-export-api';
import { businessSchema, inviteSchema, registerSchema, storeSchema } from './workspace-schemas';

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

  it('takes a business country from the ISO list or none, as the database check and the retention period expect', () => {
    const business = { name: 'Corner shop', type: 'Grocery', email: '', phone: '' };
    for (const country of ['', 'DE', 'GB', 'US', 'NL', 'FR', 'JP']) {
      expect(businessSchema.safeParse({ ...business, country }).success, country).toBe(true);
    }
    for (const country of ['de', 'UK', 'XX', 'DEU', 'D', ' GB']) {
      expect(businessSchema.safeParse({ ...business, country }).success, country).toBe(false);
    }
  });

  it('turns an export\'s rows into the progress bar\'s percent', () => {
    expect(exportPercent(null)).toBeNull();
    expect(exportPercent({ state: 'building', rows_done: 0, rows_total: 0 })).toBeNull();
    expect(exportPercent({ state: 'building', rows_done: 250, rows_total: 1000 })).toBe(25);
    expect(exportPercent({ state: 'building', rows_done: 1200, rows_total: 1000 })).toBe(100);
    expect(exportPercent({ state: 'ready', rows_done: 0, rows_total: 0 })).toBe(100);
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
