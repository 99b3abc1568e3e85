import { useEffect, useState } from 'react';
import { Alert, Button, HStack, List, NativeSelect, Progress, Stack, Text } from '@chakra-ui/react';
import { notify } from '../../components/toaster';
import { amountExample, type Currency } from '../../lib/money';
import { useSupabase } from '../../lib/platform-context';
import { downloadText } from '../../lib/download-file';
import type { CatalogWorkspace } from './catalog-api';
import { CATALOG_COLUMNS, type CsvRow } from './catalog-columns';
import { catalogTemplateCsv, parseCatalogCsv, toDatabaseRows } from './catalog-csv';
import { checkCatalogFile, writeCatalogFile, writtenBefore, type ImportProgress, type ImportTarget, type RowError } from './catalog-import';
import { previewCatalogFile, rowsThatFit, summarizePreview, type ImportPreview } from './catalog-preview';
import { ImportChanges } from './import-preview';
import { attachCatalogImages, checkCatalogImages, supabaseUrlOf } from './catalog-images';
import { addProductImage } from '../../lib/product-images/product-images-api';

/** Rows to work on, each with its row number in the file (messages name the file's rows, whatever was left out). */
interface Rows { rows: CsvRow[]; numbers: number[] }
/** A finished check: the rows' problems, or (none) what the file would do and the rows to write. */
interface Checked { importId: string; problems: RowError[]; preview: ImportPreview | null; toWrite: Rows }
/** What stopped an import part way (ADR 0180): the rows before it are in the catalog, the rest are not. */
interface Stopped { written: number; reason: string }

const pick = (from: Rows, positions: number[]): Rows =>
  ({ rows: positions.map((i) => from.rows[i] ?? {}), numbers: positions.map((i) => from.numbers[i] ?? i + 1) });

/**
 * CSV import (issue 25): the file is parsed here (money in the catalog's currency), checked and previewed in the
 * database part after part (catalog-import.ts, catalog-preview.ts): every row's error, or what is created and what
 * changes (old -> new). Only rows that create or change something are written, part after part with a progress bar;
 * a file adding more items than the plan allows says so once and offers the rows that fit.
 */
