// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/support.sql: customer_reply() support_tickets
import type { StorewiseClient } from '../../../lib/supabase-client';
import { unwrap } from '../api-result';

/** The customer's own ticket (RLS returns nothing for someone else's). */
export async function fetchOwnTicket(supabase: StorewiseClient, ticketId: string) {
  const rows = unwrap(
    await supabase.from('support_tickets').select('id, subject, status, created_at, updated_at').eq('id', ticketId).limit(1),
  );
  const ticket = rows[0];
  if (!ticket) throw new Error('ticket not found');
  return ticket;
}

export async function sendCustomerReply(supabase: StorewiseClient, ticketId: string, body: string) {
  const { error } = await supabase.rpc('customer_reply', { _ticket_id: ticketId, _body: body });
  if (error) throw new Error(error.message);
}
