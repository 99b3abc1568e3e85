import { Suspense } from 'react';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthStore } from '../../lib/auth-store';
import { PlatformProvider } from '../../lib/platform-context';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { Platform, PrintOutcome, ReceiptPrinting } from '../../platform/platform';
import { Receipt, type ReceiptData } from './receipt';

const cashSale: ReceiptData = {
  receiptNumber: 'DT1-000042', occurredAt: '2026-11-22T18:30:00.000Z', storeName: 'Fresh Corner', header: '12 Main St',
  footer: 'Thank you!', currency: 'USD',
  lines: [{ name: 'Tea leaves', qty: 2, unitPrice: 1400, total: 2800 }],
  subtotal: 2800, discount: 0, tax: 249, total: 3049, taxByRate: [{ rate: 8.875, tax: 249 }],
  tenders: [{ kind: 'cash', amount: 3049, tendered: 5000, change: 1951 }], pending: false,
};

function fakeSupabase(saleRows: { id: string }[] = [{ id: 'sale-1' }]) {
  const rpc = vi.fn(async (_fn: string, _args: Record<string, unknown>) => ({ data: { queued: true }, error: null as { message: string } | null }));
  const client = { rpc, from: () => ({ select: () => ({ eq: () => ({ limit: async () => ({ data: saleRows, error: null }) }) }) }) };
  return { rpc, client: client as unknown as StorewiseClient };
}

function renderReceipt(data: ReceiptData, printing?: ReceiptPrinting, supabase = fakeSupabase()) {
  const platform = { kind: printing ? 'desktop' : 'web', ...(printing ? { printing } : {}) } as Platform;
  // Marked fulfilled the way React's use() reads a settled promise, so the client is there on the first render.
  const loaded = Object.assign(Promise.resolve(supabase.client), { status: 'fulfilled', value: supabase.client });
  render(
    <ChakraProvider value={defaultSystem}>
      <PlatformProvider platform={platform} supabase={loaded} auth={{} as AuthStore}>
        <Suspense fallback="loading"><Receipt data={data} onClose={() => undefined} /></Suspense>
      </PlatformProvider>
    </ChakraProvider>,
  );
  return supabase;
}

function fakePrinting(...outcomes: PrintOutcome[]) {
  const print = vi.fn<ReceiptPrinting['print']>();
  for (const outcome of outcomes) print.mockResolvedValueOnce(outcome);
  const printing: ReceiptPrinting = { print, listPrinters: async () => [], getSettings: vi.fn(), saveSettings: vi.fn() };
  return { print, printing };
}

afterEach(() => vi.restoreAllMocks());

describe('Receipt', { timeout: 30_000 }, () => {
  it('shows the store header, number as text and CODE128 barcode, lines, tax per rate, tenders, change and footer', async () => {
    renderReceipt(cashSale);
    const receipt = await screen.findByTestId('receipt');
    for (const text of ['Fresh Corner', '12 Main St', 'Receipt DT1-000042', 'Tea leaves', 'Tax 8.875%', '$2.49', '$30.49', 'Thank you!']) {
      expect(receipt).toHaveTextContent(text);
    }
    expect(screen.getByTestId('receipt-change')).toHaveTextContent('$19.51');
    const barcode = screen.getByRole('img', { name: 'Receipt number barcode DT1-000042' });
    expect(barcode.querySelectorAll('rect').length).toBeGreaterThan(10);
    // Only the receipt prints, 80 mm wide.
    const css = [...document.querySelectorAll('style')].map((style) => style.textContent).join('\n');
    expect(css).toMatch(/@page \{ size: 80mm auto; margin: 0; \}/);
    expect(css).toMatch(/\.pos-receipt, \.pos-receipt \* \{ visibility: visible !important; \}/);
  });

  it('a store whose prices include tax marks its tax lines as included (issue 25)', async () => {
    renderReceipt({ ...cashSale, taxInclusive: true, total: 2800, taxByRate: [{ rate: 20, tax: 467 }] });
    expect(await screen.findByTestId('receipt-tax')).toHaveTextContent('Tax 20% (included)$4.67');
  });

  it('on the web the print button prints through the browser', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    renderReceipt(cashSale);
    await userEvent.click(await screen.findByRole('button', { name: 'Print receipt' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('on the desktop it prints through the bridge with the drawer kick for cash; a failure is shown and can be retried', async () => {
    const browserPrint = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const { print, printing } = fakePrinting(
      { ok: false, code: 'refused', message: 'The receipt printer at 192.168.1.50:9100 refused the connection.' },
      { ok: true, via: 'network' },
    );
    renderReceipt(cashSale, printing);
    await userEvent.click(await screen.findByRole('button', { name: 'Print receipt' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('refused the connection. The sale is saved.');
    expect(screen.getByTestId('receipt-total')).toHaveTextContent('$30.49'); // the receipt stays on screen
    expect(print).toHaveBeenLastCalledWith(expect.objectContaining({ receiptNumber: 'DT1-000042', total: 3049,
      tenders: [{ kind: 'cash', amount: 3049, tendered: 5000, change: 1951 }] }), { openDrawer: true });
    await userEvent.click(screen.getByRole('button', { name: 'Print again' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Receipt printed');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(print).toHaveBeenCalledTimes(2);
    expect(browserPrint).not.toHaveBeenCalled();
  });

  it('a card sale does not open the drawer; a bridge that throws is a message, not a crash', async () => {
    const { print, printing } = fakePrinting();
    print.mockRejectedValueOnce(new Error('storewise:printing:print-receipt: invalid payload'));
    renderReceipt({ ...cashSale, tenders: [{ kind: 'card', amount: 3049, tendered: 3049, change: 0 }] }, printing);
    await userEvent.click(await screen.findByRole('button', { name: 'Print receipt' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The sale is saved');
    expect(print).toHaveBeenCalledWith(expect.anything(), { openDrawer: false });
  });

  it('emails the receipt of the synced sale on request', async () => {
    const { rpc } = renderReceipt(cashSale);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Email the receipt to' }), 'ana@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Email receipt' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Receipt sent to ana@example.com');
    expect(rpc).toHaveBeenCalledWith('request_receipt_email', { _sale_id: 'sale-1', _email: 'ana@example.com' });
  });

  it('a sale not on the server yet cannot be emailed: the cashier is told to wait for the sync', async () => {
    const { rpc } = renderReceipt({ ...cashSale, pending: true }, undefined, fakeSupabase([]));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Email the receipt to' }), 'ana@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Email receipt' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('not reached the server yet'));
    expect(rpc).not.toHaveBeenCalled();
  });
});
