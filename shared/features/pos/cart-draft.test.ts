import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { CatalogItem } from './cart';
import { draftKey, loadDraft, saveDraft, withoutStaleApproval } from './cart-draft';
import { enqueue, getMeta, openPosDb, pendingCount } from './outbox';
import type { CartState } from './till-state';

const soap: CatalogItem = { variantId: 'v1', name: 'Soap', sku: 'SOAP', barcodes: ['4006381333931'], price: 1250, taxRate: 0, unit: 'each' };
const cart: CartState = { entries: [{ item: soap, qty: 2, discount: 0 }], customer: { id: 'c1', name: 'Priya', phone: null, email: null } };
let n = 0;
const freshDb = () => openPosDb(`cart-draft-${(n += 1)}`);

describe('the cart in progress, kept on the device (ADR 0200)', () => {
  it('comes back after a reload (a new connection to the database), per register', async () => {
    const name = `cart-draft-reload-${(n += 1)}`;
    const db = await openPosDb(name);
    await saveDraft(db, 'r1', cart);
    db.close();
    const again = await openPosDb(name);
    expect(await loadDraft(again, 'r1')).toEqual(cart);
    expect(await loadDraft(again, 'r2')).toBeNull();
  });

  it('an empty cart removes it', async () => {
    const db = await freshDb();
    await saveDraft(db, 'r1', cart);
    await saveDraft(db, 'r1', { entries: [] });
    expect(await loadDraft(db, 'r1')).toBeNull();
    expect(await getMeta(db, draftKey('r1'))).toBeNull();
  });

  it('drops a manager approval too old for the server', async () => {
    const db = await freshDb();
    const now = Date.parse('2026-11-27T12:00:00Z');
    await saveDraft(db, 'r1', { ...cart, approval: { id: 'a1', percent: 20, at: now - 10 * 60_000 } });
    expect((await loadDraft(db, 'r1', now))?.approval).toBeNull();
    const fresh = { ...cart, approval: { id: 'a2', percent: 20, at: now - 60_000 } };
    expect(withoutStaleApproval(fresh, now)).toBe(fresh);
  });

  it('leaves with the sale that completes it, in the transaction that queues the sale', async () => {
    const db = await freshDb();
    await saveDraft(db, 'r1', cart);
    await saveDraft(db, 'r2', cart);
    await enqueue(db, 'sale', { id: 's1', register_id: 'r1' }, null, { clearMeta: draftKey('r1') });
    expect(await pendingCount(db)).toBe(1);
    expect(await loadDraft(db, 'r1')).toBeNull();
    // Another register's cart is untouched; a queuing without the option clears nothing.
    await enqueue(db, 'cash', { id: 'k1' });
    expect(await loadDraft(db, 'r2')).toEqual(cart);
  });
});
