import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { AuthStore } from '../../lib/auth-store';
import { PlatformProvider } from '../../lib/platform-context';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { Platform } from '../../platform/platform';
import { CustomersImportPanel } from './customers-import-panel';

/** ADR 0370: the customer file is previewed (new, update old -> new, unchanged, or every row's problem), then written whole. */
function renderPanel(preview: unknown, written: unknown = []) {
  const rpc = vi.fn(async (fn: string) => ({ data: fn === 'preview_customer_import' ? preview : written, error: null, status: 200 }));
  const supabase = { rpc } as unknown as StorewiseClient;
  const client = Object.assign(Promise.resolve(supabase), { status: 'fulfilled', value: supabase });
  const onImported = vi.fn();
  render(
    <ChakraProvider value={defaultSystem}>
      <PlatformProvider platform={{} as Platform} supabase={client} auth={{} as AuthStore}>
        <Suspense fallback="loading">
          <CustomersImportPanel businessId="b1" onImported={onImported} />
        </Suspense>
      </PlatformProvider>
    </ChakraProvider>,
  );
  return { rpc, onImported };
}

const file = (text: string) => new File([text], 'customers.csv', { type: 'text/csv' });
const csv = 'name,email,phone\r\nAda Lovelace,ada@shop.test,5550100009\r\nBen,ben@shop.test,\r\nCy,cy@shop.test,"\'+1 555 010 0100"\r\n';

// A first Chakra render in jsdom takes seconds on a loaded machine.
describe('customer import panel', { timeout: 30_000 }, () => {
  it('previews the changes by email, then imports the whole file', async () => {
    const { rpc, onImported } = renderPanel({
      problems: [],
      rows: [
        { row_index: 1, action: 'update', changes: { name: { old: 'Ada Import', new: 'Ada Lovelace' }, phone: { old: null, new: '5550100009' } } },
        { row_index: 2, action: 'same', changes: {} },
        { row_index: 3, action: 'new', changes: {} },
      ],
    });
    const user = userEvent.setup();
    await user.upload(await screen.findByLabelText('Customer CSV file'), file(csv));
    const importButton = screen.getByRole('button', { name: 'Import' });
    expect(importButton).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Check (3 rows)' }));
    expect(await screen.findByText(/Ready: 1 new customer, 1 to update, 1 unchanged\./)).toBeVisible();
    // The rows went as read: the export's formula escape undone.
    expect(rpc).toHaveBeenCalledWith('preview_customer_import', { _business_id: 'b1', _rows: [
      { name: 'Ada Lovelace', email: 'ada@shop.test', phone: '5550100009' }, { name: 'Ben', email: 'ben@shop.test', phone: '' },
      { name: 'Cy', email: 'cy@shop.test', phone: '+1 555 010 0100' }] });
    const table = within(screen.getByRole('table', { name: 'Changes' }));
    const lines = table.getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(lines).toEqual([['1', 'ada@shop.test', 'Name', 'Ada Import', 'Ada Lovelace'], ['1', 'ada@shop.test', 'Phone', '(none)', '5550100009']]);
    await user.click(importButton);
    // Written: the file is cleared and the list reloads.
    expect(await screen.findByRole('button', { name: 'Check (0 rows)' })).toBeDisabled();
    expect(screen.queryByText(/Ready:/)).toBeNull();
    expect(rpc).toHaveBeenLastCalledWith('import_customers', expect.objectContaining({ _business_id: 'b1' }));
    expect(onImported).toHaveBeenCalledTimes(1);
  });

  it('lists every row to fix and imports nothing', async () => {
    const { rpc, onImported } = renderPanel({ rows: [], problems: [
      { row_index: 2, message: 'this email is also on row 1' }, { row_index: 3, message: '"x" is not an email address' }] });
    const user = userEvent.setup();
    await user.upload(await screen.findByLabelText('Customer CSV file'), file(csv));
    await user.click(screen.getByRole('button', { name: 'Check (3 rows)' }));
    expect(await screen.findByText('2 rows to fix; nothing was written')).toBeVisible();
    expect(screen.getByText('Row 2: this email is also on row 1')).toBeVisible();
    expect(screen.getByText('Row 3: "x" is not an email address')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    expect(rpc).not.toHaveBeenCalledWith('import_customers', expect.anything());
    expect(onImported).not.toHaveBeenCalled();
  });

  it('refuses a file with other columns before asking the database', async () => {
    const { rpc } = renderPanel({ rows: [], problems: [] });
    const user = userEvent.setup();
    await user.upload(await screen.findByLabelText('Customer CSV file'), file('name,email,notes\r\nAda,ada@shop.test,vip\r\n'));
    expect(await screen.findByText('Unknown column: notes. Use: name, email, phone.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Check (0 rows)' })).toBeDisabled();
    expect(rpc).not.toHaveBeenCalled();
  });
});
