/**
 * Brings the database in line with the provider for one object or one customer. Always from a fresh fetch
 * (never the event body), stamped with the provider's event time so an older event cannot overwrite a newer
 * state (billing_apply_* keep the newer synced_at).
 */
import type { BillingProvider } from './provider.ts';
import type { BillingStore } from './store.ts';

export async function syncSubscription(provider: BillingProvider, store: BillingStore, id: string, syncedAt: string): Promise<void> {
  const sub = await provider.fetchSubscription(id);
  await store.applySubscription(sub, syncedAt);
  if (sub.clock) await store.setClock(sub.customer, sub.clock.id, sub.clock.now);
}

export async function syncPaymentMethods(provider: BillingProvider, store: BillingStore, customer: string): Promise<void> {
  await store.applyPaymentMethods(customer, await provider.listPaymentMethods(customer));
}

/** Everything of one customer: subscriptions, invoices, cards (the reconcile path and the event fallback). */
export async function syncCustomer(provider: BillingProvider, store: BillingStore, customer: string, syncedAt: string): Promise<void> {
  const [subs, invoices] = await Promise.all([provider.listSubscriptions(customer), provider.listInvoices(customer)]);
  for (const sub of [...subs].sort((a, b) => a.created.localeCompare(b.created))) {
    await store.applySubscription(sub, syncedAt);
    if (sub.clock) await store.setClock(sub.customer, sub.clock.id, sub.clock.now);
  }
  for (const invoice of invoices) await store.applyInvoice(invoice, syncedAt);
  await syncPaymentMethods(provider, store, customer);
}

/**
 * "Now" as a sync stamp, in whole seconds like the provider's event times: a fetch stamped now must not hide
 * an event created later in the same second (billing_apply_* keep a stamp that is newer or equal).
 */
export const syncStamp = () => new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
