import { useId, useState } from 'react';
import { Badge, Button, Field, Input, InputGroup, Stack, Table, Text } from '@chakra-ui/react';
import { LuSearch } from 'react-icons/lu';
import { LoadError } from '../../../components/load-error';
import { LoadingText } from '../../../components/loading-text';
import { notify } from '../../../components/toaster';
import { useSupabase } from '../../../lib/platform-context';
import { SEARCH_MAX } from '../admin-schemas';
import { PageHeader } from '../common/page-header';
import { PaginationControls } from '../common/pagination-controls';
import { useAdminData } from '../common/use-admin-data';
import { useDebouncedValue } from '../common/use-debounced-value';
import { fetchAccounts, setSuspension, type AccountRow } from './accounts-api';
import { BusinessBillingButton } from './business-billing';
import { DeletionQueue } from './deletion-queue';

const PAGE_SIZE = 20;

/** Account Management: every business with owner, plan, stores and members; search and paging in the database. */
export function AdminAccountsPage() {
  const supabase = useSupabase();
  const searchId = useId();
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), 300);
  const [paging, setPaging] = useState({ search: '', page: 1 });
  const page = paging.search === search ? paging.page : 1;
  const { state, reload } = useAdminData(JSON.stringify([search, page]),
    () => fetchAccounts(supabase, search, page, PAGE_SIZE), (error) => notify.error('Failed to fetch accounts', error.message));
  const shown = state.status === 'ready' ? state.data : state.previous;

  const toggle = async (row: AccountRow) => {
    const suspend = !row.suspended_at;
    const reason = suspend ? window.prompt(`Why is ${row.name} suspended? The owner will read this.`)?.trim() : undefined;
    if (suspend && !reason) return;
    try {
      await setSuspension(supabase, row.id, suspend, reason);
      notify.success(suspend ? 'Business suspended' : 'Suspension lifted', row.name);
      reload();
    } catch (error) {
      notify.error('Not changed', error instanceof Error ? error.message : 'Please try again.');
    }
  };

  return (
    <>
      <PageHeader title="Account Management" description="Every business, newest first, with its owner, plan and size." />
      <Stack gap="4">
        <Field.Root maxW={{ md: 'md' }}>
          <Field.Label htmlFor={searchId}>Search by business or owner name</Field.Label>
          <InputGroup startElement={<LuSearch aria-hidden />}>
            <Input id={searchId} type="search" value={searchInput} maxLength={SEARCH_MAX} bg="bg"
              onChange={(event) => setSearchInput(event.target.value)} />
          </InputGroup>
        </Field.Root>
        {state.status === 'error' && <LoadError message="Failed to fetch accounts" error={state.error} onRetry={reload} />}
        {!shown && state.status === 'loading' && <LoadingText />}
        {shown && (
          <>
            {shown.rows.length === 0 ? <Text color="fg.muted">{search ? `No business matches "${search}"` : 'No businesses yet'}</Text> : (
              <Table.ScrollArea borderWidth="1px" rounded="lg" bg="bg" tabIndex={0} aria-label="Businesses table">
                <Table.Root size="sm" aria-label="Businesses" aria-busy={state.status === 'loading'}>
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeader>Business</Table.ColumnHeader><Table.ColumnHeader>Owner</Table.ColumnHeader>
                      <Table.ColumnHeader>Plan</Table.ColumnHeader><Table.ColumnHeader>Stores</Table.ColumnHeader>
                      <Table.ColumnHeader>Members</Table.ColumnHeader><Table.ColumnHeader>Created</Table.ColumnHeader>
                      <Table.ColumnHeader>Status</Table.ColumnHeader>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {shown.rows.map((row) => (
                      <Table.Row key={row.id}>
                        <Table.Cell>{row.name}<Text fontSize="xs" color="fg.muted">{row.type}</Text></Table.Cell>
                        <Table.Cell>{row.owner_name ?? '-'}<Text fontSize="xs" color="fg.muted">{row.owner_email}</Text></Table.Cell>
                        <Table.Cell>{row.plan}<BusinessBillingButton businessId={row.id} name={row.name} /></Table.Cell>
                        <Table.Cell>{row.stores}</Table.Cell>
                        <Table.Cell>{row.members}</Table.Cell>
                        <Table.Cell>{new Date(row.created_at).toLocaleDateString()}</Table.Cell>
                        <Table.Cell>
                          {row.suspended_at ? <Badge colorPalette="red" title={row.suspended_reason ?? ''}>Suspended</Badge>
                            : <Badge colorPalette="green">Active</Badge>}
                          <Button ml="2" size="xs" variant="outline" onClick={() => void toggle(row)}>
                            {row.suspended_at ? 'Lift suspension' : 'Suspend'}
                          </Button>
                        </Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table.Root>
              </Table.ScrollArea>
            )}
            <PaginationControls page={page} pageSize={PAGE_SIZE} total={shown.total} noun="businesses"
              disabled={state.status === 'loading'} onPageChange={(next) => setPaging({ search, page: next })} />
          </>
        )}
        <DeletionQueue />
      </Stack>
    </>
  );
}
