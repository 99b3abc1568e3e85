import type { Db } from '../db/types';
import type { Mailer } from './mailer';
import type { OutgoingMail } from './mailbox';
import { receiptEmail } from './receipt-email';
import { purchaseOrderEmail } from './purchase-order-email';

/*
 * Delivers the rows the database writes to public.email_outbox (support desk replies and resolutions,
 * docs/adr/0120). On hosted Supabase a Database Webhook on insert calls an Edge Function that does the same;
 * locally the stack polls. Rows are deleted once handed to the mailer, so no address stays behind.
 */

interface OutboxRow {
  id: string;
  to_email: string;
  template: string;
  params: Record<string, unknown>;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The email of one outbox row; null for a template this version does not know (left for a newer one). */
export function outboxEmail(row: OutboxRow, siteUrl: string): OutgoingMail | null {
  if (row.template === 'receipt') return receiptEmail(row.to_email, row.params); // docs/adr/0132
  if (row.template === 'purchase_order') return purchaseOrderEmail(row.to_email, row.params);
  const subject = String(row.params.subject ?? '');
  const excerpt = String(row.params.excerpt ?? '');
  const link = new URL(String(row.params.link_path ?? '/dashboard/support'), siteUrl).toString();
  const title =
    row.template === 'ticket_reply' ? `Storewise Support replied: ${subject}`
    : row.template === 'ticket_resolved' ? `Your ticket was resolved: ${subject}`
    : null;
  if (!title) return null;
  const intro = row.template === 'ticket_reply' ? 'Our support team answered your ticket:' : 'We marked your ticket as resolved.';
  const outro = 'Reply from your ticket page if you need anything else.';
  return {
    to: row.to_email,
    subject: title,
    text: `${title}\n\n${intro}\n\n${excerpt}\n\nOpen the ticket: ${link}\n\n${outro}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111">
<h2>${escapeHtml(title)}</h2><p>${escapeHtml(intro)}</p>
<blockquote style="white-space:pre-wrap">${escapeHtml(excerpt)}</blockquote>
<p><a href="${escapeHtml(link)}">Open the ticket</a></p><p style="color:#555">${escapeHtml(outro)}</p>
<p style="color:#555">Storewise</p></body></html>`,
  };
}

/** Sends what is waiting in the outbox now; returns how many emails went out. */
export async function drainOutbox(db: Db, mailer: Mailer, siteUrl: string): Promise<number> {
  const { rows } = await db.query<OutboxRow>(
    `delete from public.email_outbox where id in (select id from public.email_outbox order by id limit 50)
     returning id::text, to_email, template, params`,
  );
  let sent = 0;
  for (const row of rows) {
    const mail = outboxEmail(row, siteUrl);
    if (!mail) continue;
    await mailer.send(mail);
    sent += 1;
  }
  return sent;
}

/** Polls the outbox every intervalMs until stopped; a failed round is logged (no addresses) and retried. */
export function startOutboxRelay(db: Db, mailer: Mailer, siteUrl: string, intervalMs = 500, log = console.error) {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(() => {
    if (stopped) return;
    running = running
      .then(() => drainOutbox(db, mailer, siteUrl))
      .catch((error: unknown) => log(`Storewise: email outbox failed: ${(error as { code?: string }).code ?? 'error'}`));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
