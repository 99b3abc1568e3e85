import nodemailer from 'nodemailer';
import { providerFromFields, type EmailSender } from '../../functions/_shared/email-sender';
import { mailFrom, type OutgoingMail } from './mailbox';

export type Relay = (mail: OutgoingMail, sender?: EmailSender) => Promise<void>;

/** What the relay needs of a nodemailer transport (tests pass a stream transport to read the headers). */
export interface MailTransport {
  sendMail(options: { from: string; to: string; subject: string; text: string; html: string; replyTo?: string }): Promise<unknown>;
}

/**
 * Sends through an SMTP transport as `envFrom`'s address; the display name and Reply-To are the admin's, per
 * email (docs/adr/0281), when the mailer could read them.
 */
export function smtpRelay(transport: MailTransport, envFrom: string): Relay {
  return async (mail, sender) => {
    // The same From and Reply-To the send-email Edge Function gives its provider.
    const { from, reply_to: replyTo } = providerFromFields(sender ?? null, envFrom);
    await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, ...(replyTo ? { replyTo } : {}) });
  };
}

/** With SMTP_HOST (and SMTP_PORT/SMTP_USER/SMTP_PASS) set, emails also go out through that server. */
export function smtpRelayFromEnv(env: NodeJS.ProcessEnv = process.env): Relay | undefined {
  if (!env.SMTP_HOST) return undefined;
  const port = Number(env.SMTP_PORT ?? 587);
  const transport = nodemailer.createTransport({
    host: env.SMTP_HOST,
    port,
    secure: port === 465,
    ...(env.SMTP_USER ? { auth: { user: env.SMTP_USER, pass: env.SMTP_PASS ?? '' } } : {}),
  });
  return smtpRelay(transport, env.SMTP_FROM ?? `"${mailFrom.Name}" <${mailFrom.Address}>`);
}
