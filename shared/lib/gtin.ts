/**
 * The GS1 check digit of the digits before it (weights 3 and 1 from the right): EAN-13, UPC-A, EAN-8 and the scale
 * labels of the register (shared/lib/scale-barcode.ts). The database's twin is private.gtin_check_digit.
 */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    const digit = Number(body[body.length - 1 - i]);
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}
