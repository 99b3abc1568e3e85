/*
 * The renderer of public.email_outbox rows shared by both deliverers (docs/adr/0121): the local stack's relay
 * (supabase/local/mail/outbox-relay.ts, Node) and the hosted send-email Edge Function (Deno). Importing only
 * import-free modules, no runtime APIs beyond URL, so the same file runs in both. A template this table does not
 * know renders to null: the deliverer keeps the row and retries later (a newer version may know it), it never
 * drops it.
 */
import { escapeHtml } from './email-html.ts';

export interface OutboxRowLike {
  to_email: string;
  template: string;
  params: Record<string, unknown>;
}

export interface RenderedEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * apiUrl: the project's API URL (SUPABASE_URL hosted, the local stack's own), for public Storage files such as the
 * business logo (docs/adr/0321); without it an email shows no pictures.
 */
export type OutboxRenderer = (row: OutboxRowLike, siteUrl: string, apiUrl?: string) => RenderedEmail | null;

/** A link into the app: only a path on the site (never another origin, even if a row said so). */
function siteLink(path: unknown, siteUrl: string, fallback: string): string {
  const value = typeof path === 'string' && /^\/[A-Za-z0-9/_-]*$/.test(path) ? path : fallback;
  return new URL(value, siteUrl).toString();
}

/** ticket_reply and ticket_resolved (written by private.tell_ticket_owner, docs/adr/0120). */
export function supportTicketEmail(row: OutboxRowLike, siteUrl: string): RenderedEmail | null {
  const subject = String(row.params.subject ?? '');
  const excerpt = String(row.params.excerpt ?? '');
  const link = siteLink(row.params.link_path, siteUrl, '/dashboard/support');
  const reply = row.template === 'ticket_reply';
  if (!reply && row.template !== 'ticket_resolved') return null;
  const title = reply ? `Storewise Support replied: ${subject}` : `Your ticket was resolved: ${subject}`;
  const intro = reply ? 'Our support team answered your ticket:' : 'We marked your ticket as resolved.';
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

/** The templates this file renders; deliverers may add others (template name -> renderer). */
export const supportRenderers: Readonly<Record<string, OutboxRenderer>> = {
  ticket_reply: supportTicketEmail,
  ticket_resolved: supportTicketEmail,
};

/** The email of one row, or null when no renderer knows its template (or its params are not that template's). */
export function renderOutboxEmail(
  row: OutboxRowLike,
  siteUrl: string,
  renderers: Readonly<Record<string, OutboxRenderer>> = supportRenderers,
  apiUrl?: string,
): RenderedEmail | null {
  const render = Object.hasOwn(renderers, row.template) ? renderers[row.template] : undefined;
  return render ? render(row, siteUrl, apiUrl) : null;
}
