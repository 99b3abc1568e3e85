import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { PlatformProvider } from '../../lib/platform-context';
import type { StorewiseClient } from '../../lib/supabase-client';
import { LevelsForm } from './levels-dialog';
import type { Supplier } from './orders-api';
import { PurchaseOrderForm } from './purchase-order-form';
import { ReceiveForm, type ReceiveLine } from './receive-form';
import { SupplierForm } from './supplier-form';
import { ReceiveTransferForm } from './transfer-forms';

/**
 * A client whose catalog search answers one item, and whose business has no packs (the size grid stays hidden);
 * nothing else is called by these forms.
 */
const noPacks = { select: () => noPacks, eq: () => noPacks, maybeSingle: async () => ({ data: { packs: [] }, error: null }) };
const fakeClient = {
  rpc: vi.fn(async () => ({ data: [{ variant_id: 'v1', product_name: 'Linen Shirt', option1: 'M', option2: null, option3: null,
    sku: 'LINENS-M', unit: 'each', has_lots: false }], error: null })),
  from: () => noPacks,
} as unknown as StorewiseClient;

// Marked fulfilled the way React's use() reads a settled promise, so the client is there on the first render.
const loaded = Object.assign(Promise.resolve(fakeClient), { status: 'fulfilled', value: fakeClient });

function renderUi(ui: ReactNode) {
  return render(
    <ChakraProvider value={defaultSystem}>
      <PlatformProvider platform={{} as never} auth={{} as never} supabase={loaded}>
        <Suspense fallback="loading">{ui}</Suspense>
      </PlatformProvider>
    </ChakraProvider>,
  );
}

const line = (over: Partial<ReceiveLine>): ReceiveLine => ({
  lineId: 'l1', variantId: 'v1', label: 'Eye drops', unit: 'each', remaining: 10, hasLots: false, requiresExpiry: false,
  serialTracking: null, barcodes: ['9506000134352'], qty: '10', lotNumber: '', expiresOn: '', serials: '', ...over,
});

