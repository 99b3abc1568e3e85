import { useState } from 'react';
import { Button, Heading, HStack, Input, Link, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router-dom';
import { FormField } from '../../components/form-field';
import { LoadError } from '../../components/load-error';
import { LoadingText } from '../../components/loading-text';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import type { CatalogWorkspace } from './catalog-api';
import { collectionSchema, createCollection, deleteCollection, fetchCollections, type CollectionValues } from './collections-api';
import { MarkdownPanel } from './markdown-panel';
import { useCatalogCurrency, useReload } from './use-reload';

function CollectionForm({ onSubmit }: { onSubmit: (v: CollectionValues) => Promise<void> }) {
  const { register, handleSubmit, formState, reset } = useForm<CollectionValues>({
    resolver: zodResolver(collectionSchema), defaultValues: { name: '', seasonCode: '', startsOn: '', endsOn: '' },
  });
  const errors = formState.errors;
  return (
    <form aria-label="New collection" noValidate onSubmit={handleSubmit(async (v) => {
      await onSubmit(v);
      reset();
    })}>
      <Stack gap="3" borderWidth="1px" rounded="md" p="3">
        <SimpleGrid columns={{ base: 1, md: 4 }} gap="3">
          <FormField label="Name" required error={errors.name?.message}><Input {...register('name')} /></FormField>
          <FormField label="Season code" error={errors.seasonCode?.message}><Input placeholder="SS27" {...register('seasonCode')} /></FormField>
          <FormField label="Starts on" error={errors.startsOn?.message}><Input type="date" {...register('startsOn')} /></FormField>
          <FormField label="Ends on" error={errors.endsOn?.message}><Input type="date" {...register('endsOn')} /></FormField>
        </SimpleGrid>
        <div><Button type="submit" size="sm" loading={formState.isSubmitting}>Add collection</Button></div>
      </Stack>
    </form>
  );
}

/**
 * Collections (clothing pack, issue 29): a season's lines with their dates; products join one on their edit page;
 * the end-of-season markdown runs per collection. Sell-through per collection is in Reports, Collections.
 */
export function CollectionsPage({ business }: { business: CatalogWorkspace }) {
  const supabase = useSupabase();
  const canEdit = business.role === 'owner' || business.role === 'manager';
  const [state, reload] = useReload(business.id, () => fetchCollections(supabase, business.id));
  // A fixed markdown price is typed in the catalog's currency: the markdown waits until it is known.
  const [currency, reloadCurrency] = useCatalogCurrency(business.id);
  const [markingDown, setMarkingDown] = useState<string | null>(null);

  const run = async (what: string, action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      notify.success(done);
      reload();
    } catch (error) {
      notify.error(`${what} failed`, error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <Stack gap="4">
      <Link asChild color="blue.fg"><RouterLink to="/dashboard/catalog">← Products</RouterLink></Link>
      <Heading as="h2" size="lg">Collections</Heading>
      <Text color="fg.muted">A season&apos;s line: choose a product&apos;s collection on its page. Sell-through per collection is under Reports.</Text>
      {canEdit && <CollectionForm onSubmit={(v) => run('Adding the collection', () => createCollection(supabase, business.id, v), 'Collection added')} />}
      {state.status === 'loading' ? <LoadingText /> : state.status === 'error' ? (
        <LoadError message="The collections could not be loaded." error={state.error} onRetry={reload} />
      ) : state.data.length === 0 ? <Text>No collections yet.</Text> : (
        <Table.ScrollArea borderWidth="1px" rounded="md">
          <Table.Root size="sm" aria-label="Collections">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Name</Table.ColumnHeader>
                <Table.ColumnHeader>Season</Table.ColumnHeader>
                <Table.ColumnHeader>Dates</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Products</Table.ColumnHeader>
                {canEdit && <Table.ColumnHeader />}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {state.data.map((c) => (
                <Table.Row key={c.id}>
                  <Table.Cell>{c.name}</Table.Cell>
                  <Table.Cell fontFamily="mono">{c.season_code ?? '-'}</Table.Cell>
                  <Table.Cell>{c.starts_on ?? '…'} to {c.ends_on ?? '…'}</Table.Cell>
                  <Table.Cell textAlign="end">{c.products}</Table.Cell>
                  {canEdit && (
                    <Table.Cell>
                      <HStack gap="1" justify="flex-end">
                        <Button size="xs" variant="outline" disabled={currency.status !== 'ready'}
                          onClick={() => setMarkingDown(markingDown === c.id ? null : c.id)}>Markdown</Button>
                        <Button size="xs" variant="ghost" colorPalette="red"
                          onClick={() => void run('Deleting', () => deleteCollection(supabase, c.id), 'Collection deleted; its products stay')}>Delete</Button>
                      </HStack>
                    </Table.Cell>
                  )}
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
      {currency.status === 'error' && (
        <LoadError message="The catalog's currency could not be loaded: the markdown waits for it." error={currency.error} onRetry={reloadCurrency} />
      )}
      {markingDown && state.status === 'ready' && currency.status === 'ready' && (
        <MarkdownPanel key={markingDown} collectionId={markingDown} currency={currency.data}
          name={state.data.find((c) => c.id === markingDown)?.name ?? ''} onDone={() => {
            setMarkingDown(null);
            reload();
          }} />
      )}
    </Stack>
  );
}
