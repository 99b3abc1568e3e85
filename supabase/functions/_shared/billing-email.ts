/*
 * The billing emails of public.email_outbox (docs/adr/0190), written by billing_apply_invoice when a charge fails.
 * Only import-free modules, so the local relay (Node) and send-email (Deno) render it alike. Amounts, plan and
 * dates only: no card data ever reaches Storewise.
 */
import { emailLayout } from './email-html.ts';
import type { OutboxRowLike, RenderedEmail } from './outbox-email.ts';

/** billing_payment_failed: the renewal charge failed; the plan stays until the grace date. */
export function billingPaymentFailedEmail(row: OutboxRowLike, siteUrl: string): RenderedEmail | null {
  const plan = String(row.params.plan ?? '');
  const amount = Number(row.params.amount);
  const graceUntil = String(row.params.grace_until ?? '').slice(0, 10);
  if (!plan || !Number.isFinite(amount)) return null;
  const link = new URL('/dashboard/billing', siteUrl).toString();
  const subject = `Your Storewise payment of $${amount.toFixed(2)} failed`;
  const lines = [
    `We could not charge your card for your ${plan} plan ($${amount.toFixed(2)}).`,
    'We will try again automatically over the next days.',
    graceUntil
      ? `Update your payment method by ${graceUntil} to keep the ${plan} plan; after that your businesses have the Free plan's limits.`
      : `Update your payment method to keep the ${plan} plan.`,
    'Nothing is deleted, and your registers keep selling.',
  ];
  return {
    to: row.to_email,
    subject,
    text: `${subject}\n\n${lines.join('\n')}\n\nUpdate your payment method: ${link}\n`,
    html: emailLayout({ title: subject, paragraphs: lines, link: { href: link, label: 'Update your payment method' } }),
  };
}
