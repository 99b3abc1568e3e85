// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/support.sql: support_tickets
import type { StorewiseClient } from '../../../lib/supabase-client';
import { unwrap } from '../api-result';
import type { TicketValues } from './ticket-schema';

/** Only the columns the list shows (the message body is not listed). */
const TICKET_COLUMNS = 'id, subject, status, created_at, updated_at';

export async function fetchTickets(supabase: StorewiseClient, userId: string) {
  return unwrap(
    await supabase
      .from('support_tickets')
      .select(TICKET_COLUMNS)
      .eq('user_id', userId)
      .order('created_at', { ascending: false }),
  );
}

/** Files a ticket as the spec and the insert policy require (open, medium) and returns the stored row. */
export async function createTicket(supabase: StorewiseClient, userId: string, values: TicketValues) {
  return unwrap(
    await supabase
      .from('support_tickets')
      .insert({ user_id: userId, subject: values.subject, message: values.message, status: 'open', priority: 'medium' })
      .select(TICKET_COLUMNS)
      .single(),
  );
}

export type Ticket = Awaited<ReturnType<typeof fetchTickets>>[number];
