import type { EmailSender } from './email-sender';
import type { Mailbox, OutgoingMail } from './mailbox';
import type { Relay } from './smtp-relay';

export interface Mailer {
  /**
   * `sender`: the sender settings the caller already read for a batch of emails (null: they could not be read, the
   * default name goes); when absent the mailer reads them for this email.
   */
  send(mail: OutgoingMail, sender?: EmailSender | null): Promise<void>;
  /** The sender settings in force now, null when they cannot be read; absent on a mailer without settings. */
  readSender?(): Promise<EmailSender | null>;
}

/**
 * Keeps every email in the local inbox and, when configured, relays it over SMTP too. `sender` reads the admin's
 * sender name and reply-to (docs/adr/0281): at each send, unless the caller passes the ones it read for a batch
 * (the outbox relay, once per round). When it cannot read them (the database is busy or stopping), the email
 * still goes, from the default name.
 */
export function createMailer(mailbox: Mailbox, relay?: Relay, log: (line: string) => void = console.error,
  sender?: () => Promise<EmailSender | null>): Mailer {
  const readSender = async (): Promise<EmailSender | null> => {
    if (!sender) return null;
    return sender().catch((error: unknown) => {
      log(`Storewise: could not read the email sender settings: ${(error as { code?: string }).code ?? 'error'}`);
      return null;
    });
  };
  return {
    readSender,
    async send(mail, given) {
      const from = (given === undefined ? await readSender() : given) ?? undefined;
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
