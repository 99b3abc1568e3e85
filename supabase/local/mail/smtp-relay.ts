import nodemailer from 'nodemailer';
import { mailFrom, type OutgoingMail } from './mailbox';

export type Relay = (mail: OutgoingMail) => Promise<void>;

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
  const from = env.SMTP_FROM ?? `"${mailFrom.Name}" <${mailFrom.Address}>`;
  return async (mail) => {
    await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
  };
}
