/*
 * Every outbox template, for both deliverers: the local relay (Node) and the send-email Edge Function (Deno).
 * Imports carry their .ts extension because Deno resolves nothing else (tsconfig.node.json allows it).
 */
import { purchaseOrderEmail } from '../../local/mail/purchase-order-email.ts';
import { receiptEmail } from '../../local/mail/receipt-email.ts';
import { billingPaymentFailedEmail } from './billing-email.ts';
import { supportRenderers, type OutboxRenderer } from './outbox-email.ts';
import { testEmail } from './test-email.ts';

export const outboxRenderers: Readonly<Record<string, OutboxRenderer>> = {
  ...supportRenderers,
  receipt: (row, _siteUrl, apiUrl) => receiptEmail(row.to_email, row.params, apiUrl), // docs/adr/0132, 0321
  purchase_order: (row) => purchaseOrderEmail(row.to_email, row.params), // docs/adr/0111
  billing_payment_failed: billingPaymentFailedEmail, // docs/adr/0190
  test_email: testEmail, // docs/adr/0281
};
