// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/support.sql: admin_list_admins() admin_list_tickets() admin_reply() admin_set_ticket()
import { z } from 'zod';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { AdminApiError } from '../admin-api';

/** One ticket of admin_list_tickets, validated at the edge like the other admin lists. */
export const queueRowSchema = z.object({
  id: z.string(),
  subject: z.string(),
  status: z.string(),
  priority: z.string(),
  waiting_on: z.enum(['us', 'customer']),
  waiting_since: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  last_reply_at: z.string().nullable(),
  reply_count: z.number(),
  user_id: z.string(),
  owner_name: z.string().nullable(),
  owner_email: z.string().nullable(),
  business_id: z.string().nullable(),
  business_name: z.string().nullable(),
  assigned_admin: z.string().nullable(),
  assigned_name: z.string().nullable(),
  total_count: z.number(),
});
export type QueueRow = z.infer<typeof queueRowSchema>;

export const deskStatuses = ['open', 'pending_customer', 'resolved', 'closed'] as const;
export const priorities = ['low', 'medium', 'high', 'urgent'] as const;

/** The filters of the queue; '' means "any". 'active' = neither resolved nor closed. */
export const queueFiltersSchema = z.object({
  status: z.enum(['', 'active', ...deskStatuses, 'in_progress']),
  priority: z.enum(['', ...priorities]),
  waiting: z.enum(['', 'us', 'customer']),
});
export type QueueFilters = z.infer<typeof queueFiltersSchema>;

/** The 24-hour promise: a ticket waiting on us for longer is overdue. */
export const OVERDUE_MS = 24 * 60 * 60 * 1000;
export function isOverdue(row: Pick<QueueRow, 'waiting_on' | 'waiting_since' | 'status'>, now = Date.now()): boolean {
  return row.waiting_on === 'us' && !['resolved', 'closed'].includes(row.status)
    && now - new Date(row.waiting_since).getTime() > OVERDUE_MS;
}

const fail = (error: { message: string; code?: string }) => new AdminApiError(error.message, error.code ?? '');

export async function fetchQueue(supabase: StorewiseClient, search: string, filters: QueueFilters, page: number, pageSize: number) {
  const { data, error } = await supabase.rpc('admin_list_tickets', {
    _search: search || undefined,
    _status: filters.status || undefined,
    _priority: filters.priority || undefined,
    _waiting_on: filters.waiting || undefined,
    _limit: pageSize,
    _offset: (page - 1) * pageSize,
  });
  if (error) throw fail(error);
  const rows = queueRowSchema.array().parse(data);
  return { rows, total: rows[0]?.total_count ?? 0 };
}

export async function fetchQueueTicket(supabase: StorewiseClient, ticketId: string): Promise<QueueRow> {
  const { data, error } = await supabase.rpc('admin_list_tickets', { _ticket_id: ticketId, _limit: 1 });
  if (error) throw fail(error);
  const row = queueRowSchema.array().parse(data)[0];
  if (!row) throw new AdminApiError('ticket not found', 'PT404');
  return row;
}

export async function fetchAdmins(supabase: StorewiseClient) {
  const { data, error } = await supabase.rpc('admin_list_admins');
  if (error) throw fail(error);
  return z.object({ id: z.string(), name: z.string() }).array().parse(data);
}

export async function sendAdminReply(supabase: StorewiseClient, ticketId: string, body: string, status?: string) {
  const { error } = await supabase.rpc('admin_reply', { _ticket_id: ticketId, _body: body, _status: status || undefined });
  if (error) throw fail(error);
}

export async function setTicket(
  supabase: StorewiseClient,
  ticketId: string,
  change: { status?: string; priority?: string; assignee?: string | null },
) {
  const { error } = await supabase.rpc('admin_set_ticket', {
    _ticket_id: ticketId,
    _status: change.status,
    _priority: change.priority,
    _assignee: change.assignee ?? undefined,
    _unassign: change.assignee === null,
  });
  if (error) throw fail(error);
}
