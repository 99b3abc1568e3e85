// Storage: bucket support-attachments, names <ticket id>/<uuid>-<file name> (supabase/schemas/storage.sql,
// docs/adr/0231): the ticket's owner adds and reads, admins read.
import type { StorewiseClient } from '../../lib/supabase-client';
import { attachmentType, safeFileName } from './attachment-rules';

const BUCKET = 'support-attachments';

export interface TicketAttachment {
  path: string;
  /** The name the customer's file had. */
  name: string;
  size: number;
  type: string;
}

export async function uploadTicketAttachment(supabase: StorewiseClient, ticketId: string, file: File): Promise<TicketAttachment> {
  const type = attachmentType(file) ?? file.type;
  const name = safeFileName(file.name);
  const path = `${ticketId}/${crypto.randomUUID()}-${name}`;
  const { error } = await supabase.storage.from(BUCKET).upload(path, file, { contentType: type, upsert: false });
  if (error) throw new Error(error.message);
  return { path, name, size: file.size, type };
}

export async function listTicketAttachments(supabase: StorewiseClient, ticketId: string): Promise<TicketAttachment[]> {
  const { data, error } = await supabase.storage.from(BUCKET).list(ticketId, { sortBy: { column: 'created_at', order: 'asc' } });
  if (error) throw new Error(error.message);
  return data
    .filter((entry) => entry.id !== null)
    .map((entry) => ({
      path: `${ticketId}/${entry.name}`,
      // Names are <uuid>-<file name>.
      name: entry.name.replace(/^[0-9a-f-]{36}-/, ''),
      size: Number(entry.metadata?.size ?? 0),
      type: String(entry.metadata?.mimetype ?? ''),
    }));
}

/** A short-lived link that downloads the file under its own name. */
export async function attachmentLink(supabase: StorewiseClient, attachment: TicketAttachment): Promise<string> {
  const { data, error } = await supabase.storage.from(BUCKET).createSignedUrl(attachment.path, 60, { download: attachment.name });
  if (error) throw new Error(error.message);
  return data.signedUrl;
}
