import { useState } from 'react';
import { Alert, Badge, Button, HStack, Input, Link, Stack, Table, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router-dom';
import { LoadError } from '../../components/load-error';
import { LoadingText } from '../../components/loading-text';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { atStoreLimit, PLAN_LIMIT_CODE, storeLimitText, storeUsage } from './plan-limit';
import { StoreForm } from './store-form';
import { useAsync } from './use-async';
import { useWorkspaces } from './use-workspaces';
import { WorkspaceCard } from './workspace-card';
import { createRegister, createStore, fetchRegisters, fetchStores, updateStore, WorkspaceError, type Register, type Store,
  type StoreValues, type Workspace } from './workspace-api';
import { registerSchema, type RegisterValues } from './workspace-schemas';

const errorText = (error: unknown) => (error instanceof Error ? error.message : 'Please try again.');

function RegisterForm({ store, onAdded }: { store: Store; onAdded: () => void }) {
  const supabase = useSupabase();
  const { register, handleSubmit, reset, formState } = useForm<RegisterValues>({
    resolver: zodResolver(registerSchema), defaultValues: { name: '', receipt_prefix: '' },
  });
  const onSubmit = handleSubmit(async (values) => {
    try {
      await createRegister(supabase, store, values);
      reset();
      onAdded();
    } catch (error) {
      notify.error('Register not added', errorText(error));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Add a register to ${store.name}`}>
      <HStack align="flex-start" gap="2" wrap="wrap">
        <Input size="sm" maxW="48" placeholder="Register name" aria-label="Register name" {...register('name')} />
        <Input size="sm" maxW="32" placeholder="Prefix" aria-label="Receipt prefix" {...register('receipt_prefix')} />
        <Button size="sm" type="submit" variant="outline" loading={formState.isSubmitting}>Add register</Button>
      </HStack>
      {(formState.errors.name || formState.errors.receipt_prefix) && (
        <Text fontSize="sm" color="fg.error">{formState.errors.name?.message ?? formState.errors.receipt_prefix?.message}</Text>
      )}
    </form>
  );
}

export function StoresPage({ workspace }: { workspace: Workspace }) {
  const supabase = useSupabase();
  const { reload: reloadWorkspaces } = useWorkspaces();
  const [stores, reloadStores] = useAsync(workspace.id, async () => ({
    stores: await fetchStores(supabase, workspace.id), registers: await fetchRegisters(supabase, workspace.id),
  }));
  const [editing, setEditing] = useState<'new' | string | null>(null);
  const [limitMessage, setLimitMessage] = useState<string | null>(null);
  const isOwner = workspace.role === 'owner';
  const canEdit = isOwner || workspace.role === 'manager';
  const reload = () => {
    reloadStores();
    reloadWorkspaces();
  };

  const save = async (values: StoreValues, store?: Store) => {
    try {
      if (store) await updateStore(supabase, store.id, values);
      else await createStore(supabase, workspace.id, values);
      notify.success(store ? 'Store saved' : 'Store created', values.name);
      setEditing(null);
      setLimitMessage(null);
      reload();
    } catch (error) {
      if (error instanceof WorkspaceError && error.code === PLAN_LIMIT_CODE) {
        setLimitMessage(`${error.message}. ${error.hint ?? ''}`.trim());
        setEditing(null);
        reloadWorkspaces();
      } else {
        notify.error('Not saved', errorText(error));
      }
    }
  };

  const setArchived = async (store: Store, archived: boolean) => {
    try {
      await updateStore(supabase, store.id, { archived_at: archived ? new Date().toISOString() : null });
      reload();
    } catch (error) {
      if (error instanceof WorkspaceError && error.code === PLAN_LIMIT_CODE) setLimitMessage(error.message);
      else notify.error(archived ? 'Not archived' : 'Not restored', errorText(error));
    }
  };

  const full = atStoreLimit(workspace);
  return (
    <Stack gap="5">
      <WorkspaceCard
        title="Stores"
        description={`${storeUsage(workspace)} on the ${workspace.plan} plan`}
        actions={isOwner && editing !== 'new' ? (
          <Button size="sm" onClick={() => (full ? setLimitMessage(storeLimitText(workspace)) : setEditing('new'))}>
            Add store
          </Button>
        ) : undefined}
      >
        <Stack gap="4">
          {(limitMessage ?? (full && isOwner && workspace.max_stores !== null && workspace.stores_used > workspace.max_stores
            ? storeLimitText(workspace) : null)) && (
            <Alert.Root status="warning" role="alert">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>Store limit reached</Alert.Title>
                <Alert.Description>
                  {limitMessage ?? storeLimitText(workspace)}{' '}
                  <Link asChild color="blue.fg"><RouterLink to="/dashboard/billing">Upgrade your plan</RouterLink></Link>
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
          {editing === 'new' && (
            <StoreForm submitLabel="Create store" onSubmit={(v) => save(v)} onCancel={() => setEditing(null)} />
          )}
          {stores.status === 'loading' && <LoadingText />}
          {stores.status === 'error' && <LoadError message="Stores could not be loaded." error={stores.error} onRetry={reloadStores} />}
          {stores.status === 'ready' && stores.data.stores.length === 0 && <Text color="fg.muted">No stores yet.</Text>}
          {stores.status === 'ready' && stores.data.stores.map((store) => (
            <StoreRow key={store.id} store={store} registers={stores.data.registers.filter((r) => r.store_id === store.id)}
              editing={editing === store.id} canEdit={canEdit} isOwner={isOwner}
              onEdit={() => setEditing(store.id)} onCancel={() => setEditing(null)} onSave={(v) => save(v, store)}
              onArchive={(archived) => void setArchived(store, archived)} onRegisterAdded={reloadStores} />
          ))}
        </Stack>
      </WorkspaceCard>
    </Stack>
  );
}

function StoreRow({ store, registers, editing, canEdit, isOwner, onEdit, onCancel, onSave, onArchive, onRegisterAdded }: {
  store: Store; registers: Register[]; editing: boolean; canEdit: boolean; isOwner: boolean; onEdit: () => void;
  onCancel: () => void; onSave: (v: StoreValues) => Promise<void>; onArchive: (archived: boolean) => void;
  onRegisterAdded: () => void;
}) {
  if (editing) return <StoreForm store={store} submitLabel="Save store" onSubmit={onSave} onCancel={onCancel} />;
  return (
    <Stack as="article" aria-label={store.name} gap="2" borderWidth="1px" rounded="md" p="3">
      <HStack justify="space-between" wrap="wrap">
        <HStack>
          <Text fontWeight="semibold">{store.name}</Text>
          {store.archived_at && <Badge colorPalette="gray">Archived</Badge>}
        </HStack>
        <HStack>
          {canEdit && !store.archived_at && <Button size="xs" variant="outline" onClick={onEdit}>Edit</Button>}
          {isOwner && (
            <Button size="xs" variant="ghost" onClick={() => onArchive(!store.archived_at)}>
              {store.archived_at ? 'Restore' : 'Archive'}
            </Button>
          )}
        </HStack>
      </HStack>
      <Text fontSize="sm" color="fg.muted">
        {[store.address, store.time_zone, store.currency, `tax ${store.default_tax_rate}%${store.tax_inclusive ? ' included' : ''}`]
          .filter(Boolean).join(' · ')}
      </Text>
      {registers.length > 0 && (
        <Table.Root size="sm" aria-label={`Registers of ${store.name}`}>
          <Table.Header><Table.Row><Table.ColumnHeader>Register</Table.ColumnHeader>
            <Table.ColumnHeader>Receipt prefix</Table.ColumnHeader></Table.Row></Table.Header>
          <Table.Body>
            {registers.map((r) => (
              <Table.Row key={r.id}><Table.Cell>{r.name}</Table.Cell><Table.Cell>{r.receipt_prefix}</Table.Cell></Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
      {canEdit && !store.archived_at && <RegisterForm store={store} onAdded={onRegisterAdded} />}
    </Stack>
  );
}
