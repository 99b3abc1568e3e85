// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/support.sql: ticket_thread()
import { z } from 'zod';
import type { StorewiseClient } from '../../lib/supabase-client';

/** One message of a ticket thread (ticket_thread): the original message first, then the replies in order. */
export const threadMessageSchema = z.object({
  id: z.string(),
  is_staff: z.boolean(),
  author_name: z.string(),
  body: z.string(),
  created_at: z.string(),
});
export type ThreadMessage = z.infer<typeof threadMessageSchema>;

/** A reply as both sides write it; the database checks the same bounds (ticket_replies_body_check). */
export const replySchema = z.object({
  body: z.string().trim().min(1, 'Write a reply').max(5000, 'Your reply is too long (5000 characters at most)'),
});
export type ReplyValues = z.infer<typeof replySchema>;

export async function fetchThread(supabase: StorewiseClient, ticketId: string): Promise<ThreadMessage[]> {
  const { data, error } = await supabase.rpc('ticket_thread', { _ticket_id: ticketId });
  if (error) throw new Error(error.message);
  return threadMessageSchema.array().parse(data);
}

