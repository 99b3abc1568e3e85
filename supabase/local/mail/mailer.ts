import type { MailSender } from './email-sender';
import type { Mailbox, OutgoingMail } from './mailbox';
import type { Relay } from './smtp-relay';

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/**
 * Keeps every email in the local inbox and, when configured, relays it over SMTP too. `sender` reads the admin's
 * sender name and reply-to at each send (docs/adr/0281); when it cannot (the database is busy or stopping), the
 * email still goes, from the default name.
 */
export function createMailer(mailbox: Mailbox, relay?: Relay, log: (line: string) => void = console.error,
  sender?: () => Promise<MailSender>): Mailer {
  return {
    async send(mail) {
      const from = sender ? await sender().catch((error: unknown) => {
        log(`Storewise: could not read the email sender settings: ${(error as { code?: string }).code ?? 'error'}`);
        return undefined;
      }) : undefined;
      mailbox.add(mail, from);
      if (!relay) return;
      try {
        await relay(mail, from);
      } catch (error) {
        // The inbox copy is enough for local work; a broken relay must not fail sign-up.
        // No address in the log: it is personal data.
        log(`Storewise: SMTP relay failed: ${(error as Error).message}`);
      }
    },
  };
}
