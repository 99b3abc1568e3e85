import type { Db } from '../db/types';
import { parseEmailSender, type EmailSender } from '../../functions/_shared/email-sender';

export type { EmailSender } from '../../functions/_shared/email-sender';

/**
 * The sender in force now (System Settings > Email, docs/adr/0281), parsed as the send-email Edge Function parses
 * it; null when the row is not that shape. Nothing cached: a change applies to the next email.
 */
export async function emailSenderFromDb(db: Db): Promise<EmailSender | null> {
  const { rows } = await db.query<{ sender: unknown }>('select public.email_sender() as sender');
  return parseEmailSender(rows[0]?.sender);
}
