import { gtinCheckDigit } from '../../lib/gtin';

/**
 * Barcode kinds by length with their GS1 check digit, as the database's private.barcode_is_valid checks them, so
 * a typo is named before it is sent: EAN-13 (13 digits), UPC-A (12), EAN-8 (8).
 */
export { gtinCheckDigit };

export type BarcodeKind = 'ean13' | 'upca' | 'ean8';

/** The kind of a typed barcode, or a sentence saying what is wrong with it. */
export function checkBarcode(text: string): { kind: BarcodeKind; code: string } | { error: string } {
  const code = text.replace(/\s/g, '');
  const kind: BarcodeKind | undefined = ({ 13: 'ean13', 12: 'upca', 8: 'ean8' } as Record<number, BarcodeKind>)[code.length];
  if (!/^\d+$/.test(code) || !kind) return { error: 'Enter 8, 12 or 13 digits (EAN-8, UPC-A or EAN-13)' };
  if (gtinCheckDigit(code.slice(0, -1)) !== Number(code.slice(-1))) {
    return { error: `The check digit is wrong: this code would end in ${gtinCheckDigit(code.slice(0, -1))}` };
  }
  return { kind, code };
}
