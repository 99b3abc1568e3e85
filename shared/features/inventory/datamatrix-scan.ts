// SQL (supabase/schemas, docs/adr/0341): supabase/schemas/catalog.sql: barcodes
import { gtinLookupCodes, looksLikeGs1, parseGs1 } from '../../lib/gs1';
import type { StorewiseClient } from '../../lib/supabase-client';
import { unwrap } from './inventory-api';
import { fetchVariantLabels, type VariantLabel } from './orders-api';

/** What a scan on a transfer or a count names: the item (by the code's GTIN) and the lot and expiry it carries. */
export type ScannedItem = { ok: true; item: VariantLabel; lot?: string; expiry?: string } | { ok: false; error: string };

/**
 * Reads a scan with ADR 0341's one parser: a GS1 DataMatrix (or GS1-128) gives its GTIN, lot (10) and expiry (17);
 * a plain EAN/UPC is looked up as it is. The GTIN-14 is tried as each shorter code its leading zeros allow, as the
 * catalog keeps codes as printed. Only this business's barcodes are searched.
 */
export async function findScannedItem(supabase: StorewiseClient, businessId: string, text: string): Promise<ScannedItem> {
  const code = text.replace(/[\r\n]+$/, '').trim();
  let codes: string[];
  let lot: string | undefined;
  let expiry: string | undefined;
  if (looksLikeGs1(code)) {
    const parsed = parseGs1(code);
    if (!parsed.ok) return { ok: false, error: `Not read: ${parsed.error}` };
    if (!parsed.data.gtin) return { ok: false, error: 'This code has no GTIN (01)' };
    codes = gtinLookupCodes(parsed.data.gtin);
    lot = parsed.data.lot;
    expiry = parsed.data.expiry;
  } else if (/^\d{8,14}$/.test(code)) {
    codes = [code];
  } else {
    return { ok: false, error: 'Not a barcode or a GS1 DataMatrix' };
  }
  const hits = unwrap(await supabase.from('barcodes').select('variant_id, code').eq('business_id', businessId).in('code', codes)) ?? [];
  // Longest code first, as gtinLookupCodes orders them.
  const hit = codes.map((c) => hits.find((h) => h.code === c)).find(Boolean);
  if (!hit) return { ok: false, error: `No item has the code ${codes[0] ?? code}` };
  const item = (await fetchVariantLabels(supabase, [hit.variant_id])).get(hit.variant_id);
  if (!item) return { ok: false, error: `No item has the code ${hit.code}` };
  return { ok: true, item, ...(lot ? { lot } : {}), ...(expiry ? { expiry } : {}) };
}
