import { describe, expect, it } from 'vitest';
import { checkBarcode } from './barcode-check';

describe('barcode check', () => {
  it('accepts EAN-13, UPC-A and EAN-8 with their check digit', () => {
    expect(checkBarcode('4006381333931')).toEqual({ kind: 'ean13', code: '4006381333931' });
    expect(checkBarcode('036000 291452')).toEqual({ kind: 'upca', code: '036000291452' });
    expect(checkBarcode('96385074')).toEqual({ kind: 'ean8', code: '96385074' });
  });

  it('names a wrong check digit and a wrong length', () => {
    expect(checkBarcode('4006381333932')).toEqual({ error: 'The check digit is wrong: this code would end in 1' });
    expect(checkBarcode('12345')).toEqual({ error: 'Enter 8, 12 or 13 digits (EAN-8, UPC-A or EAN-13)' });
    expect(checkBarcode('40063813339a1')).toHaveProperty('error');
  });
});
