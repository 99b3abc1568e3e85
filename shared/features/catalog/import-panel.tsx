import { useEffect, useState } from 'react';
import { Alert, Button, HStack, List, NativeSelect, Progress, Stack, Text } from '@chakra-ui/react';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { unwrap, type CatalogWorkspace } from './catalog-api';
import { parseCatalogCsv, type CsvRow } from './catalog-csv';

interface RowError { row_index: number; message: string }

/**
 * CSV import: the file is parsed here, then a dry run in the database lists every row's error; the import itself
 * is one transaction, so a failure leaves nothing half-imported.
 */
export function ImportPanel({ business, onImported }: { business: CatalogWorkspace; onImported: () => void }) {
  const supabase = useSupabase();
  const [rows, setRows] = useState<CsvRow[]>([]);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [rowErrors, setRowErrors] = useState<RowError[] | null>(null);
  const [stores, setStores] = useState<{ id: string; name: string }[]>([]);
  const [storeId, setStoreId] = useState('');
  const [busy, setBusy] = useState<'checking' | 'importing' | null>(null);

  useEffect(() => {
    void supabase.from('stores').select('id, name').eq('business_id', business.id).is('archived_at', null).order('name')
      .then(({ data }) => setStores(data ?? []));
  }, [supabase, business.id]);

  const run = async (dryRun: boolean): Promise<RowError[]> => unwrap(await supabase.rpc('import_catalog', {
    _business_id: business.id, _rows: rows, _dry_run: dryRun, ...(storeId ? { _store_id: storeId } : {}),
  })) ?? [];

  const choose = async (file: File | undefined) => {
    setRowErrors(null);
    if (!file) return;
    const parsed = parseCatalogCsv(await file.arrayBuffer());
    setFileErrors(parsed.errors);
    setRows(parsed.rows);
  };

  const check = async () => {
    setBusy('checking');
    try {
      setRowErrors(await run(true));
    } catch (error) {
      notify.error('Not checked', error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setBusy(null);
    }
  };

  const importRows = async () => {
    setBusy('importing');
    try {
      const errors = await run(false);
      setRowErrors(errors);
      if (errors.length === 0) {
        notify.success('Catalog imported', `${rows.length} rows`);
        setRows([]);
        onImported();
      }
    } catch (error) {
      notify.error('Not imported', error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap="3" as="section" aria-label="Import products">
      <Text fontSize="sm" color="fg.muted">
        A CSV (UTF-8) with the columns product_name, price (in cents) and optionally unit, category, brand, option_name,
        option_value, sku, cost, barcode, opening_qty.
      </Text>
      <HStack gap="3" wrap="wrap">
        <input type="file" accept=".csv,text/csv" aria-label="CSV file" onChange={(e) => void choose(e.target.files?.[0])} />
        <NativeSelect.Root maxW="xs" size="sm">
          <NativeSelect.Field aria-label="Store for opening stock" value={storeId} onChange={(e) => setStoreId(e.target.value)}>
            <option value="">No opening stock</option>
            {stores.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Button size="sm" variant="outline" disabled={rows.length === 0 || busy !== null} loading={busy === 'checking'}
          onClick={() => void check()}>Check ({rows.length} rows)</Button>
        <Button size="sm" disabled={rows.length === 0 || rowErrors === null || rowErrors.length > 0 || busy !== null}
          loading={busy === 'importing'} onClick={() => void importRows()}>Import</Button>
      </HStack>
      {busy && (
        <Progress.Root value={null} size="xs" aria-label={busy === 'checking' ? 'Checking' : 'Importing'}>
          <Progress.Track><Progress.Range /></Progress.Track>
        </Progress.Root>
      )}
      {fileErrors.length > 0 && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>This file cannot be imported</Alert.Title>
            <Alert.Description>{fileErrors.join(' ')}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {rowErrors !== null && (rowErrors.length === 0 ? (
        <Text color="green.fg" role="status">No errors: {rows.length} rows are ready to import.</Text>
      ) : (
        <Alert.Root status="warning" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{rowErrors.length} row{rowErrors.length === 1 ? '' : 's'} to fix; nothing was written</Alert.Title>
            <List.Root>
              {rowErrors.slice(0, 200).map((e) => <List.Item key={`${e.row_index}-${e.message}`}>Row {e.row_index}: {e.message}</List.Item>)}
            </List.Root>
          </Alert.Content>
        </Alert.Root>
      ))}
    </Stack>
  );
}
