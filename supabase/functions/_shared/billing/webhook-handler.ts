/**
 * billing-webhook: the provider's events. The signature is checked on the raw body with the provider's
 * tolerance (400 and a log line without the body otherwise); each event is stored once (a replay answers 200
 * and changes nothing); every verified event gets a 2xx, the types not used here included. Applying re-fetches
 * the object and stamps it with the event's own time, so events in any order end in the provider's state. When
 * applying fails (the database or the provider unreachable) the stored event stays unprocessed and the answer
 * is a 500, so the provider delivers it again.
 */
import { json, refuse } from './http.ts';
import { NotOurs, ProviderRefusal, SignatureError, type BillingEvent, type BillingProvider } from './provider.ts';
import { serveBilling, type Log } from './serve.ts';
import type { BillingStore } from './store.ts';
import { syncPaymentMethods, syncSubscription } from './sync.ts';

async function apply(event: BillingEvent, provider: BillingProvider, store: BillingStore): Promise<void> {
  const subject = event.subject;
  switch (subject.kind) {
    case 'subscription':
      await syncSubscription(provider, store, subject.id, event.created);
      return;
    case 'invoice': {
      const invoice = await provider.fetchInvoice(subject.id);
      await store.applyInvoice(invoice, event.created);
      // A paid or failed invoice moves the subscription (active, past_due): fetch that too.
      if (invoice.subscription) await syncSubscription(provider, store, invoice.subscription, event.created);
      return;
    }
    case 'checkout': {
      const checkout = await provider.fetchCheckout(subject.id);
      if (checkout.subscription) await syncSubscription(provider, store, checkout.subscription, event.created);
      if (checkout.customer) await syncPaymentMethods(provider, store, checkout.customer);
      return;
    }
    case 'payment_methods':
      await syncPaymentMethods(provider, store, subject.customer);
      return;
    case 'clock':
      await store.setClock('', subject.id, subject.now);
      return;
    default:
      return;
  }
}

export function createWebhookHandler(deps: { provider: BillingProvider; store: BillingStore; log: Log }) {
  const { provider, store, log } = deps;
  return serveBilling('billing-webhook', log, async (request) => {
    const raw = await request.text();
    let event: BillingEvent;
    try {
      event = await provider.parseWebhook(raw, request.headers);
    } catch (error) {
      if (!(error instanceof SignatureError)) throw error;
      // A rotated or wrong secret shows here; the body is never logged (it holds customer data).
      log(`billing-webhook: signature check failed (${error.message.slice(0, 120)}); ${raw.length} bytes refused`);
      // Counted for the admin's Billing Overview; a failure to count does not change the answer.
      await store.noteSignatureFailure().catch(() => undefined);
      return refuse(400, 'Webhook signature verification failed.');
    }
    if (!(await store.recordEvent(event))) return json(200, { received: true, duplicate: true });
    try {
      await apply(event, provider, store);
    } catch (error) {
      // Not Storewise's object, or gone at the provider (a deleted draft): nothing to apply, and a retry would not help.
      if (error instanceof NotOurs || (error instanceof ProviderRefusal && error.status === 404)) {
        await store.finishEvent(event.id, null);
        return json(200, { received: true, handled: false });
      }
      const reason = error instanceof Error ? error.message.slice(0, 200) : 'unknown';
      await store.finishEvent(event.id, reason).catch(() => undefined);
      log(`billing-webhook: ${event.type} ${event.id} not applied yet: ${reason}`);
      return json(500, { error: 'The event is stored; applying it failed and will be retried.' });
    }
    await store.finishEvent(event.id, null);
    return json(200, { received: true, handled: event.subject.kind !== 'other' });
  });
}
