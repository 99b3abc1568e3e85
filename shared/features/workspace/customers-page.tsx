import { useState } from 'react';
import { Button, HStack, Input, Link, Stack, Table, Text } from '@chakra-ui/react';
import { NavLink } from 'react-router-dom';
import { LoadError } from '../../components/load-error';
import { LoadingText } from '../../components/loading-text';
import { useSupabase } from '../../lib/platform-context';
import { fetchCustomers, PAGE_SIZE } from './customers-api';
import { CustomersImportPanel } from './customers-import-panel';
import { useAsync } from './use-async';
import { WorkspaceCard } from './workspace-card';
import type { Workspace } from './workspace-api';

/** The business's customers (owners and managers), to answer one customer's request for their data or its erasure. */
export function CustomersPage({ workspace }: { workspace: Workspace }) {
  const supabase = useSupabase();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [list, reload] = useAsync(`${workspace.id}|${search}|${page}`, () => fetchCustomers(supabase, workspace.id, search, page));

  return (
    <WorkspaceCard title="Customers" description="Open a customer to export what the business holds about them or to erase it. Export or import the list as CSV below.">
      <Stack gap="3">
        <form role="search" aria-label="Search customers" onSubmit={(event) => {
          event.preventDefault();
          setPage(0);
          setSearch(typed);
        }}>
          <HStack maxW="lg">
            <Input aria-label="Name, email or phone" placeholder="Name, email or phone" value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)} />
            <Button type="submit" variant="outline">Search</Button>
          </HStack>
        </form>
        {list.status === 'loading' && <LoadingText />}
        {list.status === 'error' && <LoadError message="The customers could not be loaded." error={list.error} onRetry={reload} />}
        {list.status === 'ready' && (list.data.length === 0
          ? <Text color="fg.muted">{search ? 'No customer matches.' : 'No customers yet: the register adds them at a sale.'}</Text>
          : (
            <Table.ScrollArea borderWidth="1px" rounded="md">
              <Table.Root size="sm">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>Name</Table.ColumnHeader>
                    <Table.ColumnHeader>Email</Table.ColumnHeader>
                    <Table.ColumnHeader>Phone</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {list.data.map((customer) => (
                    <Table.Row key={customer.id}>
                      <Table.Cell>
                        <Link asChild color="blue.fg"><NavLink to={customer.id}>{customer.name}</NavLink></Link>
                      </Table.Cell>
                      <Table.Cell>{customer.email ?? ''}</Table.Cell>
                      <Table.Cell>{customer.phone ?? ''}</Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
          ))}
        <HStack>
          <Button size="sm" variant="outline" disabled={page === 0} onClick={() => setPage(page - 1)}>Previous</Button>
          <Button size="sm" variant="outline" disabled={list.status !== 'ready' || list.data.length < PAGE_SIZE}
            onClick={() => setPage(page + 1)}>Next</Button>
        </HStack>
        <CustomersImportPanel businessId={workspace.id} onImported={reload} />
      </Stack>
    </WorkspaceCard>
  );
}
