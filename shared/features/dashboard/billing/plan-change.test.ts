import { describe, expect, it } from 'vitest';
import { describePlanChange, effectivePlanName, type CatalogPlan, type CurrentPlan } from './plan-change';

// The rows public.plan_catalog() returns (tests/db/workspace-plan-chooser.test.ts pins them to the database).
const catalog: CatalogPlan[] = [
  { plan: 'Free', price: 0, max_stores: 1, max_products: 25, max_members: 1, self_service: false },
  { plan: 'Starter', price: 9.99, max_stores: 1, max_products: 100, max_members: null, self_service: true },
  { plan: 'Growth', price: 29.99, max_stores: 3, max_products: 300, max_members: null, self_service: true },
  { plan: 'Pro', price: 99.99, max_stores: 10, max_products: null, max_members: null, self_service: true },
  { plan: 'Enterprise', price: null, max_stores: null, max_products: null, max_members: null, self_service: false },
];
const now = new Date('2026-11-20T12:00:00Z');
const plan = (plan_name: string, status: string, price: number): CurrentPlan =>
  ({ plan_name, status, price, next_billing_date: '2026-12-01T00:00:00Z' });
const shop = { business_name: 'Corner Shop', stores_used: 1, products_used: 10, members_used: 1 };

describe('describePlanChange', () => {
  it('from Free (no plan) to Growth: the limits grow, the price, and a 7-day trial starts', () => {
    const change = describePlanChange(null, catalog, 'Growth', [shop], now);
    expect(change.title).toBe('Change from Free to Growth');
    expect(change.limits).toEqual([
      { label: 'Stores', before: '1 store', after: '3 stores' },
      { label: 'Items (each size or colour)', before: '25 items', after: '300 items' },
      { label: 'Team', before: 'Owner only', after: 'Unlimited team' },
    ]);
    expect(change.price).toBe('$0.00 per month now, $29.99 per month on Growth, billed annually.');
    expect(change.trial).toBe('Starts your 7-day free trial of Growth, until Nov 27, 2026.');
    expect(change.notInEffect).toBeNull();
    expect(change.overLimit).toEqual([]);
  });

  it('a trial keeps its end date and is not restarted; Pro shows unlimited items', () => {
    const change = describePlanChange(plan('Starter', 'trialing', 9.99), catalog, 'Pro', [shop], now);
    expect(change.limits[1]).toEqual({ label: 'Items (each size or colour)', before: '100 items', after: 'Unlimited items' });
    expect(change.trial).toBe('Your free trial continues until Dec 01, 2026; changing plan does not restart it.');
  });

  it('a downgrade over the limits says nothing is deleted and what is blocked until what is done', () => {
    const big = { business_name: 'Fresh Corner', stores_used: 3, products_used: 240, members_used: 4 };
    const change = describePlanChange(plan('Growth', 'active', 29.99), catalog, 'Starter', [big, shop], now);
    expect(change.price).toBe('$29.99 per month now, $9.99 per month on Starter, billed annually.');
    expect(change.trial).toBe('No trial (it is offered once). The new price applies from your next billing date, Dec 01, 2026.');
    expect(change.overLimit).toEqual([
      'Fresh Corner has 3 open stores; Starter allows 1. Nothing is deleted and every store keeps selling, but you ' +
        'cannot open or restore a store until you archive 2 stores.',
      'Fresh Corner has 240 items; Starter allows 100. Nothing is deleted, but you cannot add an item until you ' +
        'archive 140 items.',
    ]);
  });

  it('a canceled plan has the Free limits until a new subscription is paid', () => {
    const canceled = plan('Starter', 'canceled', 9.99);
    expect(effectivePlanName(canceled)).toBe('Free');
    const change = describePlanChange(canceled, catalog, 'Growth', [{ ...shop, stores_used: 2 }], now);
    expect(change.title).toBe('Change from Starter (canceled) to Growth');
    expect(change.limits[0]).toEqual({ label: 'Stores', before: '1 store', after: '3 stores' });
    expect(change.notInEffect).toContain('Free limits until the new subscription is paid');
    expect(change.due).toBe("$359.88 a year, paid on the payment provider's page.");
  });

  it('the amount due: prorated now for an upgrade of a paid subscription, nothing now for a downgrade', () => {
    const options = { trialAvailable: false, hasSubscription: true };
    const growth = { ...plan('Growth', 'active', 29.99), next_billing_date: '2027-05-21T12:00:00Z' };
    // (99.99 - 29.99) x 12 = 840 a year; 182 of 365 days left: 418.85.
    expect(describePlanChange(growth, catalog, 'Pro', [shop], now, options).due)
      .toBe('About $418.85 due now for the rest of this period (until May 21, 2027), charged to your card on file.');
    expect(describePlanChange(growth, catalog, 'Starter', [shop], now, options).due)
      .toBe('Nothing is due now. Growth stays until May 21, 2027; then Starter at $119.88 a year.');
    expect(describePlanChange(null, catalog, 'Starter', [shop], now).due)
      .toBe("Nothing is due today. You add a card on the payment provider's page; $119.88 a year is charged when the trial ends.");
  });

  it('refuses a plan the catalog does not have', () => {
    expect(() => describePlanChange(null, catalog, 'Platinum', [], now)).toThrow('Unknown plan: Platinum');
  });
});
