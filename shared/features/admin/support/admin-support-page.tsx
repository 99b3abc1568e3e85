import { useId, useState } from 'react';
import { Badge, Field, Flex, Input, InputGroup, Stack, Table, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { LuSearch } from 'react-icons/lu';
import { LoadError } from '../../../components/load-error';
import { LoadingText } from '../../../components/loading-text';
import { StatusBadge, statusLabel } from '../../../components/status-badge';
import { notify } from '../../../components/toaster';
import { useSupabase } from '../../../lib/platform-context';
import { SEARCH_MAX } from '../admin-schemas';
import { PageHeader } from '../common/page-header';
import { PaginationControls } from '../common/pagination-controls';
import { useAdminData } from '../common/use-admin-data';
import { useDebouncedValue } from '../common/use-debounced-value';
import { LabelledSelect } from './labelled-select';
import { deskStatuses, fetchQueue, isOverdue, priorities, queueFiltersSchema, type QueueFilters } from './support-admin-api';
import { compactAge } from './ticket-age';

const PAGE_SIZE = 20;
const statusOptions = [['active', 'Active (not resolved)'], ['', 'Any status'],
  ...deskStatuses.map((s) => [s, statusLabel(s)] as const)] as const;
const priorityOptions = [['', 'Any priority'], ...priorities.map((p) => [p, statusLabel(p)] as const)] as const;
const waitingOptions = [['', 'Anyone'], ['us', 'Waiting on us'], ['customer', 'Waiting on the customer']] as const;
const PRIORITY_PALETTE: Record<string, string> = { urgent: 'red', high: 'orange', medium: 'gray', low: 'gray' };

/** Support Tickets: the queue, oldest waiting on us first; filters, search and paging in the database. */
export function AdminSupportPage() {
  const supabase = useSupabase();
  const searchId = useId();
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), 300);
  const [filters, setFilters] = useState<QueueFilters>({ status: 'active', priority: '', waiting: '' });
  const listKey = JSON.stringify([search, filters]);
  const [paging, setPaging] = useState({ listKey: '', page: 1 });
  const page = paging.listKey === listKey ? paging.page : 1;
  const { state, reload } = useAdminData(JSON.stringify([listKey, page]),
    () => fetchQueue(supabase, search, filters, page, PAGE_SIZE), (error) => notify.error('Failed to fetch tickets', error.message));
  const shown = state.status === 'ready' ? state.data : state.previous;
  const setFilter = (name: keyof QueueFilters) => (value: string) =>
    setFilters((current) => queueFiltersSchema.parse({ ...current, [name]: value }));

  return (
    <>
      <PageHeader title="Support Tickets" description="Oldest waiting on us first. We promise an answer within 24 hours." />
      <Stack gap="4">
        <Flex gap="3" wrap="wrap" align="end">
          <Field.Root maxW={{ md: 'sm' }}>
            <Field.Label htmlFor={searchId}>Search subject, owner or business</Field.Label>
            <InputGroup startElement={<LuSearch aria-hidden />}>
              <Input id={searchId} type="search" value={searchInput} maxLength={SEARCH_MAX} bg="bg"
                onChange={(event) => setSearchInput(event.target.value)} />
            </InputGroup>
          </Field.Root>
          <LabelledSelect label="Status" value={filters.status} options={statusOptions} onChange={setFilter('status')} />
          <LabelledSelect label="Priority" value={filters.priority} options={priorityOptions} onChange={setFilter('priority')} />
          <LabelledSelect label="Waiting on" value={filters.waiting} options={waitingOptions} onChange={setFilter('waiting')} />
        </Flex>
        {state.status === 'error' && <LoadError message="Failed to fetch tickets" error={state.error} onRetry={reload} />}
        {!shown && state.status === 'loading' && <LoadingText />}
        {shown && (
          <>
            {shown.rows.length === 0 ? <Text color="fg.muted">{search ? `No ticket matches "${search}"` : 'No tickets here'}</Text> : (
              <Table.ScrollArea borderWidth="1px" rounded="lg" bg="bg" tabIndex={0} aria-label="Ticket queue table">
                <Table.Root size="sm" aria-label="Support tickets" aria-busy={state.status === 'loading'}>
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeader>Subject</Table.ColumnHeader><Table.ColumnHeader>Status</Table.ColumnHeader>
                      <Table.ColumnHeader>Priority</Table.ColumnHeader><Table.ColumnHeader>Business</Table.ColumnHeader>
                      <Table.ColumnHeader>Owner</Table.ColumnHeader><Table.ColumnHeader>Age</Table.ColumnHeader>
                      <Table.ColumnHeader>Waiting</Table.ColumnHeader><Table.ColumnHeader>Last reply</Table.ColumnHeader>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {shown.rows.map((row) => {
                      const overdue = isOverdue(row);
                      return (
                        <Table.Row key={row.id} data-testid="queue-row" data-overdue={overdue}>
                          <Table.Cell maxW="20rem">
                            <Link to={`/admin/support/${row.id}`} style={{ fontWeight: 600, textDecoration: 'underline' }}>{row.subject}</Link>
                            {row.assigned_name && <Text fontSize="xs" color="fg.muted">Assigned to {row.assigned_name}</Text>}
                          </Table.Cell>
                          <Table.Cell><StatusBadge status={row.status} /></Table.Cell>
                          <Table.Cell><Badge colorPalette={PRIORITY_PALETTE[row.priority] ?? 'gray'}>{statusLabel(row.priority)}</Badge></Table.Cell>
                          <Table.Cell>{row.business_name ?? '-'}</Table.Cell>
                          <Table.Cell>{row.owner_name ?? '-'}<Text fontSize="xs" color="fg.muted">{row.owner_email}</Text></Table.Cell>
                          <Table.Cell title={new Date(row.created_at).toLocaleString()}>{compactAge(row.created_at)}</Table.Cell>
                          <Table.Cell>
                            {row.waiting_on === 'us' ? 'On us' : 'On customer'} · {compactAge(row.waiting_since)}
                            {overdue && <Badge ml="1" colorPalette="red" data-testid="overdue">Overdue</Badge>}
                          </Table.Cell>
                          <Table.Cell>{row.last_reply_at ? `${compactAge(row.last_reply_at)} ago` : 'No replies'}</Table.Cell>
                        </Table.Row>
                      );
                    })}
                  </Table.Body>
                </Table.Root>
              </Table.ScrollArea>
            )}
            <PaginationControls page={page} pageSize={PAGE_SIZE} total={shown.total} noun="tickets"
              disabled={state.status === 'loading'} onPageChange={(next) => setPaging({ listKey, page: next })} />
          </>
        )}
      </Stack>
    </>
  );
}
