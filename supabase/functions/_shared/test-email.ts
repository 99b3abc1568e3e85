/*
 * test_email (docs/adr/0281): the email an admin sends themselves from System Settings > Email, to check that
 * mail leaves the platform and how the sender name and reply-to look. The params record the settings when it was
 * asked for; the deliverer sends it with the settings in force when it goes out (the two normally agree).
 * Only import-free modules, so the local relay (Node) and send-email (Deno) render it alike.
 */
import { emailLayout } from './email-html.ts';
import type { OutboxRowLike, RenderedEmail } from './outbox-email.ts';

export function testEmail(row: OutboxRowLike, siteUrl: string): RenderedEmail | null {
  const name = String(row.params.sender_name ?? '');
  const replyTo = String(row.params.reply_to ?? '');
  if (!name || !replyTo) return null;
  const subject = 'Storewise test email';
  const link = new URL('/admin/settings', siteUrl).toString();
  const lines = [
    'This is the test email you asked for in System Settings. If you can read it, email delivery works.',
    `Sender name: ${name}`,
    `Replies go to: ${replyTo}`,
  ];
  return {
    to: row.to_email,
    subject,
    text: `${subject}\n\n${lines.join('\n')}\n\nSystem Settings: ${link}\n`,
    html: emailLayout({ title: subject, paragraphs: lines, link: { href: link, label: 'System Settings' } }),
  };
}
