import { useState } from 'react';
import { Button, Flex, Stack, Text } from '@chakra-ui/react';
import { Link, useParams } from 'react-router-dom';
import { LuArrowLeft } from 'react-icons/lu';
import { LoadError } from '../../../components/load-error';
import { LoadingText } from '../../../components/loading-text';
import { StatusBadge, statusLabel } from '../../../components/status-badge';
import { notify } from '../../../components/toaster';
import { useSupabase } from '../../../lib/platform-context';
import { useLiveChanges } from '../../../lib/use-live-changes';
import { PageHeader } from '../common/page-header';
import { useAdminData } from '../common/use-admin-data';
import { ReplyForm } from '../../../components/support-thread/reply-form';
import { fetchThread } from '../../../components/support-thread/thread-api';
import { ThreadMessages } from '../../../components/support-thread/thread-messages';
import { TicketAttachments } from '../../../components/support-thread/ticket-attachments';
import { LabelledSelect } from './labelled-select';
import { deskStatuses, fetchAdmins, fetchQueueTicket, isOverdue, priorities, sendAdminReply, setTicket } from './support-admin-api';

const statusOptions = deskStatuses.map((s) => [s, statusLabel(s)] as const);
const priorityOptions = priorities.map((p) => [p, statusLabel(p)] as const);
const afterReplyOptions = [['', 'Pending customer (default)'], ...statusOptions] as const;

/** /admin/support/:ticketId: the thread; reply, change status and priority, assign to an admin. */
export function AdminTicketPage() {
  const supabase = useSupabase();
  const { ticketId = '' } = useParams();
  const [afterReply, setAfterReply] = useState('');
  const [busy, setBusy] = useState(false);
  const { state, reload, refresh } = useAdminData(ticketId, async () => {
    const [ticket, thread, admins] = await Promise.all([
      fetchQueueTicket(supabase, ticketId), fetchThread(supabase, ticketId), fetchAdmins(supabase)]);
    return { ticket, thread, admins };
  });
  // Live: the customer's reply (or another admin's) appears in the open thread.
  useLiveChanges(supabase, [{ table: 'ticket_replies', filter: `ticket_id=eq.${ticketId}` }, { table: 'support_tickets', filter: `id=eq.${ticketId}` }],
    refresh, ticketId !== '');
  const back = (
    <Button asChild variant="ghost" size="sm" alignSelf="start">
      <Link to="/admin/support"><LuArrowLeft aria-hidden /> All tickets</Link>
    </Button>
  );
  if (state.status === 'error') return <Stack gap="3">{back}<LoadError message="Failed to load the ticket" error={state.error} onRetry={reload} /></Stack>;
  if (state.status !== 'ready') return <Stack gap="3">{back}<LoadingText /></Stack>;
  const { ticket, thread, admins } = state.data;

  const change = async (what: { status?: string; priority?: string; assignee?: string | null }) => {
    setBusy(true);
    try {
      await setTicket(supabase, ticket.id, what);
      notify.success('Ticket updated', ticket.subject);
      reload();
    } catch (error) {
      notify.error('Not changed', error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setBusy(false);
    }
  };
  const reply = async (body: string) => {
    try {
      await sendAdminReply(supabase, ticket.id, body, afterReply);
      notify.success('Reply sent', 'The customer was notified by email.');
      setAfterReply('');
      reload();
    } catch (error) {
      notify.error('Reply not sent', error instanceof Error ? error.message : 'Please try again.');
      throw error;
    }
  };

  return (
    <Stack gap="4">
      {back}
      <PageHeader title={ticket.subject}
        description={`${ticket.owner_name ?? ticket.owner_email ?? 'Customer'}${ticket.owner_email ? ` <${ticket.owner_email}>` : ''} · ${ticket.business_name ?? 'No business'}`} />
      <Flex gap="3" align="center" wrap="wrap">
        <StatusBadge status={ticket.status} />
        <Text fontSize="sm" color="fg.muted" data-testid="waiting-on">
          Waiting on {ticket.waiting_on === 'us' ? 'us' : 'the customer'} since {new Date(ticket.waiting_since).toLocaleString()}
        </Text>
        {isOverdue(ticket) && <Text color="red.fg" fontWeight="semibold">Overdue: past the 24-hour promise</Text>}
      </Flex>
      <Flex gap="3" wrap="wrap" align="end">
        <LabelledSelect label="Status" value={ticket.status} disabled={busy}
          options={ticket.status === 'in_progress' ? [['in_progress', 'In progress'], ...statusOptions] : statusOptions}
          onChange={(status) => void change({ status })} />
        <LabelledSelect label="Priority" value={ticket.priority} options={priorityOptions} disabled={busy}
          onChange={(priority) => void change({ priority })} />
        <LabelledSelect label="Assigned to" value={ticket.assigned_admin ?? ''} disabled={busy}
          options={[['', 'Nobody'], ...admins.map((a) => [a.id, a.name] as const)]}
          onChange={(id) => void change({ assignee: id || null })} />
      </Flex>
      <ThreadMessages messages={thread} />
      <TicketAttachments ticketId={ticket.id} />
      <ReplyForm onSend={reply} label="Reply to the customer">
        <LabelledSelect label="Then set status to" value={afterReply} options={afterReplyOptions} onChange={setAfterReply} />
      </ReplyForm>
    </Stack>
  );
}
