import { gtinLookupCodes, looksLikeGs1, parseGs1 } from '../../lib/gs1';
import type { CatalogItem } from './cart';
import { lookupCode, type CatalogIndex } from './catalog-search';
import { lotKey, type ShopPacks } from './shop-packs';

/** What a GS1 DataMatrix scan adds at the register. */
export type Gs1Scan =
  | { kind: 'none' }
  | { kind: 'error'; message: string }
  | { kind: 'serial'; item: CatalogItem; serial: string }
  | { kind: 'lot'; item: CatalogItem; lot: { id: string | null; number: string }; expiry?: string }
  | { kind: 'item'; item: CatalogItem };

/**
 * A scan read as a GS1 element string (issue 29, ADR 0341): the item by its GTIN (as GTIN-14, EAN-13, UPC-A or
 * EAN-8, as the catalog keeps it), then its serial (AI 21) for a serial-tracked item, else its lot (AI 10) with
 * the store's id for that lot when the store holds it. 'none' when the scan is not GS1 (an ordinary barcode).
 */
export function readGs1Scan(code: string, index: CatalogIndex, packs: ShopPacks): Gs1Scan {
  if (!looksLikeGs1(code)) return { kind: 'none' };
  const parsed = parseGs1(code);
  if (!parsed.ok) return { kind: 'error', message: `This DataMatrix could not be read: ${parsed.error}` };
  const { gtin, lot, serial, expiry } = parsed.data;
  if (!gtin) return { kind: 'error', message: 'This DataMatrix has no GTIN (01): scan the item\'s barcode' };
  const item = gtinLookupCodes(gtin).map((c) => lookupCode(index, c)).find((i) => i !== undefined);
  if (!item) return { kind: 'error', message: `No item with the GTIN ${gtin}` };
  if (packs.serialItems[item.variantId]) {
    return serial ? { kind: 'serial', item, serial } : { kind: 'error', message: `${item.name} is sold by serial: this code carries none (21)` };
  }
  if (lot) {
    return { kind: 'lot', item, lot: { id: packs.lots?.[lotKey(item.variantId, lot)] ?? null, number: lot }, ...(expiry ? { expiry } : {}) };
  }
  return { kind: 'item', item };
}
