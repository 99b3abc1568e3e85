import { describe, expect, it } from 'vitest';
import { GS } from '../../lib/gs1';
import { addItem, lineKey, type CatalogItem } from './cart';
import { indexCatalog } from './catalog-search';
import { readGs1Scan } from './gs1-scan';
import { createScanDetector } from './scanner';
import { lotKey, noPacks, type ShopPacks } from './shop-packs';

const drops: CatalogItem = { variantId: 'v-drops', name: 'Eye drops', sku: 'DROPS', barcodes: ['9506000134352'], price: 900, taxRate: 0, unit: 'each' };
const phone: CatalogItem = { variantId: 'v-phone', name: 'Phone X', sku: 'PHX', barcodes: ['012345678905'], price: 49900, taxRate: 0, unit: 'each' };
const index = indexCatalog([drops, phone]);
const packs: ShopPacks = { ...noPacks, serialItems: { 'v-phone': 'serial' }, lots: { [lotKey('v-drops', 'L-001')]: 'lot-1' } };

describe('a DataMatrix at the register', () => {
  it('finds the item by its GTIN-14 as the EAN-13 the catalog keeps, with the store\'s lot', () => {
    const scan = readGs1Scan(`]d20109506000134352${GS}17270630` + '10L-001', index, packs);
    expect(scan).toEqual({ kind: 'lot', item: drops, lot: { id: 'lot-1', number: 'L-001' }, expiry: '2027-06-30' });
  });

  it('keeps a lot the store does not hold by its number only', () => {
    const scan = readGs1Scan(`]d20109506000134352` + `10L-999${GS}17270600`, index, packs);
    expect(scan).toMatchObject({ kind: 'lot', lot: { id: null, number: 'L-999' } });
  });

  it('gives a serial-tracked item its serial (21), found as UPC-A', () => {
    expect(readGs1Scan(`]d20100012345678905` + '21SN-42', index, packs)).toEqual({ kind: 'serial', item: phone, serial: 'SN-42' });
    expect(readGs1Scan(`]d20100012345678905` + '10LOT', index, packs)).toMatchObject({ kind: 'error' });
  });

  it('names an unknown GTIN and leaves ordinary barcodes to the other readers', () => {
    expect(readGs1Scan(']d20119506000134359', index, packs)).toEqual({ kind: 'error', message: 'No item with the GTIN 19506000134359' });
    expect(readGs1Scan('9506000134352', index, packs)).toEqual({ kind: 'none' });
  });

  it('adds one unit per scan to the lot\'s own line', () => {
    const once = addItem([], drops, 1, { id: 'lot-1', number: 'L-001' });
    const twice = addItem(once, drops, 1, { id: 'lot-1', number: 'L-001' });
    const other = addItem(twice, drops, 1, { id: null, number: 'L-002' });
    expect(other.map((l) => [lineKey(l), l.qty])).toEqual([['v-drops#lot:L-001', 2], ['v-drops#lot:L-002', 1]]);
  });

  it('the wedge scanner keeps the ]d2 prefix and the GS separator', () => {
    const seen: string[] = [];
    const detector = createScanDetector((code) => seen.push(code));
    const code = `]d20109506000134352${GS}10L-001`;
    let at = 1000;
    for (const key of code) detector.key(key, (at += 5));
    detector.key('Enter', at + 5);
    expect(seen).toEqual([code]);
  });
});
