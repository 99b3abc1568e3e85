import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

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

export const mailFrom: MailAddress = { Name: 'Storewise', Address: 'no-reply@storewise.local' };

/**
 * Every email the local stack sends, newest first (capped). With a file (the data folder's mailbox.json) the
 * inbox survives restarts like the rest of the local data; in memory otherwise (tests).
 */
export class Mailbox {
  private readonly messages: StoredMessage[];
  constructor(
    private readonly capacity = 1000,
    private readonly file?: string,
  ) {
    this.messages = file && existsSync(file) ? readMessages(file) : [];
  }

  private save(): void {
    if (!this.file) return;
    // Write then rename, so a crash mid-write never leaves a half-written inbox behind.
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, JSON.stringify(this.messages), { mode: 0o600 });
    renameSync(temporary, this.file);
  }

  add(mail: OutgoingMail): StoredMessage {
    const id = randomUUID();
    const message: StoredMessage = {
      ID: id,
      MessageID: `${id}@storewise.local`,
      From: mailFrom,
      To: [{ Name: '', Address: mail.to }],
      Subject: mail.subject,
      Created: new Date().toISOString(),
      Text: mail.text,
      HTML: mail.html,
      Size: Buffer.byteLength(mail.text) + Buffer.byteLength(mail.html),
      Read: false,
    };
    this.messages.unshift(message);
    this.messages.length = Math.min(this.messages.length, this.capacity);
    this.save();
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
    this.save();
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
