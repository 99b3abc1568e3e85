import { SimpleGrid, Stack } from '@chakra-ui/react';
import { useSupabase } from '../../../lib/platform-context';
import { useDashboardSession } from '../dashboard-session';
import { PageHeader } from '../page-header';
import { useLoad } from '../use-load';
import { FaqCard } from './faq-card';
import { fetchTickets } from './support-api';
import { TicketForm } from './ticket-form';
import { TicketsCard } from './tickets-card';

/** /dashboard/support: file a ticket, follow your tickets, read the FAQ. */
export function SupportPage() {
  const supabase = useSupabase();
  const { user } = useDashboardSession();
  const tickets = useLoad(user.id, () => fetchTickets(supabase, user.id));

  return (
    <>
      <PageHeader title="Support" description="Get help from the Storewise team." />
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" alignItems="start">
        <Stack gap="4">
          <TicketForm
            onCreated={(ticket) =>
              tickets.state.status === 'ready' ? tickets.update((rows) => [ticket, ...rows]) : tickets.reload()
            }
          />
          <FaqCard />
        </Stack>
        <TicketsCard load={tickets} />
      </SimpleGrid>
    </>
  );
}
