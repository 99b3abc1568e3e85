import { useState } from 'react';
import { Button, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { failure } from './inventory-api';
import { archiveSupplier, fetchSuppliers, saveSupplier, type Supplier } from './orders-api';
import type { StoreContext } from './store-context';
import { SupplierForm } from './supplier-form';
import { Loaded, useLoad } from './use-load';

/** The business's suppliers: add, edit, archive (orders keep naming an archived supplier). */
export function SuppliersPage({ ctx }: { ctx: StoreContext }) {
  const supabase = useSupabase();
  const [state, reload] = useLoad(ctx.businessId, () => fetchSuppliers(supabase, ctx.businessId));
  const [editing, setEditing] = useState<Supplier | 'new' | null>(null);

  const save = async (values: Parameters<typeof saveSupplier>[2]) => {
    try {
      await saveSupplier(supabase, ctx.businessId, values, editing && editing !== 'new' ? editing.id : undefined);
      notify.success('Supplier saved', values.name);
      setEditing(null);
      reload();
    } catch (error) {
      notify.error('Supplier not saved', failure(error));
    }
  };

  return (
    <Stack gap="4">
      <HStack>
        {!editing && <Button onClick={() => setEditing('new')}>New supplier</Button>}
      </HStack>
      {editing && (
        <SupplierForm key={editing === 'new' ? 'new' : editing.id} submitLabel={editing === 'new' ? 'Add supplier' : 'Save supplier'}
          initial={editing === 'new' ? undefined : { name: editing.name, contactName: editing.contact_name ?? '', email: editing.email ?? '',
            phone: editing.phone ?? '', notes: editing.notes ?? '' }}
          onSubmit={save} onCancel={() => setEditing(null)} />
      )}
      <Loaded state={state} what="Suppliers" reload={reload}>
        {(suppliers) => suppliers.length === 0 ? <Text color="fg.muted">No suppliers yet.</Text> : (
          <Table.ScrollArea borderWidth="1px" rounded="md">
            <Table.Root size="sm" aria-label="Suppliers">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Name</Table.ColumnHeader>
                  <Table.ColumnHeader>Contact</Table.ColumnHeader>
                  <Table.ColumnHeader>Email</Table.ColumnHeader>
                  <Table.ColumnHeader>Phone</Table.ColumnHeader>
                  <Table.ColumnHeader />
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {suppliers.map((s) => (
                  <Table.Row key={s.id}>
                    <Table.Cell>{s.name}</Table.Cell>
                    <Table.Cell>{s.contact_name ?? '-'}</Table.Cell>
                    <Table.Cell>{s.email ?? '-'}</Table.Cell>
                    <Table.Cell>{s.phone ?? '-'}</Table.Cell>
                    <Table.Cell textAlign="end">
                      <HStack justify="flex-end" gap="1">
                        <Button size="xs" variant="ghost" aria-label={`Edit ${s.name}`} onClick={() => setEditing(s)}>Edit</Button>
                        <Button size="xs" variant="ghost" aria-label={`Archive ${s.name}`} onClick={() => {
                          archiveSupplier(supabase, s.id).then(() => {
                            notify.success('Supplier archived', s.name);
                            reload();
                          }, (error: unknown) => notify.error('Supplier not archived', failure(error)));
                        }}>Archive</Button>
                      </HStack>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        )}
      </Loaded>
    </Stack>
  );
}
