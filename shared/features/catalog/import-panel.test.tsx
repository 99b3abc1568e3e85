import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { AuthStore } from '../../lib/auth-store';
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

function renderPanel(secondWrite: Promise<{ data: unknown; error: null; status: number }>) {
  const calls: Call[] = [];
  let writes = 0;
  const rpc = vi.fn(async (_fn: string, args: { _dry_run: boolean; _first_row: number; _rows: unknown[]; _import_id: string }) => {
    calls.push({ dry: args._dry_run, first: args._first_row, rows: args._rows.length, importId: args._import_id });
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
  render(
    <ChakraProvider value={defaultSystem}>
      <PlatformProvider platform={{} as Platform} supabase={client} auth={{} as AuthStore}>
        <Suspense fallback="loading">
          <ImportPanel business={{ id: 'b1' } as CatalogWorkspace} onImported={onImported} />
        </Suspense>
      </PlatformProvider>
    </ChakraProvider>,
  );
  return { calls, onImported };
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
    expect(await screen.findByText('No errors: 60 rows are ready to import.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Import' }));
    // The second part is still on its way: the bar says how far the import is.
    expect(await screen.findByText('Imported 25 of 60 rows')).toBeVisible();
    expect(screen.getByRole('progressbar')).toBeInTheDocument();
    second.resolve({ data: [{ row_index: 31, message: 'this SKU is already used in the business' }], error: null, status: 200 });
    expect(await screen.findByText('Rows 1 to 25 were imported; the rest were not')).toBeVisible();
    expect(screen.getByText(/Row 31: this SKU is already used in the business\. Check again, then import the other 35 rows\./)).toBeVisible();
    expect(onImported).toHaveBeenCalled();
    const importId = calls[0]?.importId;
    expect(calls.map((c) => [c.dry, c.first, c.rows, c.importId])).toEqual([
      [true, 1, 60, importId], [false, 1, 25, importId], [false, 26, 25, importId]]);
    // The rest: checked again from row 26, then written from there.
    calls.length = 0;
    await user.click(screen.getByRole('button', { name: 'Check (35 rows)' }));
    expect(await screen.findByText('No errors: 35 rows are ready to import.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Import the other 35 rows' }));
    await waitFor(() => expect(screen.queryByText('No errors: 35 rows are ready to import.')).toBeNull());
    expect(calls.map((c) => [c.dry, c.first, c.rows])).toEqual([[true, 26, 35], [false, 26, 25], [false, 51, 10]]);
  });
});
