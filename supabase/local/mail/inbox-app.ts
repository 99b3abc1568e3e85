import { Hono } from 'hono';
import { html, raw } from 'hono/html';
import { allowedHostNames, hostCheck } from '../gateway/host-check';
import type { Mailbox, StoredMessage } from './mailbox';

function summary(message: StoredMessage) {
  return {
    ID: message.ID,
    MessageID: message.MessageID,
    Read: message.Read,
    From: message.From,
    To: message.To,
    Cc: [],
    Bcc: [],
    ReplyTo: message.ReplyTo ?? [],
    Subject: message.Subject,
    Created: message.Created,
    Tags: [],
    Size: message.Size,
    Attachments: 0,
    Snippet: message.Text.replace(/\s+/g, ' ').slice(0, 250),
  };
}

/** Mailpit's search subset: `to:address` and free words over subject and text. */
function matches(message: StoredMessage, query: string): boolean {
  return query
    .split(/\s+/)
    .filter(Boolean)
    .every((term) => {
      const [field, value] = term.includes(':') ? (term.split(/:(.*)/s) as [string, string]) : ['', term];
      const needle = value.replace(/^"|"$/g, '').toLowerCase();
      if (field === 'to') return message.To.some((to) => to.Address.toLowerCase().includes(needle));
      if (field === 'subject') return message.Subject.toLowerCase().includes(needle);
      return `${message.Subject} ${message.Text}`.toLowerCase().includes(needle);
    });
}

function listJson(messages: readonly StoredMessage[], total: number, start: number, limit: number) {
  const page = messages.slice(start, start + limit);
  return {
    total,
    unread: messages.filter((message) => !message.Read).length,
    count: page.length,
    messages_count: messages.length,
    start,
    tags: [],
    messages: page.map(summary),
  };
}

/**
 * The local inbox on :54324: an HTML page of every email and Mailpit's JSON API. It holds live sign-in links,
 * so it answers only on loopback names and the configured ones (DNS rebinding).
 */
export function createInboxApp(mailbox: Mailbox, allowedHosts: ReadonlySet<string> = allowedHostNames()): Hono {
  const app = new Hono();
  // Its pages and JSON hold live sign-in links: never framed by another page, never cached.
  app.use('*', async (c, next) => {
    await next();
    c.res.headers.set('content-security-policy', "frame-ancestors 'none'");
    c.res.headers.set('x-frame-options', 'DENY');
    c.res.headers.set('x-content-type-options', 'nosniff');
    c.res.headers.set('cache-control', 'no-store');
  });
  app.use('*', hostCheck(allowedHosts));
  const paging = (start?: string, limit?: string) => ({
    start: Math.max(0, Number(start ?? 0) || 0),
    limit: Math.min(1000, Math.max(1, Number(limit ?? 50) || 50)),
  });

  app.get('/api/v1/messages', (c) => {
    const { start, limit } = paging(c.req.query('start'), c.req.query('limit'));
    const all = mailbox.list();
    return c.json(listJson(all, all.length, start, limit));
  });
  app.get('/api/v1/search', (c) => {
    const { start, limit } = paging(c.req.query('start'), c.req.query('limit'));
    const found = mailbox.list().filter((message) => matches(message, c.req.query('query') ?? ''));
    return c.json(listJson(found, mailbox.list().length, start, limit));
  });
  app.get('/api/v1/message/:id', (c) => {
    const id = c.req.param('id');
    const message = id === 'latest' ? mailbox.list()[0] : mailbox.get(id);
    if (!message) return c.json({ error: 'message not found' }, 404);
    message.Read = true;
    return c.json({
      ...summary(message),
      ReturnPath: message.From.Address,
      Date: message.Created,
      Text: message.Text,
      HTML: message.HTML,
      Inline: [],
      Attachments: [],
    });
  });
  app.delete('/api/v1/messages', (c) => {
    mailbox.clear();
    return c.text('ok');
  });

  app.get('/', (c) => {
    const messages = mailbox.list();
    return c.html(html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta http-equiv="refresh" content="5" />
    <title>Storewise local inbox</title>
    <style>
      body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
      article { border: 1px solid #ddd; border-radius: .5rem; padding: 1rem; margin: 1rem 0; }
      .meta { color: #555; font-size: .9rem; }
    </style>
  </head>
  <body>
    <h1>Storewise local inbox</h1>
    <p class="meta">Every email the local Storewise stack sends lands here (JSON: /api/v1/messages). This page refreshes every 5 seconds.</p>
    ${messages.length === 0 ? html`<p>No emails yet.</p>` : ''}
    ${messages.map(
      (message) => html`<article>
        <div class="meta">To ${message.To.map((to) => to.Address).join(', ')} · ${message.Created}</div>
        <h2>${message.Subject}</h2>
        <iframe sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation" style="width:100%;height:16rem;border:0"
          srcdoc="${raw(message.HTML.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/<a /g, '<a target=&quot;_top&quot; '))}"></iframe>
      </article>`,
    )}
  </body>
</html>`);
  });
  app.notFound((c) => c.json({ error: 'not found' }, 404));
  return app;
}
