import type { Db } from '../db/types';
import { headerSafe } from '../../functions/_shared/email-sender';

export { fromHeader } from '../../functions/_shared/email-sender';

/** Who an email says it is from and where replies go: System Settings > Email (docs/adr/0281). */
export interface MailSender {
  name: string;
  replyTo: string;
}

/** The sender in force now, read at every send (nothing cached: a change applies to the next email). */
export async function emailSenderFromDb(db: Db): Promise<MailSender> {
  const { rows } = await db.query<{ sender: { name?: unknown; reply_to?: unknown } }>('select public.email_sender() as sender');
  const sender = rows[0]?.sender ?? {};
  return { name: headerSafe(String(sender.name ?? '')), replyTo: headerSafe(String(sender.reply_to ?? '')) };
}
