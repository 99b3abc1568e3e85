/**
 * Serial numbers at the register (issue 29, ADR 0253): what a serial or an IMEI must look like, the same rule as the
 * database's private.serial_problem and private.imei_is_valid (supabase/migrations/20261201143000_serial_numbers.sql),
 * so a mistyped IMEI is named before the sale is sent, offline too.
 */
export type SerialTracking = 'serial' | 'imei';

/** The Luhn check digit of the digits before it (an IMEI's 15th digit checks the first 14). */
export function luhnCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    const digit = Number(body[body.length - 1 - i]);
    const n = i % 2 === 0 ? digit * 2 : digit;
    sum += n > 9 ? n - 9 : n;
  }
  return (10 - (sum % 10)) % 10;
}

/** 15 digits whose last is the Luhn check digit of the others. */
export function imeiIsValid(text: string): boolean {
  return /^\d{15}$/.test(text) && luhnCheckDigit(text.slice(0, 14)) === Number(text[14]);
}

/** What is wrong with a serial for a product's tracking, as a sentence for the cashier; null when nothing. */
export function serialProblem(tracking: SerialTracking, text: string): string | null {
  const serial = text.trim();
  if (serial === '') return 'Enter the serial number';
  if (tracking === 'imei' && !imeiIsValid(serial)) return 'An IMEI is 15 digits and its last digit checks the others (Luhn)';
  if (!/^[A-Za-z0-9./-]{1,64}$/.test(serial)) return 'A serial number is up to 64 letters, digits, dots, dashes or slashes';
  return null;
}
