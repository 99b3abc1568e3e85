import { Button, Flex, HStack, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { formatDate } from '../../../lib/format';
import { ticketUpdated } from '../../../lib/relative-time';
import { LoadedList } from '../loaded-list';
import { SectionCard } from '../section-card';
import { StatusBadge } from '../../../components/status-badge';
import type { Load } from '../use-load';
import type { Ticket } from './support-api';

export function TicketsCard({ load }: { load: Load<Ticket[]> }) {
  return (
    <SectionCard title="Your Tickets" description="Newest first.">
      <LoadedList
        load={load}
        errorMessage="We couldn't load your support tickets."
        emptyText="No support tickets yet"
        testId="tickets"
        gap="2"
      >
        {(ticket) => (
          <Flex as="li" key={ticket.id} gap="3" borderWidth="1px" rounded="md" p="3" align="center" wrap="wrap">
            <Stack gap="1" flex="1" minW="12rem">
              <HStack gap="2" wrap="wrap">
                <Text fontWeight="semibold">{ticket.subject}</Text>
                <StatusBadge status={ticket.status} />
              </HStack>
              <Text fontSize="sm" color="fg.muted">
                Created {formatDate(ticket.created_at)} · Last updated {ticketUpdated(ticket.updated_at)}
              </Text>
            </Stack>
            <Button asChild size="sm" variant="outline">
              <Link to={`/dashboard/support/tickets/${ticket.id}`} aria-label={`View Details: ${ticket.subject}`}>View Details</Link>
            </Button>
          </Flex>
        )}
      </LoadedList>
    </SectionCard>
  );
}
