import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { GS } from '../../lib/gs1';
import { PlatformProvider } from '../../lib/platform-context';
import type { StorewiseClient } from '../../lib/supabase-client';
import { serialFromInput, type SerialUnit } from './serial-lookup-api';
import { SerialLookupPage } from './serial-lookup-page';

const unit = (over: Partial<SerialUnit>): SerialUnit => ({
  serial: '356938035643809', variant_id: 'v1', product: 'Nova X 128 GB', sku: 'NOVA-X-128', tracking: 'imei', status: 'sold',
  store: 'Main Street',
  received: { at: '2026-10-01T14:00:00Z', store_id: 's1', store: 'Main Street', purchase_order_id: 'po1', supplier: 'Pacific Devices' },
  sales: [{ sale_id: 'sale1', receipt_number: 'MS1-000042', occurred_at: '2026-11-02T15:00:00Z', sold_on: '2026-11-02',
    store_id: 's1', store: 'Main Street', customer: 'Dana Warranty', duplicate: false,
    refunds: [{ refund_id: 'r1', occurred_at: '2026-11-05T10:00:00Z', returned_on: '2026-11-05', store: 'Main Street', qty: 1, disposition: 'restock' }] }],
  warranty_months: 24, warranty_ends_on: '2028-11-02', warranty: 'in_warranty', details: true, ...over,
});

function renderPage(answer: SerialUnit[]) {
  const rpc = vi.fn(async () => ({ data: answer, error: null }));
  const client = { rpc } as unknown as StorewiseClient;
  const loaded = Object.assign(Promise.resolve(client), { status: 'fulfilled', value: client });
  const store = { id: 's1', name: 'Main Street', business_id: 'b1' };
  render(
    <ChakraProvider value={defaultSystem}>
      <PlatformProvider platform={{} as never} auth={{} as never} supabase={loaded}>
        <MemoryRouter>
          <Suspense fallback="loading">
            <SerialLookupPage ctx={{ store, stores: [store], role: 'owner', canManage: true, businessId: 'b1' }} />
          </Suspense>
        </MemoryRouter>
      </PlatformProvider>
    </ChakraProvider>,
  );
  return rpc;
}

describe('serialFromInput', () => {
  it.each([
    ['  356938035643809 ', { ok: true, serial: '356938035643809' }],
    [`]d20109506000134352${GS}21SN-77A${GS}17270600`, { ok: true, serial: 'SN-77A' }],
    ['(01)09506000134352(21)ABC123', { ok: true, serial: 'ABC123' }],
    ['(01)09506000134352(10)L1', { ok: false, error: 'This code has no serial number (21)' }],
    ['has space', { ok: false, error: 'A serial number is up to 64 letters, digits, dots, dashes or slashes' }],
  ])('%j', (input, expected) => {
    expect(serialFromInput(input)).toEqual(expected);
  });
});

describe('SerialLookupPage', () => {
  it('finds a scanned DataMatrix by its serial and shows receipt, return, order and warranty', async () => {
    const rpc = renderPage([unit({ serial: 'SN-77A' })]);
    await userEvent.type(await screen.findByLabelText('Serial number or IMEI'), '(01)09506000134352(21)SN-77A{Enter}');
    await waitFor(() => expect(rpc).toHaveBeenCalledWith('find_serial', { _business_id: 'b1', _serial: 'SN-77A' }));
    expect(await screen.findByTestId('serial-warranty')).toHaveTextContent('In warranty until 2 Nov 2028');
    expect(screen.getByRole('link', { name: 'Open receipt' })).toHaveAttribute('href', '/dashboard/inventory/receipts/sale1');
    expect(screen.getByRole('link', { name: 'purchase order' })).toHaveAttribute('href', '/dashboard/inventory/purchase-orders/po1');
    expect(screen.getByTestId('serial-received')).toHaveTextContent('Received 1 Oct 2026 at Main Street from Pacific Devices');
    expect(screen.getByTestId('serial-return')).toHaveTextContent('Returned 5 Nov 2026 at Main Street: back in stock');
    expect(screen.getByText('Customer: Dana Warranty')).toBeInTheDocument();
  });

  it('shows a cashier the sale without a receipt link, an expired warranty, and says when nothing is found', async () => {
    const sale = unit({}).sales[0];
    const cashierView = unit({ warranty: 'expired', warranty_ends_on: '2025-11-02', details: false,
      received: { at: '2026-10-01T14:00:00Z', store_id: 's1', store: 'Main Street', purchase_order_id: null, supplier: null },
      sales: sale ? [{ ...sale, sale_id: null, customer: null, refunds: [] }] : [] });
    renderPage([cashierView]);
    await userEvent.type(await screen.findByLabelText('Serial number or IMEI'), '356938035643809{Enter}');
    expect(await screen.findByTestId('serial-warranty')).toHaveTextContent('Warranty expired on 2 Nov 2025');
    expect(screen.getByTestId('serial-sale')).toHaveTextContent('Receipt MS1-000042');
    expect(screen.queryByRole('link', { name: 'Open receipt' })).toBeNull();
    expect(screen.queryByText(/Customer:/)).toBeNull();
  });

  it('refuses a text that is not a serial before asking the database, and says when none is found', async () => {
    const rpc = renderPage([]);
    const field = await screen.findByLabelText('Serial number or IMEI');
    await userEvent.type(field, 'two words{Enter}');
    expect(await screen.findByText(/up to 64 letters/)).toBeInTheDocument();
    expect(rpc).not.toHaveBeenCalled();
    await userEvent.clear(field);
    await userEvent.type(field, 'UNKNOWN-1{Enter}');
    expect(await screen.findByTestId('serial-not-found')).toHaveTextContent('No unit with the serial UNKNOWN-1');
  });
});
