// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/inventory.sql: find_serial()
//   supabase/schemas/pos.sql: sale_receipt()
// SQL (supabase/schemas, docs/adr/0365):
//   supabase/schemas/inventory.sql: find_serial() serial_numbers
//   supabase/schemas/pos.sql: sale_receipt()
import { z } from 'zod';
import { looksLikeGs1, parseGs1 } from '../../lib/gs1';
import type { StorewiseClient } from '../../lib/supabase-client';
import { receiptLotSchema } from '../../lib/receipt-lot';
import { unwrap } from './inventory-api';

/** What the person types or scans: a serial or IMEI, or a GS1 DataMatrix whose (21) is the serial. */
export const serialQuerySchema = z.object({
  query: z.string().trim().min(1, 'Type or scan a serial number or IMEI').max(200, 'Too long for a serial number or a DataMatrix'),
});
export type SerialQueryValues = z.infer<typeof serialQuerySchema>;

/**
 * The serial a typed or scanned text names: a DataMatrix (ADR 0341's one parser) gives its (21); anything else is
 * the serial as typed. An error when the text is a GS1 code without a serial or is not a serial at all.
 */
export function serialFromInput(text: string): { ok: true; serial: string } | { ok: false; error: string } {
  const trimmed = text.trim();
  if (looksLikeGs1(trimmed)) {
    const parsed = parseGs1(trimmed);
    if (!parsed.ok) return { ok: false, error: `Not read: ${parsed.error}` };
    if (!parsed.data.serial) return { ok: false, error: 'This code has no serial number (21)' };
    return { ok: true, serial: parsed.data.serial };
  }
  if (!/^[A-Za-z0-9./-]{1,64}$/.test(trimmed)) {
    return { ok: false, error: 'A serial number is up to 64 letters, digits, dots, dashes or slashes' };
  }
  return { ok: true, serial: trimmed };
}

const refundSchema = z.object({
  refund_id: z.string().nullable(), occurred_at: z.string(), returned_on: z.string(), store: z.string(),
  qty: z.number(), disposition: z.enum(['restock', 'damaged']),
});
const saleSchema = z.object({
  sale_id: z.string().nullable(), receipt_number: z.string(), occurred_at: z.string(), sold_on: z.string(),
  store_id: z.string(), store: z.string(), customer: z.string().nullable(), duplicate: z.boolean(),
  refunds: z.array(refundSchema),
});
export const serialUnitSchema = z.object({
  serial: z.string(), variant_id: z.string(), product: z.string(), sku: z.string(),
  tracking: z.enum(['serial', 'imei']).nullable(),
  status: z.enum(['in_stock', 'sold', 'damaged', 'not_received']),
  store: z.string().nullable(),
  received: z.object({
    at: z.string(), store_id: z.string(), store: z.string(), purchase_order_id: z.string().nullable(), supplier: z.string().nullable(),
  }).nullable(),
  sales: z.array(saleSchema),
  warranty_months: z.number().nullable(),
  warranty_ends_on: z.string().nullable(),
  warranty: z.enum(['in_warranty', 'expired', 'none', 'not_sold']),
  details: z.boolean(),
});
export type SerialUnit = z.infer<typeof serialUnitSchema>;
export type SerialSale = z.infer<typeof saleSchema>;

/** Every unit of the business with this serial (several items may share one), as find_serial returns them. */
export async function findSerial(supabase: StorewiseClient, businessId: string, serial: string): Promise<SerialUnit[]> {
  const data = unwrap(await supabase.rpc('find_serial', { _business_id: businessId, _serial: serial }));
  return z.array(serialUnitSchema).parse(data);
}

const receiptSchema = z.object({
  sale_id: z.string(), receipt_number: z.string(), store_name: z.string().nullable(), header: z.string().nullable(),
  footer: z.string().nullable(), currency: z.string(), occurred_at: z.string(), tax_inclusive: z.boolean(),
  subtotal: z.number(), discount_total: z.number(), tax_total: z.number(), total: z.number(),
  customer: z.string().nullable(),
  lines: z.array(z.object({
    description: z.string(), qty: z.number(), unit_price: z.number(), discount: z.number(), line_total: z.number(),
    serial: z.string().nullable(), lots: z.array(receiptLotSchema).default([]),
  })),
  taxes: z.array(z.object({ rate: z.number(), tax: z.number() })),
  tenders: z.array(z.object({ kind: z.string(), amount: z.number(), tendered: z.number().nullable(), change: z.number().nullable() })),
});
export type SaleReceipt = z.infer<typeof receiptSchema>;

/** One sale's receipt with each line's serial and lots (readers of the sale only; anyone else: not found). */
export async function fetchSaleReceipt(supabase: StorewiseClient, saleId: string): Promise<SaleReceipt> {
  return receiptSchema.parse(unwrap(await supabase.rpc('sale_receipt', { _sale_id: saleId })));
}
