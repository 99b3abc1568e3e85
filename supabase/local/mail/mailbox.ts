import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import type { EmailSender } from './email-sender';

export interface MailAddress {
  Name: string;
  Address: string;
}

/** A stored message, with Mailpit's field names so tests can use a Mailpit-style client unchanged. */
export interface StoredMessage {
  ID: string;
  MessageID: string;
  From: MailAddress;
  To: MailAddress[];
  /** Absent on messages saved before the reply-to setting existed. */
  ReplyTo?: MailAddress[];
  Subject: string;
  Created: string;
  Text: string;
  HTML: string;
  Size: number;
  Read: boolean;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The local stack's sending address; its name is the admin's sender name when the mailer knows it (ADR 0281). */
export const mailFrom: MailAddress = { Name: 'Storewise', Address: 'no-reply@storewise.local' };

/** How long changes gather before one write of the inbox file. */
const writeDelayMs = 250;

/**
 * Every email the local stack sends, newest first (capped). With a file (the data folder's mailbox.json) the
 * inbox survives restarts like the rest of the local data; in memory otherwise (tests).
 *
 * Sending an email never touches the disk: rewriting the whole file synchronously on every email made
 * "this address exists" answers measurably slower than "unknown address" ones (email enumeration by timing).
 * Changes are written at most once per writeDelayMs, in the background, and flush() (on stop) writes the rest.
 */
export class Mailbox {
  private readonly messages: StoredMessage[];
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private writes = 0;

  constructor(
    private readonly capacity = 1000,
    private readonly file?: string,
  ) {
    this.messages = file && existsSync(file) ? readMessages(file) : [];
  }

  /** How many times the file has been written (tests and benchmarks check the coalescing). */
  get fileWrites(): number {
    return this.writes;
  }

  private changed(): void {
    if (!this.file) return;
    this.dirty = true;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.write();
    }, writeDelayMs);
  }

  /** One write at a time; changes made while it runs are written by the next one. */
  private write(): Promise<void> {
    this.writing ??= (async () => {
      try {
        while (this.dirty && this.file) {
          this.dirty = false;
          // Write then rename, so a crash mid-write never leaves a half-written inbox behind.
          const temporary = `${this.file}.tmp`;
          await writeFile(temporary, JSON.stringify(this.messages), { mode: 0o600 });
          await rename(temporary, this.file);
          this.writes += 1;
        }
      } catch (error) {
        this.dirty = true;
        console.error('Storewise: could not save the inbox:', error instanceof Error ? error.message : error);
      } finally {
        this.writing = undefined;
      }
    })();
    return this.writing;
  }

  /** Writes pending changes now (the stack's stop); resolves when the file is up to date. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.writing;
    if (this.dirty) await this.write();
  }

  add(mail: OutgoingMail, sender?: EmailSender): StoredMessage {
    const id = randomUUID();
    const message: StoredMessage = {
      ID: id,
      MessageID: `${id}@storewise.local`,
      From: { Name: sender?.name || mailFrom.Name, Address: mailFrom.Address },
      To: [{ Name: '', Address: mail.to }],
      ReplyTo: sender?.reply_to ? [{ Name: '', Address: sender.reply_to }] : [],
      Subject: mail.subject,
      Created: new Date().toISOString(),
      Text: mail.text,
      HTML: mail.html,
      Size: Buffer.byteLength(mail.text) + Buffer.byteLength(mail.html),
      Read: false,
    };
    this.messages.unshift(message);
    this.messages.length = Math.min(this.messages.length, this.capacity);
    this.changed();
    return message;
  }

  list(): readonly StoredMessage[] {
    return this.messages;
  }

  get(id: string): StoredMessage | undefined {
    return this.messages.find((message) => message.ID === id);
  }

  clear(): void {
    this.messages.length = 0;
    this.changed();
  }
}

/** Reads a saved inbox; an unreadable file starts an empty inbox rather than stopping the stack. */
function readMessages(file: string): StoredMessage[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(parsed) ? (parsed as StoredMessage[]) : [];
  } catch (error) {
    console.warn(`Storewise: ignoring the unreadable inbox file ${file}:`, error instanceof Error ? error.message : error);
    return [];
  }
}
