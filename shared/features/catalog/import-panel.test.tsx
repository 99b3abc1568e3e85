import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { AuthStore } from '../../lib/auth-store';
import type { Currency } from '../../lib/money';
import { PlatformProvider } from '../../lib/platform-context';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { Platform } from '../../platform/platform';
import type { CatalogWorkspace } from './catalog-api';
import { ImportPanel } from './import-panel';

/** ADR 0180: the file is checked, then written in parts of 25 rows with a progress bar; a failing part stops it. */
interface Call { dry: boolean; first: number; rows: number; importId: string }

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

type Answer = { data: unknown; error: null; status: number };
/** The preview's answer for a part: every row new, unless `actionOf` says otherwise. */
type PreviewOf = (rows: unknown[], first: number) => unknown;
const allNew: PreviewOf = (rows, first) => ({ plan: 'Growth', room: null, rows: rows.map((_, i) => ({ row_index: first + i, action: 'new', changes: {} })) });

function renderPanel(secondWrite: Promise<Answer>, previewOf: PreviewOf = allNew,
  // undefined: the catalog's currency is not known yet (an object, as a default parameter would replace undefined).
  { currency }: { currency: Currency | undefined } = { currency: null }) {
  const calls: Call[] = [];
  const sent: unknown[][] = [];
  let writes = 0;
  const rpc = vi.fn(async (fn: string, args: { _dry_run: boolean; _first_row: number; _rows: unknown[]; _import_id: string }) => {
    if (fn === 'preview_catalog_import') return { data: previewOf(args._rows, args._first_row), error: null, status: 200 };
    calls.push({ dry: args._dry_run, first: args._first_row, rows: args._rows.length, importId: args._import_id });
    sent.push(args._rows);
    if (!args._dry_run && ++writes === 2) return secondWrite;
    return { data: [], error: null, status: 200 };
  });
  // The store list: every builder step returns the builder, which resolves to no stores.
  const builder: Record<string, unknown> = {};
  for (const step of ['select', 'eq', 'is', 'order']) builder[step] = () => builder;
  builder.then = (done: (value: unknown) => unknown) => Promise.resolve({ data: [], error: null }).then(done);
  const supabase = { rpc, from: () => builder } as unknown as StorewiseClient;
  const client = Object.assign(Promise.resolve(supabase), { status: 'fulfilled', value: supabase });
  const onImported = vi.fn();
  const panel = (known: Currency | undefined) => (
    <ChakraProvider value={defaultSystem}>
      <PlatformProvider platform={{} as Platform} supabase={client} auth={{} as AuthStore}>
        <Suspense fallback="loading">
          <ImportPanel business={{ id: 'b1' } as CatalogWorkspace} currency={known} onImported={onImported} />
        </Suspense>
      </PlatformProvider>
    </ChakraProvider>
  );
  const { rerender } = render(panel(currency));
  return { calls, sent, onImported, currencyKnown: (known: Currency) => rerender(panel(known)) };
}

const csv = ['product_name,price,sku', ...Array.from({ length: 60 }, (_, i) => `Item ${i + 1},100,IT-${i + 1}`)].join('\n');

