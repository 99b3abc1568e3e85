import { describe, expect, it } from 'vitest';
import { minorToDecimal, toCsv } from './reports-csv';

describe('toCsv', () => {
  it('quotes commas, quotes and line breaks, and ends rows with CRLF', () => {
    expect(toCsv(['Name', 'Total'], [['Milk, 1 L', 120], ['Say "hi"', 5], ['two\nlines', null]])).toBe(
      'Name,Total\r\n"Milk, 1 L",120\r\n"Say ""hi""",5\r\n"two\nlines",\r\n',
    );
  });

  it('neutralises cells a spreadsheet would run as formulas, not negative numbers', () => {
    expect(toCsv(['a', 'b', 'c'], [['=HYPERLINK("x")', '@SUM(A1)', -12.5]])).toBe(
      'a,b,c\r\n"\'=HYPERLINK(""x"")",\'@SUM(A1),-12.5\r\n',
    );
  });

  it('writes money from minor units with two decimals', () => {
    expect(minorToDecimal(123456)).toBe('1234.56');
    expect(minorToDecimal(-5)).toBe('-0.05');
    expect(minorToDecimal(125000, 'JPY')).toBe('125000');
    expect(minorToDecimal(-1250, 'KWD')).toBe('-1.250');
    expect(minorToDecimal(2 ** 31 + 1, 'EUR')).toBe('21474836.49');
  });
});
