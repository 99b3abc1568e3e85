import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { PlatformProvider } from '../../lib/platform-context';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { ScannedItem } from './datamatrix-scan';
import type { VariantLabel } from './orders-api';
import { SendTransferForm } from './transfer-forms';
import type { SheetRow } from './transfers-api';

// The pickers in the form read the business's packs; nothing else reaches the client here.
const noPacks = { select: () => noPacks, eq: () => noPacks, maybeSingle: async () => ({ data: { packs: [] }, error: null }) };
const client = { rpc: vi.fn(), from: () => noPacks } as unknown as StorewiseClient;
const loaded = Object.assign(Promise.resolve(client), { status: 'fulfilled', value: client });

const drops: VariantLabel = { id: 'v-drops', label: 'Eye Drops', sku: 'DROPS', unit: 'each', hasLots: true, requiresExpiry: true,
  serialTracking: null, barcodes: ['9506000134352'] };
const held = (lot: string, id: string, onHand: number): SheetRow =>
  ({ variant_id: 'v-drops', lot_id: id, lot_number: lot, on_hand: onHand, has_lots: true, expires_on: '2027-06-30',
    product_name: 'Eye Drops', sku: 'DROPS', option1: '', option2: '', option3: '', unit: 'each' }) as SheetRow;

describe('SendTransferForm scans', { timeout: 30_000 }, () => {
  it('a DataMatrix adds one unit on the line of its lot, again adds another, and a lot not held here is refused', async () => {
    const findScanned = vi.fn(async (text: string): Promise<ScannedItem> =>
      text.includes('NOPE') ? { ok: true, item: drops, lot: 'NOPE' } : text.includes('10') ? { ok: true, item: drops, lot: 'L-2', expiry: '2027-06-30' }
        : { ok: false, error: 'No item has the code 123' });
    const loadStock = vi.fn(async () => [held('L-1', 'lot-1', 4), held('L-2', 'lot-2', 6)]);
    const onSubmit = vi.fn(async () => undefined);
    render(
      <ChakraProvider value={defaultSystem}>
        <PlatformProvider platform={{} as never} auth={{} as never} supabase={loaded}>
          <Suspense fallback="loading">
            <SendTransferForm businessId="b1" stores={[{ id: 's2', name: 'Riverside', business_id: 'b1' }]} loadStock={loadStock}
              findScanned={findScanned} onSubmit={onSubmit} onCancel={() => undefined} />
          </Suspense>
        </PlatformProvider>
      </ChakraProvider>,
    );
    const field = await screen.findByLabelText('Scan to send');
    await userEvent.type(field, '(01)09506000134352(10)L-2{Enter}');
    expect(await screen.findByTestId('transfer-scan-note')).toHaveTextContent('Eye Drops (DROPS), lot L-2: 1 to send');
    await userEvent.type(field, '(01)09506000134352(10)L-2{Enter}');
    await waitFor(() => expect(screen.getByTestId('transfer-scan-note')).toHaveTextContent('lot L-2: 2 to send'));
    expect(screen.getByLabelText('Send of Eye Drops (DROPS), lot L-2')).toHaveValue('2');
    await userEvent.type(field, '(01)09506000134352(10)NOPE{Enter}');
    await waitFor(() => expect(screen.getByTestId('transfer-scan-note')).toHaveTextContent('lot NOPE is not in stock in this store'));
    await userEvent.type(field, '123{Enter}');
    await waitFor(() => expect(screen.getByTestId('transfer-scan-note')).toHaveTextContent('No item has the code 123'));

    await userEvent.selectOptions(screen.getByRole('combobox'), 's2');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect((onSubmit.mock.calls[0] as unknown as [{ lines: unknown[] }])[0].lines).toEqual([
      { variantId: 'v-drops', unit: 'each', qty: '2', lotId: 'lot-2', available: 6, label: 'Eye Drops (DROPS), lot L-2' },
    ]);
  });
});
