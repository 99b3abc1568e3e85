import type { Mailbox, OutgoingMail } from './mailbox';
import type { Relay } from './smtp-relay';

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/** Keeps every email in the local inbox and, when configured, relays it over SMTP too. */
export function createMailer(mailbox: Mailbox, relay?: Relay, log: (line: string) => void = console.error): Mailer {
  return {
    async send(mail) {
      mailbox.add(mail);
      if (!relay) return;
      try {
        await relay(mail);
      } catch (error) {
        // The inbox copy is enough for local work; a broken relay must not fail sign-up.
        // No address in the log: it is personal data.
        log(`Storewise: SMTP relay failed: ${(error as Error).message}`);
      }
    },
  };
}
