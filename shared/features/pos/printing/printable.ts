import type { PrintableReceipt } from '../../../platform/platform';
import type { ReceiptData } from '../receipt';
import { formatReceiptLot } from '../../../lib/receipt-lot';

/**
 * The on-screen receipt as the structured receipt the desktop bridge takes (src/ipc-contract.ts validates it
 * again in main): text trimmed to the contract's bounds, amounts as integers of minor units, tender kinds named.
 */
const clip = (text: string | null | undefined, max: number) => (text ? text.slice(0, max) : null);
const int = (n: number) => Math.round(n);

export function toPrintable(data: ReceiptData): PrintableReceipt {
  return {
    receiptNumber: data.receiptNumber,
    occurredAt: new Date(data.occurredAt).toISOString(),
    storeName: clip(data.storeName, 200),
    header: clip(data.header, 500),
    footer: clip(data.footer, 500),
    currency: data.currency,
    // A serial, scale label or lot rides in the line's name: the desktop contract has no field for it (issue 29).
    lines: data.lines.slice(0, 500).map((l) => ({ name: [l.name, l.detail, ...(l.lots ?? []).map(formatReceiptLot)]
      .filter(Boolean).join(' ').slice(0, 200), qty: l.qty,
      unitPrice: int(l.unitPrice), total: int(l.total) })),
    ...(data.taxInclusive !== undefined ? { taxInclusive: data.taxInclusive } : {}),
    subtotal: int(data.subtotal),
    discount: int(data.discount),
    tax: int(data.tax),
    total: int(data.total),
    ...(data.cashRounding ? { cashRounding: int(data.cashRounding) } : {}),
    taxByRate: data.taxByRate.map((t) => ({ rate: t.rate, tax: int(t.tax) })),
    tenders: data.tenders.map((t) => ({
      kind: t.kind === 'cash' || t.kind === 'card' ? t.kind : 'other',
      amount: int(t.amount), tendered: int(t.tendered), change: int(t.change),
      ...(t.foreign ? { foreign: { currency: t.foreign.currency, rate: t.foreign.rate, tendered: int(t.foreign.tendered) } } : {}),
    })),
    pending: data.pending,
  };
}

/** The drawer opens for a sale with cash in it (and only where the device is set to kick it). */
export function paidInCash(data: ReceiptData): boolean {
  return data.tenders.some((t) => t.kind === 'cash' && t.amount > 0);
}