export function ImportPanel({ business, currency, onImported }: {
  business: CatalogWorkspace;
  /** The catalog's currency (useCatalogCurrency); undefined until it is known, and the file waits for it. */
  currency: Currency | undefined;
  onImported: () => void;
}) {
  const supabase = useSupabase();
  const [file, setFile] = useState<CsvRow[]>([]);
  const [base, setBase] = useState<Rows>({ rows: [], numbers: [] });
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [stores, setStores] = useState<{ id: string; name: string }[]>([]);
  const [storeId, setStoreId] = useState('');
  const [busy, setBusy] = useState<'checking' | 'importing' | null>(null);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [stopped, setStopped] = useState<Stopped | null>(null);

  // The stores for opening stock, once per business.
  useEffect(() => {
    let cancelled = false;
    void supabase.from('stores').select('id, name').eq('business_id', business.id).is('archived_at', null).order('name')
      .then(({ data }) => !cancelled && setStores(data ?? []));
    return () => {
      cancelled = true;
    };
  }, [supabase, business.id]);

  const target = (importId: string): ImportTarget => ({ businessId: business.id, importId, onProgress: setProgress, ...(storeId ? { storeId } : {}) });

  const choose = async (chosen: File | undefined) => {
    setChecked(null);
    setStopped(null);
    if (!chosen) return;
    const parsed = parseCatalogCsv(await chosen.arrayBuffer());
    setFileErrors(parsed.errors);
    setFile(parsed.rows);
    setBase({ rows: parsed.rows, numbers: parsed.rows.map((_, i) => i + 1) });
  };

  const check = async (rows: Rows = base) => {
    if (currency === undefined) return;
    setBusy('checking');
    setChecked(null);
    const importId = crypto.randomUUID();
    try {
      const converted = toDatabaseRows(rows.rows, currency,
        rows.rows.some((r) => r.image_url) ? { supabaseUrl: supabaseUrlOf(supabase), businessId: business.id } : undefined);
      const work: Rows = { rows: converted.rows, numbers: rows.numbers };
      // One after the other: two heavy calls at once from one account are refused as busy (429).
      const catalogProblems = await checkCatalogFile(supabase, target(importId), work.rows);
      // The pictures (ADR 0371): each must be in this business's product images; the change is the main picture.
      const images = await checkCatalogImages(supabase, business.id, work.rows);
      const dbProblems = [...catalogProblems, ...images.problems];
      const catalogPreview = dbProblems.length + converted.problems.length === 0 ? await previewCatalogFile(supabase, target(importId), work.rows) : null;
      const preview = catalogPreview && {
        ...catalogPreview,
        rows: catalogPreview.rows.map((r) => {
          const image = images.changes.get(r.row_index);
          return image ? { ...r, action: r.action === 'same' ? 'update' as const : r.action, changes: { ...r.changes, image_url: image } } : r;
        }),
      };
      // The money message is the person's; the database's "whole number of cents" for the same row is not shown.
      const moneyRows = new Set(converted.problems.map((p) => p.row_index));
      const problems = [...converted.problems, ...dbProblems.filter((p) => !moneyRows.has(p.row_index))]
        .sort((a, b) => a.row_index - b.row_index)
        .map((p) => ({ ...p, row_index: work.numbers[p.row_index - 1] ?? p.row_index }));
      const changing = (preview?.rows ?? []).filter((r) => r.action !== 'same').map((r) => r.row_index - 1);
      setChecked({
        importId, problems,
        preview: preview && { ...preview, rows: preview.rows.map((r) => ({ ...r, row_index: work.numbers[r.row_index - 1] ?? r.row_index })) },
        toWrite: pick(work, changing),
      });
    } catch (error) {
      notify.error('Not checked', error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setBusy(null);
      setProgress(null);
    }
  };

  /** Keeps the updates and the new items the plan has room for, and checks them again. */
  const keepWhatFits = () => {
    if (!checked?.preview) return;
    const byNumber = new Map(base.numbers.map((n, i) => [n, i]));
    const positions = rowsThatFit(checked.preview).map((i) => byNumber.get(i + 1)).filter((i): i is number => i !== undefined);
    const next = pick(base, positions);
    setBase(next);
    void check(next);
  };

  const importRows = async () => {
    if (!checked) return;
    const { toWrite, importId } = checked;
    setBusy('importing');
    try {
      const result = await writeCatalogFile(supabase, target(importId), toWrite.rows);
      // The written rows' pictures become their products' main ones (after the write: new products exist now).
      const written = toWrite.rows.slice(0, result.written);
      if (written.some((r) => r.image_url)) {
        const failed = await attachCatalogImages(supabase, business.id, written,
          (place, picture, position) => addProductImage(supabase, place, picture, position, false));
        if (failed.length > 0) {
          notify.error('Some pictures were not set', failed.map((e) => `Row ${toWrite.numbers[e.row_index - 1] ?? e.row_index}: ${e.message}.`).join(' '));
        }
      }
      if (result.errors.length === 0) {
        setStopped(null);
        notify.success('Catalog imported', `${toWrite.rows.length} row${toWrite.rows.length === 1 ? '' : 's'} created or updated`);
        setFile([]);
        setBase({ rows: [], numbers: [] });
      } else {
        const reason = result.errors.map((e) => `Row ${toWrite.numbers[e.row_index - 1] ?? e.row_index}: ${e.message}.`).join(' ');
        stop(toWrite, result.written, reason);
      }
      setChecked(null);
      if (result.written > 0) onImported();
    } catch (error) {
      const done = writtenBefore(error, 0);
      stop(toWrite, done, error instanceof Error ? error.message : 'The connection was lost.');
      setChecked(null);
      if (done > 0) onImported();
    } finally {
      setBusy(null);
      setProgress(null);
    }
  };

  /** The rows not yet written become the rows to check and import (rows without a SKU would be created twice). */
  const stop = (toWrite: Rows, written: number, reason: string) => {
    setStopped({ written, reason });
    setBase(pick(toWrite, toWrite.rows.map((_, i) => i).slice(written)));
  };

  const summary = checked?.preview && checked.problems.length === 0 ? summarizePreview(checked.preview) : null;
  const skuOf = (row: { row_index: number }) => file[row.row_index - 1]?.sku ?? '';

  return (
    <Stack gap="3" as="section" aria-label="Import products">
      <Text fontSize="sm" color="fg.muted">
        A CSV (UTF-8) with the columns {CATALOG_COLUMNS.map((c) => `${c.key} (${c.help})`).join(', ')}. Prices and costs are
        amounts{currency ? ` in ${currency}` : ''}, such as {amountExample(currency ?? null)}.
        A row whose SKU is already in the catalog updates that item; the catalog&apos;s export can be edited and imported back.
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
        <Button size="sm" variant="ghost" disabled={currency === undefined}
          onClick={() => downloadText('catalog-template.csv', catalogTemplateCsv(currency ?? null))}>
          Download template
        </Button>
        <Button size="sm" variant="outline" disabled={base.rows.length === 0 || busy !== null || currency === undefined} loading={busy === 'checking'}
          onClick={() => void check()}>Check ({base.rows.length} rows)</Button>
        <Button size="sm" disabled={!summary || summary.overLimit !== null || checked?.toWrite.rows.length === 0 || busy !== null}
          loading={busy === 'importing'} onClick={() => void importRows()}>
          {stopped ? `Import the other ${checked?.toWrite.rows.length ?? base.rows.length} rows` : 'Import'}
        </Button>
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
              {stopped.written > 0 ? `${stopped.written} rows were imported; the rest were not` : 'Nothing was imported'}
            </Alert.Title>
            <Alert.Description>{stopped.reason} Check again, then import the other {base.rows.length} rows.</Alert.Description>
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
      {checked && checked.problems.length > 0 && (
        <Alert.Root status="warning" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{checked.problems.length} row{checked.problems.length === 1 ? '' : 's'} to fix; nothing was written</Alert.Title>
            <List.Root>
              {checked.problems.slice(0, 200).map((e) => <List.Item key={`${e.row_index}-${e.message}`}>Row {e.row_index}: {e.message}</List.Item>)}
            </List.Root>
          </Alert.Content>
        </Alert.Root>
      )}
      {summary?.overLimit && (
        <Alert.Root status="warning" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{summary.overLimit}</Alert.Title>
            <Alert.Description>
              <Stack gap="2" align="start">
                <Text>Import the items that fit now (updates are always imported), then archive items or upgrade your plan for the rest.</Text>
                <Button size="sm" onClick={keepWhatFits}>Import only what fits</Button>
              </Stack>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {summary && !summary.overLimit && (
        summary.added + summary.updated === 0 ? (
          <Text role="status">Nothing changes: every row matches the catalog.</Text>
        ) : (
          <Text color="green.fg" role="status">
            Ready: {summary.added} new item{summary.added === 1 ? '' : 's'}, {summary.updated} to update
            {summary.unchanged > 0 ? `, ${summary.unchanged} unchanged` : ''}.
          </Text>
        )
      )}
      {summary && checked?.preview && <ImportChanges rows={checked.preview.rows} skuOf={skuOf} currency={currency ?? null} />}
    </Stack>
  );
}
