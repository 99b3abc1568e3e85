import { getMeta, setMeta, type PosDatabase } from './outbox';
import type { CartState } from './till-state';

/**
 * The cart in progress on a register, kept on the device beside the outbox (ADR 0200) so a reload, a crash or a
 * closed tab does not make the cashier scan it again. Written on every change; an empty cart removes it. The sale
 * that completes it removes it in the same IndexedDB transaction that queues the sale (outbox.ts `enqueue`), so a
 * crash in between can neither lose the sale nor bring its cart back to be charged twice.
 */
export const draftKey = (registerId: string) => `cart:${registerId}`;

/** An approval lasts 10 minutes on the server: one older than 9 (a cart kept a while) is asked for again. */
export const APPROVAL_FRESH_MS = 9 * 60 * 1000;

/** The cart without a manager's approval (of a discount or of an expired lot) too old to use. */
export function withoutStaleApproval(cart: CartState, now: number): CartState {
  const fresh = cart.approval && now - cart.approval.at > APPROVAL_FRESH_MS ? { ...cart, approval: null } : cart;
  return fresh.lotApproval && now - fresh.lotApproval.at > APPROVAL_FRESH_MS ? { ...fresh, lotApproval: null } : fresh;
}

export async function saveDraft(db: PosDatabase, registerId: string, cart: CartState): Promise<void> {
  await setMeta(db, draftKey(registerId), cart.entries.length > 0 ? cart : null);
}

/** The register's kept cart, if it has one with items (its stale approval dropped). */
export async function loadDraft(db: PosDatabase, registerId: string, now = Date.now()): Promise<CartState | null> {
  const cart = await getMeta<CartState | null>(db, draftKey(registerId));
  return cart && cart.entries.length > 0 ? withoutStaleApproval(cart, now) : null;
}
