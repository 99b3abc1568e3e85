import { gtinCheckDigit } from './gtin';

/**
 * Scale labels (issue 29, ADR 0252): EAN-13 codes printed by a scale with the weight or the price in them, read by
 * a business's rules written like Odoo's: '21.....{NNDDD}' is the prefix 21, five digits of item code, a value of
 * two whole digits and three decimals, then the check digit. The item is the one whose barcode is the label with
 * its value zeroed (its "base code"), so the register's offline catalog finds it with nothing new to download.
 *
 * The same rule runs in the database for posted sales (private.scale_barcode_parse and private.scale_line_problem
 * in supabase/migrations/20261201142000_scale_barcodes.sql); tests/db/scale-barcode-parity.test.ts runs both over
 * one table. Pure functions: the register uses them offline.
 */
export type ScaleRuleKind = 'weight' | 'price';

export interface ScaleRule {
  pattern: string;
  kind: ScaleRuleKind;
}

export interface ScalePattern {
  prefix: string;
  codeLength: number;
  intDigits: number;
  decimals: number;
}

export interface ScaleLabel {
  rule: ScaleRule;
  itemCode: string;
  /** The value's digits as printed ("01234"). */
  valueDigits: string;
  decimals: number;
  /** The item's own barcode: the label with its value zeroed and the check digit recomputed. */
  baseCode: string;
}

const PATTERN = /^([0-9]{1,4})(\.{1,6})\{(N{1,6})(D{0,3})\}$/;

/** A rule's parts, or null when the pattern is not prefix digits, item-code dots and {N..D..} in 12 positions. */
export function parseScalePattern(pattern: string): ScalePattern | null {
  const m = PATTERN.exec(pattern);
  if (!m) return null;
  const [, prefix = '', dots = '', ints = '', decs = ''] = m;
  if (prefix.length + dots.length + ints.length + decs.length !== 12) return null;
  return { prefix, codeLength: dots.length, intDigits: ints.length, decimals: decs.length };
}

/** A label read by one rule; null when it is not 13 digits with a right check digit and this rule's prefix. */
export function parseScaleLabel(code: string, rule: ScaleRule): ScaleLabel | null {
  const p = parseScalePattern(rule.pattern);
  if (!p || !/^\d{13}$/.test(code) || gtinCheckDigit(code.slice(0, 12)) !== Number(code[12])) return null;
  if (!code.startsWith(p.prefix)) return null;
  const valueLength = p.intDigits + p.decimals;
  const base = code.slice(0, 12 - valueLength) + '0'.repeat(valueLength);
  return {
    rule,
    itemCode: code.slice(p.prefix.length, p.prefix.length + p.codeLength),
    valueDigits: code.slice(12 - valueLength, 12),
    decimals: p.decimals,
    baseCode: base + String(gtinCheckDigit(base)),
  };
}

/** A label read by the business's rules, the longest prefix first (a '21' rule before a '2' rule), as the database does. */
export function matchScaleLabel(code: string, rules: readonly ScaleRule[]): ScaleLabel | null {
  const ordered = [...rules].sort((a, b) =>
    (parseScalePattern(b.pattern)?.prefix.length ?? 0) - (parseScalePattern(a.pattern)?.prefix.length ?? 0)
    || (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0));
  for (const rule of ordered) {
    const label = parseScaleLabel(code, rule);
    if (label) return label;
  }
  return null;
}

/** A weight label's kilograms, exactly to its decimals ("01234" with 3 decimals -> 1.234). */
export function labelWeight(label: ScaleLabel): number {
  return Number(label.valueDigits) / 10 ** label.decimals;
}

/**
 * A price label's amount in the store currency's minor units ("00499" with 2 decimals in USD -> 499; in JPY,
 * 0 decimals, "00499" -> 499 yen). Null when the label has more decimals than the currency.
 */
export function labelPriceMinor(label: ScaleLabel, currencyDigits: number): number | null {
  if (label.decimals > currencyDigits) return null;
  return Number(label.valueDigits) * 10 ** (currencyDigits - label.decimals);
}

/** The quantity a price stands for at a unit price: amount / unit price to 3 decimals, half away from zero. */
export function quantityForPrice(amountMinor: number, unitPrice: number): number | null {
  if (!(unitPrice > 0)) return null;
  // Integer arithmetic on thousandths: round(amount * 1000 / price) without a float division's error.
  const thousandths = Math.floor((2 * amountMinor * 1000 + unitPrice) / (2 * unitPrice));
  return thousandths / 1000;
}

/**
 * The quantity a label puts on its line at the item's unit price: the weight, or the price over the unit price.
 * Null when the label cannot give one (a price label with more decimals than the currency, or a zero price).
 */
export function labelQuantity(label: ScaleLabel, unitPrice: number, currencyDigits: number): number | null {
  if (label.rule.kind === 'weight') return labelWeight(label);
  const amount = labelPriceMinor(label, currencyDigits);
  return amount === null ? null : quantityForPrice(amount, unitPrice);
}

/**
 * The barcode of a PLU typed at the register under a rule (its base code): prefix, the PLU padded to the code's
 * digits, the value zeroed, the check digit. Null when the PLU is not digits or too long for the rule.
 */
export function pluBaseCode(plu: string, rule: ScaleRule): string | null {
  const p = parseScalePattern(rule.pattern);
  const digits = plu.trim();
  if (!p || !/^\d+$/.test(digits) || digits.length > p.codeLength) return null;
  const body = p.prefix + digits.padStart(p.codeLength, '0') + '0'.repeat(p.intDigits + p.decimals);
  return body + String(gtinCheckDigit(body));
}
