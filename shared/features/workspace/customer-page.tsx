import { useState } from 'react';
import { Alert, Button, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { NavLink, useParams } from 'react-router-dom';
import { LoadError } from '../../components/load-error';
import { LoadingText } from '../../components/loading-text';
import { notify } from '../../components/toaster';
import { downloadText } from '../../lib/download-file';
import { useSupabase } from '../../lib/platform-context';
import { eraseCustomer, exportCustomer, fetchCustomer } from './customers-api';
import { useAsync } from './use-async';
import { WorkspaceCard } from './workspace-card';
import type { Workspace } from './workspace-api';

/**
 * One customer's request (GDPR Art. 15, 17 and 20): export what the business holds about them (the customer, their
 * sales with lines and tenders, their refunds) as a JSON file, or erase their name, email and phone. The database
 * decides (owners and managers, the second factor when enrolled); receipts keep an anonymous customer.
 */
export function CustomerPage({ workspace }: { workspace: Workspace }) {
  const supabase = useSupabase();
  const { customerId = '' } = useParams();
  const [customer, reload] = useAsync(`${workspace.id}|${customerId}`, () => fetchCustomer(supabase, workspace.id, customerId));
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState<'export' | 'erase' | null>(null);

  const back = <Link asChild color="blue.fg"><NavLink to="..">All customers</NavLink></Link>;
  if (customer.status === 'loading') return <LoadingText />;
  if (customer.status === 'error') return <LoadError message="The customer could not be loaded." error={customer.error} onRetry={reload} />;
  if (!customer.data) return <Stack gap="2"><Text role="status">This customer does not exist in this business.</Text>{back}</Stack>;
  const c = customer.data;

  const download = async () => {
    setBusy('export');
    try {
      const data = await exportCustomer(supabase, c.id);
      downloadText(`customer-${c.id}.json`, JSON.stringify(data, null, 2), 'application/json');
      notify.success('Customer data exported', 'The JSON file is in your downloads.');
    } catch (error) {
      notify.error('Not exported', error instanceof Error ? error.message : 'Try again.');
    } finally {
      setBusy(null);
    }
  };

  const erase = async () => {
    setBusy('erase');
    try {
      await eraseCustomer(supabase, c.id);
      setConfirming(false);
      notify.success('Customer erased', 'Their name, email and phone are gone; their receipts stay, anonymous.');
      reload();
    } catch (error) {
      notify.error('Not erased', error instanceof Error ? error.message : 'Try again.');
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap="4">
      {back}
      <WorkspaceCard title={c.name} description={c.erased_at ? 'Erased on request: only anonymous receipts remain.' : 'A customer of this business.'}>
        <Stack gap="3" maxW="lg">
          <Text>Email: {c.email ?? '—'}</Text>
          <Text>Phone: {c.phone ?? '—'}</Text>
          <HStack wrap="wrap">
            <Button variant="outline" onClick={() => void download()} loading={busy === 'export'}>Export this customer's data</Button>
            {!c.erased_at && !confirming && (
              <Button colorPalette="red" variant="outline" onClick={() => setConfirming(true)}>Erase this customer</Button>
            )}
          </HStack>
          {confirming && (
            <Alert.Root status="warning" role="alertdialog" aria-label="Erase this customer">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>Erase {c.name}?</Alert.Title>
                <Alert.Description>
                  Their name, email and phone are erased for good, also from the activity trail. Their sales and refunds
                  stay for your books, under "Anonymous customer". This cannot be undone.
                </Alert.Description>
                <HStack mt="3">
                  <Button colorPalette="red" onClick={() => void erase()} loading={busy === 'erase'}>Yes, erase</Button>
                  <Button variant="outline" onClick={() => setConfirming(false)}>Keep</Button>
                </HStack>
              </Alert.Content>
            </Alert.Root>
          )}
        </Stack>
      </WorkspaceCard>
    </Stack>
  );
}