// A first Chakra render in jsdom takes seconds on a loaded machine.
describe('inventory forms', { timeout: 30_000 }, () => {
  it('SupplierForm names a bad email and a short phone, then sends trimmed values', async () => {
    const onSubmit = vi.fn(async () => undefined);
    renderUi(<SupplierForm submitLabel="Add supplier" onSubmit={onSubmit} onCancel={() => undefined} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), '  Dairy Direct ');
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'orders@dairy');
    await user.type(screen.getByRole('textbox', { name: /^Phone/ }), '12345');
    await user.click(screen.getByRole('button', { name: 'Add supplier' }));
    expect(await screen.findByText('Enter an email such as orders@supplier.com')).toBeVisible();
    expect(screen.getByText('Enter 10 to 20 characters')).toBeVisible();
    expect(onSubmit).not.toHaveBeenCalled();
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), '.example');
    await user.clear(screen.getByRole('textbox', { name: /^Phone/ }));
    await user.click(screen.getByRole('button', { name: 'Add supplier' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]).toEqual([{ name: 'Dairy Direct', contactName: '', email: 'orders@dairy.example', phone: '', notes: '' }, expect.anything()]);
  });

  it('ReceiveForm asks for the lot and expiry of lot-tracked items and refuses more than expected', async () => {
    const onSubmit = vi.fn(async () => undefined);
    renderUi(<ReceiveForm lines={[line({ hasLots: true, requiresExpiry: true }), line({ lineId: 'l2', label: 'Soap', remaining: 4, qty: '4' })]}
      onSubmit={onSubmit} onCancel={() => undefined} />);
    const user = userEvent.setup();
    await user.clear(screen.getByRole('textbox', { name: 'Received of Soap' }));
    await user.type(screen.getByRole('textbox', { name: 'Received of Soap' }), '5');
    await user.click(screen.getByRole('button', { name: 'Receive' }));
    expect(await screen.findByText('Enter the lot number')).toBeVisible();
    expect(screen.getByText('Enter the expiry date')).toBeVisible();
    expect(screen.getByText('At most 4 are still expected')).toBeVisible();
    expect(onSubmit).not.toHaveBeenCalled();
    await user.type(screen.getByRole('textbox', { name: 'Lot of Eye drops' }), 'B-17');
    await user.type(screen.getByLabelText('Expiry of Eye drops'), '2027-03-01');
    await user.clear(screen.getByRole('textbox', { name: 'Received of Soap' }));
    await user.click(screen.getByRole('button', { name: 'Receive' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    const values = (onSubmit.mock.calls[0] as unknown as [{ lines: ReceiveLine[] }])[0];
    expect(values.lines.map((l) => [l.qty, l.lotNumber, l.expiresOn])).toEqual([['10', 'B-17', '2027-03-01'], ['', '', '']]);
  });

  it('ReceiveForm fills a line\'s lot and expiry from a DataMatrix and wants one serial per unit of tracked items', async () => {
    const onSubmit = vi.fn(async () => undefined);
    renderUi(<ReceiveForm lines={[line({ hasLots: true, requiresExpiry: true, qty: '3' }),
      line({ lineId: 'l2', variantId: 'v2', label: 'Phone', remaining: 2, qty: '2', serialTracking: 'imei', barcodes: ['0012345678905'] })]}
      onSubmit={onSubmit} onCancel={() => undefined} />);
    const user = userEvent.setup();
    const scan = screen.getByRole('textbox', { name: 'Scan a DataMatrix' });
    // GTIN 09506000134352 = the EAN-13 9506000134352 of Eye drops; lot then FNC1 (GS) then the expiry, day 00.
    fireEvent.change(scan, { target: { value: ']d20109506000134352' + '10B-17\u001d17270600' } });
    fireEvent.keyDown(scan, { key: 'Enter' });
    expect(await screen.findByText('Eye drops: lot B-17, expiry 2027-06-30')).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Lot of Eye drops' })).toHaveValue('B-17');
    expect(screen.getByLabelText('Expiry of Eye drops')).toHaveValue('2027-06-30');
    fireEvent.change(scan, { target: { value: ']d20119506000134359' } });
    fireEvent.keyDown(scan, { key: 'Enter' });
    expect(await screen.findByText('No line of this order has the GTIN 19506000134359')).toBeVisible();
    await user.type(screen.getByRole('textbox', { name: 'Serials of Phone' }), '490154203237518');
    await user.click(screen.getByRole('button', { name: 'Receive' }));
    expect(await screen.findByText('Enter 2 serial numbers, one per unit (1 entered)')).toBeVisible();
    expect(onSubmit).not.toHaveBeenCalled();
    await user.type(screen.getByRole('textbox', { name: 'Serials of Phone' }), '{Enter}356938035643809');
    await user.click(screen.getByRole('button', { name: 'Receive' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    const values = (onSubmit.mock.calls[0] as unknown as [{ lines: ReceiveLine[] }])[0];
    expect(values.lines.map((l) => [l.lotNumber, l.expiresOn, l.serials])).toEqual([
      ['B-17', '2027-06-30', ''], ['', '', '490154203237518\n356938035643809']]);
  });

  it('ReceiveTransferForm shows what is missing as it is typed and refuses more than was sent', async () => {
    const onSubmit = vi.fn(async () => undefined);
    renderUi(<ReceiveTransferForm lines={[{ lineId: 't1', label: 'Tee', unit: 'each', sent: 5, received: '5', damaged: '0' }]}
      onSubmit={onSubmit} onCancel={() => undefined} />);
    const user = userEvent.setup();
    const received = screen.getByRole('textbox', { name: 'Received of Tee' });
    await user.clear(received);
    await user.type(received, '3');
    await user.clear(screen.getByRole('textbox', { name: 'Damaged of Tee' }));
    await user.type(screen.getByRole('textbox', { name: 'Damaged of Tee' }), '1');
    expect(screen.getByTestId('transfer-missing')).toHaveTextContent('1');
    await user.clear(received);
    await user.type(received, '5');
    await user.click(screen.getByRole('button', { name: 'Receive transfer' }));
    expect(await screen.findByText('Received and damaged together are at most the 5 sent')).toBeVisible();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('LevelsForm refuses a target under the reorder point and decimals for items by the piece', async () => {
    const onSave = vi.fn(async () => undefined);
    renderUi(<LevelsForm item={{ label: 'Tee', unit: 'each', reorderPoint: null, targetLevel: null }} onSave={onSave} onCancel={() => undefined} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: /^Reorder at/ }), '5');
    await user.type(screen.getByRole('textbox', { name: /^Order up to/ }), '2.5');
    await user.click(screen.getByRole('button', { name: 'Save levels' }));
    expect(await screen.findByText('Enter a whole number of pieces')).toBeVisible();
    await user.clear(screen.getByRole('textbox', { name: /^Order up to/ }));
    await user.type(screen.getByRole('textbox', { name: /^Order up to/ }), '3');
    await user.click(screen.getByRole('button', { name: 'Save levels' }));
    expect(await screen.findByText('The target level is at least the reorder point')).toBeVisible();
    await user.clear(screen.getByRole('textbox', { name: /^Order up to/ }));
    await user.type(screen.getByRole('textbox', { name: /^Order up to/ }), '20');
    await user.click(screen.getByRole('button', { name: 'Save levels' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith(5, 20));
  });

  it('PurchaseOrderForm needs a supplier and an item, adds items found by SKU, and checks each line', async () => {
    const onSubmit = vi.fn(async () => undefined);
    const suppliers = [{ id: 's1', name: 'Dairy Direct' }] as Supplier[];
    renderUi(<PurchaseOrderForm businessId="b1" suppliers={suppliers} onSubmit={onSubmit} onCancel={() => undefined} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save draft' }, { timeout: 15_000 }));
    expect(await screen.findByText('Choose a supplier')).toBeVisible();
    expect(screen.getByText('Add at least one item')).toBeVisible();
    await user.selectOptions(screen.getByRole('combobox', { name: /^Supplier/ }), 's1');
    await user.type(screen.getByRole('searchbox', { name: 'Add an item to the order' }), 'LINENS');
    await user.click(await screen.findByRole('button', { name: 'Add LINENS-M' }, { timeout: 10_000 }));
    const qty = screen.getByRole('textbox', { name: 'Quantity of Linen Shirt / M (LINENS-M)' });
    await user.clear(qty);
    await user.type(qty, '1.5');
    await user.type(screen.getByRole('textbox', { name: 'Unit cost of Linen Shirt / M (LINENS-M)' }), '4.205');
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('Enter a whole number of pieces')).toBeVisible();
    expect(screen.getByText('Enter a cost such as 4.20')).toBeVisible();
    await user.clear(qty);
    await user.type(qty, '12');
    await user.clear(screen.getByRole('textbox', { name: 'Unit cost of Linen Shirt / M (LINENS-M)' }));
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect((onSubmit.mock.calls[0] as unknown as [unknown])[0]).toMatchObject({ supplierId: 's1',
      lines: [{ variantId: 'v1', qty: '12', unitCost: '', unit: 'each' }] });
  });
});
