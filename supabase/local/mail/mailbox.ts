import { randomUUID } from 'node:crypto';

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

/** Every email the local stack sends, newest first, kept in memory (capped). */
export class Mailbox {
  private readonly messages: StoredMessage[] = [];
  constructor(private readonly capacity = 1000) {}

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
  }
}
