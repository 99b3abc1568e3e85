import { describe, expect, it } from 'vitest';
import { GS, gs1Date, gtinLookupCodes, looksLikeGs1, parseGs1 } from './gs1';

const today = new Date(2026, 11, 1);

describe('parseGs1: DataMatrix element strings', () => {
  // GTIN 09506000134352 has the check digit 2 (GS1's own example).
  const cases: { name: string; scan: string; want: Record<string, unknown> }[] = [
    { name: 'symbology prefix, fixed fields then lot at the end', scan: ']d2010950600013435217270630' + '10ABC123',
      want: { gtin: '09506000134352', expiry: '2027-06-30', lot: 'ABC123' } },
    { name: 'lot ended by FNC1 (GS) before the expiry', scan: `]d20109506000134352` + `10LOT-7${GS}17270600`,
      want: { gtin: '09506000134352', lot: 'LOT-7', expiry: '2027-06-30' } },
    { name: 'day 00 is the last day of the month (February of a leap year)', scan: `0109506000134352172802001099`,
      want: { expiry: '2028-02-29', lot: '99' } },
    { name: 'lot and serial both variable, separated by GS', scan: `]d2${GS}0109506000134352` + `10A1${GS}21SN0001`,
      want: { gtin: '09506000134352', lot: 'A1', serial: 'SN0001' } },
    { name: 'a leading FNC1 without the prefix', scan: `${GS}010950600013435221X9`,
      want: { gtin: '09506000134352', serial: 'X9' } },
    { name: 'the human-readable form with brackets', scan: '(01)09506000134352(17)270615(10)B-22(21)77',
      want: { gtin: '09506000134352', expiry: '2027-06-15', lot: 'B-22', serial: '77' } },
    { name: 'other fixed fields are skipped and kept', scan: `]d20109506000134352` + '3103001250' + '11260101' + '10L9',
      want: { gtin: '09506000134352', lot: 'L9', other: { '3103': '001250', '11': '260101' } } },
    { name: 'a GS after a fixed field is tolerated', scan: `]d20109506000134352${GS}17270630${GS}10L1`,
      want: { lot: 'L1', expiry: '2027-06-30' } },
    { name: 'a trailing newline from the scanner is dropped', scan: `]d2010950600013435210L5\r\n`, want: { lot: 'L5' } },
  ];
  it.each(cases)('$name', ({ scan, want }) => {
    const result = parseGs1(scan, today);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.data).toMatchObject(want);
  });

  const refusals: { name: string; scan: string; error: RegExp }[] = [
    { name: 'a GTIN with a wrong check digit', scan: ']d20109506000134353', error: /check digit/ },
    { name: 'a GTIN cut short', scan: ']d201095060001', error: /14 characters/ },
    { name: 'a month 13', scan: ']d20109506000134352' + '17271301', error: /not a date/ },
    { name: 'the 31st of April', scan: ']d2010950600013435217270431', error: /not a date/ },
    { name: 'an unknown AI', scan: ']d2880000', error: /Unknown application identifier/ },
    { name: 'an empty lot', scan: `]d20109506000134352` + `10${GS}21X`, error: /1 to 20/ },
    { name: 'a lot over 20 characters', scan: `]d2010950600013435210${'A'.repeat(21)}`, error: /1 to 20/ },
    { name: 'brackets that are not AI and data', scan: '(01)09506000134352 and more(', error: /brackets/ },
  ];
  it.each(refusals)('refuses $name', ({ scan, error }) => {
    const result = parseGs1(scan, today);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });
});

describe('gs1Date', () => {
  it.each([
    ['270630', '2027-06-30'], ['270600', '2027-06-30'], ['270200', '2027-02-28'], ['280200', '2028-02-29'],
    // Within 50 years ahead: this century; 51 or more ahead: the last one.
    ['760101', '2076-01-01'], ['770101', '1977-01-01'], ['991231', '1999-12-31'],
  ])('%s is %s', (yymmdd, iso) => {
    expect(gs1Date(yymmdd, today)).toBe(iso);
  });
  it('refuses day 32 and month 00', () => {
    expect(gs1Date('270132', today)).toBeNull();
    expect(gs1Date('270001', today)).toBeNull();
  });
});

describe('looksLikeGs1 and gtinLookupCodes', () => {
  it('tells a GS1 string from a plain barcode', () => {
    expect(looksLikeGs1(']d20109506000134352')).toBe(true);
    expect(looksLikeGs1(`0109506000134352${GS}`)).toBe(true);
    expect(looksLikeGs1('(01)09506000134352')).toBe(true);
    expect(looksLikeGs1('0109506000134352' + '10A')).toBe(true);
    expect(looksLikeGs1('4006381333931')).toBe(false);
    expect(looksLikeGs1('0109506000134352')).toBe(false);
  });
  it('gives the EAN-13, UPC-A and EAN-8 a GTIN-14 stands for', () => {
    expect(gtinLookupCodes('09506000134352')).toEqual(['09506000134352', '9506000134352']);
    expect(gtinLookupCodes('00012345678905')).toEqual(['00012345678905', '0012345678905', '012345678905']);
    expect(gtinLookupCodes('00000096385074')).toEqual(['00000096385074', '0000096385074', '000096385074', '96385074']);
    expect(gtinLookupCodes('19506000134359')).toEqual(['19506000134359']);
  });
});
