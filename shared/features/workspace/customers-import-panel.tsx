import { useState } from 'react';
import { Alert, Button, HStack, List, Stack, Text } from '@chakra-ui/react';
import { ImportChanges } from '../../components/import-changes';
import { notify } from '../../components/toaster';
import { downloadText } from '../../lib/download-file';
import { useSupabase } from '../../lib/platform-context';
import { CUSTOMER_CSV_COLUMNS, customersCsv, fetchCustomersForExport, parseCustomerCsv, type CustomerCsvRow } from './customers-csv';
import { importCustomerFile, previewCustomerFile, summarizeCustomerPreview, type CustomerPreview, type RowError } from './customers-import';

const FIELD_LABELS: Record<string, string> = { name: 'Name', phone: 'Phone' };

/**
 * Customers as CSV (ADR 0370), for owners and managers: the export writes the business export's customers.csv;
 * the import reads it back. Check previews each row (new, update old -> new, unchanged) or every row's problem;
 * Import writes the whole file or nothing, and only into this business.
 */
export function CustomersImportPanel({ businessId, onImported }: { businessId: string; onImported: () => void }) {
  const supabase = useSupabase();
  const [rows, setRows] = useState<CustomerCsvRow[]>([]);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [preview, setPreview] = useState<CustomerPreview | null>(null);
  const [problems, setProblems] = useState<RowError[]>([]);
  const [busy, setBusy] = useState<'exporting' | 'checking' | 'importing' | null>(null);
  const [inputKey, setInputKey] = useState(0);

  const choose = async (file: File | undefined) => {
    setPreview(null);
    setProblems([]);
    if (!file) return;
    const parsed = parseCustomerCsv(await file.arrayBuffer());
    setFileErrors(parsed.errors);
    setRows(parsed.rows);
  };

  const run = async (what: 'exporting' | 'checking' | 'importing', work: () => Promise<void>) => {
    setBusy(what);
    try {
      await work();
    } catch (error) {
      notify.error(what === 'exporting' ? 'Not exported' : what === 'checking' ? 'Not checked' : 'Not imported',
        error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setBusy(null);
    }
  };

  const exportFile = () => run('exporting', async () => {
    downloadText('customers.csv', customersCsv(await fetchCustomersForExport(supabase, businessId)));
  });

  const check = () => run('checking', async () => {
    setPreview(null);
    const answer = await previewCustomerFile(supabase, businessId, rows);
    setProblems(answer.problems);
    setPreview(answer.problems.length === 0 ? answer : null);
  });

  const importRows = () => run('importing', async () => {
    const done = preview ? summarizeCustomerPreview(preview) : null;
    const refused = await importCustomerFile(supabase, businessId, rows);
    setPreview(null);
    if (refused.length > 0) {
      setProblems(refused);
      return;
    }
    notify.success('Customers imported', done ? `${done.added} added, ${done.updated} updated` : undefined);
    setRows([]);
    // A new input: the imported file's name is not left showing.
    setInputKey((key) => key + 1);
    onImported();
  });

  const summary = preview ? summarizeCustomerPreview(preview) : null;

  return (
    <Stack gap="3" as="section" aria-label="Import customers">
      <Text fontSize="sm" color="fg.muted">
        A CSV (UTF-8) with the columns {CUSTOMER_CSV_COLUMNS.join(', ')}, as the export writes it. A row whose email is a
        customer&apos;s updates that customer&apos;s name and phone; other rows add customers. An empty cell changes nothing.
      </Text>
      <HStack gap="3" wrap="wrap">
        <Button size="sm" variant="ghost" loading={busy === 'exporting'} disabled={busy !== null} onClick={() => void exportFile()}>
          Export CSV
        </Button>
        <input key={inputKey} type="file" accept=".csv,text/csv" aria-label="Customer CSV file" onChange={(e) => void choose(e.target.files?.[0])} />
        <Button size="sm" variant="outline" disabled={rows.length === 0 || busy !== null} loading={busy === 'checking'}
          onClick={() => void check()}>Check ({rows.length} rows)</Button>
        <Button size="sm" disabled={!summary || summary.added + summary.updated === 0 || busy !== null} loading={busy === 'importing'}
          onClick={() => void importRows()}>Import</Button>
      </HStack>
      {fileErrors.length > 0 && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>This file cannot be imported</Alert.Title>
            <Alert.Description>{fileErrors.join(' ')}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {problems.length > 0 && (
        <Alert.Root status="warning" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{problems.length} row{problems.length === 1 ? '' : 's'} to fix; nothing was written</Alert.Title>
            <List.Root>
              {problems.slice(0, 200).map((e) => <List.Item key={`${e.row_index}-${e.message}`}>Row {e.row_index}: {e.message}</List.Item>)}
            </List.Root>
          </Alert.Content>
        </Alert.Root>
      )}
      {summary && (summary.added + summary.updated === 0
        ? <Text role="status">Nothing changes: every row matches a customer.</Text>
        : (
          <Text color="green.fg" role="status">
            Ready: {summary.added} new customer{summary.added === 1 ? '' : 's'}, {summary.updated} to update
            {summary.unchanged > 0 ? `, ${summary.unchanged} unchanged` : ''}.
          </Text>
        ))}
      {preview && (
        <ImportChanges rows={preview.rows} keyLabel="Email" keyOf={(row) => rows[row.row_index - 1]?.email ?? ''}
          fieldLabels={FIELD_LABELS} label="Changes to existing customers" />
      )}
    </Stack>
  );
}
