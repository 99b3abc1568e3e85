import { useEffect, useState } from 'react';
import { Alert, Button, HStack, List, NativeSelect, Progress, Stack, Text } from '@chakra-ui/react';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import type { CatalogWorkspace } from './catalog-api';
import { parseCatalogCsv, type CsvRow } from './catalog-csv';
import { checkCatalogFile, writeCatalogFile, writtenBefore, type ImportProgress, type ImportTarget, type RowError } from './catalog-import';

/** What stopped an import part way (ADR 0180): the rows before it are in the catalog, the rest are not. */
interface Stopped { written: number; reason: string }

/**
 * CSV import: the file is parsed here, then checked in the database part after part (every row's error is listed),
 * then written part after part with a progress bar (catalog-import.ts). Only a file without errors is written;
 * if a part still fails (someone changed the catalog meanwhile), nothing of that part is written and the panel
 * says which rows are in, and resumes from there.
 */
export function ImportPanel({ business, onImported }: { business: CatalogWorkspace; onImported: () => void }) {
  const supabase = useSupabase();
  const [rows, setRows] = useState<CsvRow[]>([]);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [rowErrors, setRowErrors] = useState<RowError[] | null>(null);
  const [stores, setStores] = useState<{ id: string; name: string }[]>([]);
  const [storeId, setStoreId] = useState('');
  const [busy, setBusy] = useState<'checking' | 'importing' | null>(null);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [importId, setImportId] = useState(() => crypto.randomUUID());
  const [written, setWritten] = useState(0);
  const [stopped, setStopped] = useState<Stopped | null>(null);

  useEffect(() => {
    void supabase.from('stores').select('id, name').eq('business_id', business.id).is('archived_at', null).order('name')
      .then(({ data }) => setStores(data ?? []));
  }, [supabase, business.id]);

  const target = (): ImportTarget => ({ businessId: business.id, importId, onProgress: setProgress, ...(storeId ? { storeId } : {}) });

  const choose = async (file: File | undefined) => {
    setRowErrors(null);
    setStopped(null);
    setWritten(0);
    // A new file is a new check: its parts must not be compared with another file's.
    setImportId(crypto.randomUUID());
    if (!file) return;
    const parsed = parseCatalogCsv(await file.arrayBuffer());
    setFileErrors(parsed.errors);
    setRows(parsed.rows);
  };

  const check = async () => {
    setBusy('checking');
    setStopped(null);
    try {
      setRowErrors(await checkCatalogFile(supabase, target(), rows, written));
    } catch (error) {
      notify.error('Not checked', error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setBusy(null);
      setProgress(null);
    }
  };

  const importRows = async () => {
    setBusy('importing');
    try {
      const result = await writeCatalogFile(supabase, target(), rows, written);
      setWritten(result.written);
      if (result.errors.length === 0) {
        notify.success('Catalog imported', `${rows.length - written} rows`);
        setRows([]);
        setWritten(0);
        setRowErrors(null);
      } else {
        setStopped({ written: result.written, reason: result.errors.map((e) => `Row ${e.row_index}: ${e.message}.`).join(' ') });
        setRowErrors(null);
      }
      if (result.written > written) onImported();
    } catch (error) {
      const done = writtenBefore(error, written);
      setWritten(done);
      setStopped({ written: done, reason: error instanceof Error ? error.message : 'The connection was lost.' });
      setRowErrors(null);
      if (done > written) onImported();
    } finally {
      setBusy(null);
      setProgress(null);
    }
  };

  const remaining = rows.length - written;

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
          onClick={() => void check()}>Check ({remaining} rows)</Button>
        <Button size="sm" disabled={remaining === 0 || rowErrors === null || rowErrors.length > 0 || busy !== null}
          loading={busy === 'importing'} onClick={() => void importRows()}>{written > 0 ? `Import the other ${remaining} rows` : 'Import'}</Button>
      </HStack>
      {busy && (
        <Stack gap="1">
          <Progress.Root value={progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : null} size="xs"
            aria-label={busy === 'checking' ? 'Checking' : 'Importing'}>
            <Progress.Track><Progress.Range /></Progress.Track>
          </Progress.Root>
          {progress && (
            <Text fontSize="xs" color="fg.muted" role="status">
              {busy === 'checking' ? 'Checked' : 'Imported'} {progress.done.toLocaleString()} of {progress.total.toLocaleString()} rows
            </Text>
          )}
        </Stack>
      )}
      {stopped && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>
              {stopped.written > 0 ? `Rows 1 to ${stopped.written} were imported; the rest were not` : 'Nothing was imported'}
            </Alert.Title>
            <Alert.Description>
              {stopped.reason} Check again, then import the other {rows.length - stopped.written} rows.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
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
        <Text color="green.fg" role="status">No errors: {remaining} rows are ready to import.</Text>
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
