import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { Link, useParams } from 'react-router-dom';
import { LuArrowLeft } from 'react-icons/lu';
import { StatusBadge } from '../../../components/status-badge';
import { notify } from '../../../components/toaster';
import { formatDate } from '../../../lib/format';
import { useSupabase } from '../../../lib/platform-context';
import { useLiveChanges } from '../../../lib/use-live-changes';
import { ticketUpdated } from '../../../lib/relative-time';
import { PageHeader } from '../page-header';
import { SectionCard } from '../section-card';
import { useLoad } from '../use-load';
import { ReplyForm } from '../../../components/support-thread/reply-form';
import { fetchThread } from '../../../components/support-thread/thread-api';
import { ThreadMessages } from '../../../components/support-thread/thread-messages';
import { TicketAttachments } from '../../../components/support-thread/ticket-attachments';
import { fetchOwnTicket, sendCustomerReply } from './thread-api';

/** /dashboard/support/tickets/:ticketId: the customer's ticket thread; replying reopens a resolved ticket. */
export function TicketPage() {
  const supabase = useSupabase();
  const { ticketId = '' } = useParams();
  const load = useLoad(ticketId, async () => {
    const [ticket, thread] = await Promise.all([fetchOwnTicket(supabase, ticketId), fetchThread(supabase, ticketId)]);
    return { ticket, thread };
  });
  // Live: a support reply or a status change appears in the open thread.
  useLiveChanges(supabase, [{ table: 'ticket_replies', filter: `ticket_id=eq.${ticketId}` }, { table: 'support_tickets', filter: `id=eq.${ticketId}` }],
    load.refresh, ticketId !== '');

  const back = (
    <Button asChild variant="ghost" size="sm" alignSelf="start">
      <Link to="/dashboard/support"><LuArrowLeft aria-hidden /> Back to Support</Link>
    </Button>
  );

  if (load.state.status === 'loading') return <>{back}<Text color="fg.muted">Loading...</Text></>;
  if (load.state.status === 'error') {
    return (
      <Stack gap="3">
        {back}
        <Text role="alert">We couldn't find this ticket. It may belong to another account.</Text>
      </Stack>
    );
  }
  const { ticket, thread } = load.state.data;
  const send = async (body: string) => {
    try {
      await sendCustomerReply(supabase, ticket.id, body);
      notify.success('Reply sent', 'Our support team will get back to you within 24 hours.');
      load.reload();
    } catch (error) {
      notify.error('Reply not sent', error instanceof Error ? error.message : 'Please try again.');
      throw error;
    }
  };

  return (
    <Stack gap="4">
      {back}
      <PageHeader title={ticket.subject} description={`Created ${formatDate(ticket.created_at)} · Last updated ${ticketUpdated(ticket.updated_at)}`} />
      <HStack><Text fontSize="sm">Status:</Text><StatusBadge status={ticket.status} /></HStack>
      <SectionCard title="Conversation" description="Oldest first.">
        <ThreadMessages messages={thread} />
        <TicketAttachments ticketId={ticket.id} />
      </SectionCard>
      <SectionCard title="Reply" description={ticket.status === 'resolved' ? 'Replying reopens this ticket.' : 'We answer within 24 hours.'}>
        {ticket.status === 'closed'
          ? <Text data-testid="ticket-closed">This ticket is closed. Please file a new ticket if you need more help.</Text>
          : <ReplyForm onSend={send} />}
      </SectionCard>
    </Stack>
  );
}
