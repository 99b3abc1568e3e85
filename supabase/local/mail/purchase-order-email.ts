// With its extension: the hosted send-email Edge Function (Deno) loads this file too (docs/adr/0121).
import { escapeHtml } from '../../functions/_shared/email-html.ts';
import type { RenderedEmail as OutgoingMail } from '../../functions/_shared/outbox-email.ts';

/*
 * The email of a purchase order to its supplier (outbox template 'purchase_order', written by
 * public.email_purchase_order, docs/adr/0111): the order number, the shop and store, and the lines. Every value
 * comes from the database row and is escaped; the supplier has no Storewise account, so there is no link.
 */

interface Line {
  sku?: unknown;
  name?: unknown;
  qty?: unknown;
  unit?: unknown;
}

export function purchaseOrderEmail(to: string, params: Record<string, unknown>): OutgoingMail {
  const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  const number = str(params.order_number);
  const business = str(params.business_name);
  const store = str(params.store_name);
  const lines = (Array.isArray(params.lines) ? params.lines : []) as Line[];
  const subject = `Purchase order ${number} from ${business}`;
  const greeting = params.contact_name ? `Hello ${str(params.contact_name)},` : 'Hello,';
  const deliver = `Please deliver to ${business}, ${store}${params.expected_on ? ` by ${str(params.expected_on)}` : ''}.`;
  const rows = lines.map((l) => ({ sku: str(l.sku), name: str(l.name), qty: `${str(l.qty)}${l.unit === 'kg' ? ' kg' : ''}` }));
  const notes = str(params.notes);
  return {
    to,
    subject,
    text: [`${subject}`, '', greeting, '', deliver, '', ...rows.map((r) => `${r.qty} x ${r.name} (${r.sku})`),
      ...(notes ? ['', `Notes: ${notes}`] : []), '', business, ''].join('\n'),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111">
<h2>${escapeHtml(subject)}</h2><p>${escapeHtml(greeting)}</p><p>${escapeHtml(deliver)}</p>
<table style="border-collapse:collapse"><thead><tr><th align="left">SKU</th><th align="left">Item</th><th align="right">Quantity</th></tr></thead><tbody>
${rows.map((r) => `<tr><td>${escapeHtml(r.sku)}</td><td>${escapeHtml(r.name)}</td><td align="right">${escapeHtml(r.qty)}</td></tr>`).join('\n')}
</tbody></table>${notes ? `<p>Notes: ${escapeHtml(notes)}</p>` : ''}<p style="color:#555">${escapeHtml(business)}</p></body></html>`,
  };
}
