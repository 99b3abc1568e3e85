/**
 * billing-refund: an administrator refunds what is left of a paid invoice through the provider (a credit note
 * with a refund to the card), then the invoice is re-synced (billing history shows "refunded") and the refund
 * is written to the business's activity trail with the admin and the reason. Anyone else: 403.
 */
import { z } from 'zod';
import { HttpRefusal, bearerOf, json, readBody } from './http.ts';
import type { BillingProvider } from './provider.ts';
import { serveBilling, type Log } from './serve.ts';
import { NotOwner, type BillingStore } from './store.ts';
import { syncStamp } from './sync.ts';

const body = z.object({
  invoice_id: z.string().regex(/^in_[A-Za-z0-9_]{4,250}$/, 'is not an invoice id'),
  reason: z.string().trim().min(3, 'must say why (3 characters at least)').max(500),
});

export function createRefundHandler(deps: { provider: BillingProvider; store: BillingStore; log: Log }) {
  const { provider, store } = deps;
  return serveBilling('billing-refund', deps.log, async (request) => {
    const input = await readBody(request, body);
    const jwt = bearerOf(request);
    const adminId = jwt ? await store.userIdOf(jwt) : null;
    if (!adminId) throw new HttpRefusal(401, 'Sign in again to refund.');
    const row = await store.adminInvoice(adminId, input.invoice_id).catch((error: unknown) => {
      if (error instanceof NotOwner) throw new HttpRefusal(403, 'Only administrators can refund invoices.');
      throw error;
    });
    if (row.status === 'refunded') throw new HttpRefusal(409, 'This invoice is already refunded.');
    if (row.status !== 'paid') throw new HttpRefusal(409, 'Only a paid invoice can be refunded.');
    const refunded = await provider.refundInvoice(input.invoice_id, input.reason);
    await store.applyInvoice(await provider.fetchInvoice(input.invoice_id), syncStamp());
    await store.auditRefund(adminId, input.invoice_id, refunded, input.reason);
    return json(200, { refunded_cents: refunded });
  });
}