// A first Chakra render in jsdom takes seconds on a loaded machine.
describe('catalog import panel', { timeout: 30_000 }, () => {
  it('checks the file, writes it 25 rows a call with its progress, and resumes after a part that failed', async () => {
    const second = deferred<{ data: unknown; error: null; status: number }>();
    const { calls, onImported } = renderPanel(second.promise);
    const user = userEvent.setup();
    await user.upload(await screen.findByLabelText('CSV file'), new File([csv], 'catalog.csv', { type: 'text/csv' }));
    await user.click(await screen.findByRole('button', { name: 'Check (60 rows)' }));
    expect(await screen.findByText(/Ready: 60 new items, 0 to update/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Import' }));
    // The second part is still on its way: the bar says how far the import is.
    expect(await screen.findByText('Imported 25 of 60 rows')).toBeVisible();
    expect(screen.getByRole('progressbar')).toBeInTheDocument();
    second.resolve({ data: [{ row_index: 31, message: 'this SKU is already used in the business' }], error: null, status: 200 });
    expect(await screen.findByText('25 rows were imported; the rest were not')).toBeVisible();
    expect(screen.getByText(/Row 31: this SKU is already used in the business\. Check again, then import the other 35 rows\./)).toBeVisible();
    expect(onImported).toHaveBeenCalled();
    const importId = calls[0]?.importId;
    expect(importId).toBeTruthy();
    expect(calls.map((c) => [c.dry, c.first, c.rows, c.importId])).toEqual([
      [true, 1, 60, importId], [false, 1, 25, importId], [false, 26, 25, importId]]);
    // The rest: checked again from row 26, then written from there.
    calls.length = 0;
    await user.click(screen.getByRole('button', { name: 'Check (35 rows)' }));
    expect(await screen.findByText(/Ready: 35 new items/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Import the other 35 rows' }));
    await waitFor(() => expect(screen.queryByText(/Ready: 35 new items/)).toBeNull());
    // The rest are a new list of 35 rows (a new check, a new import id); messages still name the file's rows.
    expect(calls.map((c) => [c.dry, c.first, c.rows])).toEqual([[true, 1, 35], [false, 1, 25], [false, 26, 10]]);
  });

  it('shows what changes on existing items, writes only the rows that change, and says the plan\'s limit once', async () => {
    const previewOf: PreviewOf = (rows, first) => ({ plan: 'Starter', room: 1, rows: rows.map((_, i) => (
      i === 0 ? { row_index: first, action: 'update', changes: { price: { old: 250, new: 275 } } }
        : i === 1 ? { row_index: first + 1, action: 'same', changes: {} } : { row_index: first + i, action: 'new', changes: {} })) });
    const { calls } = renderPanel(Promise.resolve({ data: [], error: null, status: 200 }), previewOf);
    const user = userEvent.setup();
    const file = 'product_name,price,sku\nMug,2.75,MUG\nBowl,4.00,BOWL\nPlate,3.00,PLATE\nCup,1.00,CUP\n';
    await user.upload(await screen.findByLabelText('CSV file'), new File([file], 'catalog.csv', { type: 'text/csv' }));
    await user.click(await screen.findByRole('button', { name: 'Check (4 rows)' }));
    // Two new items for a room of one: one sentence, and the offer; the import waits.
    expect(await screen.findByText('Your Starter plan allows 1 more item; this file adds 2.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    expect(screen.getByRole('cell', { name: '2.50' })).toBeVisible();
    expect(screen.getByRole('cell', { name: '2.75' })).toBeVisible();
    calls.length = 0;
    await user.click(screen.getByRole('button', { name: 'Import only what fits' }));
    // Checked again without the last new row: 3 rows, sent in minor units.
    expect(await screen.findByRole('button', { name: 'Check (3 rows)' })).toBeVisible();
    await waitFor(() => expect(calls.map((c) => [c.dry, c.rows])).toEqual([[true, 3]]));
  });

  it('waits for the catalog\'s currency before checking, then reads amounts in it (a yen price has no decimals)', async () => {
    const { sent, currencyKnown } = renderPanel(Promise.resolve({ data: [], error: null, status: 200 }), allNew, { currency: undefined });
    const user = userEvent.setup();
    await user.upload(await screen.findByLabelText('CSV file'), new File(['product_name,price,sku\nTea,100,TEA\n'], 'catalog.csv', { type: 'text/csv' }));
    expect(await screen.findByRole('button', { name: 'Check (1 rows)' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Download template' })).toBeDisabled();
    currencyKnown('JPY');
    await user.click(await screen.findByRole('button', { name: 'Check (1 rows)' }));
    expect(await screen.findByText(/Ready: 1 new item, 0 to update/)).toBeVisible();
    expect(sent[0]).toEqual([expect.objectContaining({ sku: 'TEA', price: '100' })]);
  });
});
