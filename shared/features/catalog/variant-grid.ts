import { formatMinor, parseMinor, type Currency } from '../../lib/money';

/**
 * The variant grid generator: option values (size x colour x ...) multiplied out into one variant per
 * combination, each with a suggested SKU. Pure, so the form and its tests share it.
 */
export interface OptionInput {
  name: string;
  /** Comma-separated values as typed ("S, M, L"). */
  values: string;
}

export interface GridVariant {
  options: string[];
  sku: string;
}

/** The values of an option as typed: trimmed, empties and duplicates dropped, order kept. */
export function parseValues(text: string): string[] {
  const seen = new Set<string>();
  return text.split(',').map((v) => v.trim()).filter((v) => {
    const key = v.toLowerCase();
    if (v === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Upper-case letters and digits only, so the SKU passes the database's pattern. */
const code = (text: string, length: number) => text.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, length);

/** A SKU from the product name and the option values: "Linen Shirt", [M, Blue] -> LINENS-M-BLUE. */
export function suggestSku(productName: string, options: string[]): string {
  const parts = [code(productName, 6) || 'ITEM', ...options.map((o) => code(o, 4)).filter(Boolean)];
  return parts.join('-').slice(0, 40);
}

/** Every combination of the named options' values; no options gives the single default variant. */
export function generateGrid(productName: string, options: OptionInput[]): GridVariant[] {
  const named = options.filter((o) => o.name.trim() !== '').slice(0, 3);
  let combos: string[][] = [[]];
  for (const option of named) {
    const values = parseValues(option.values);
    if (values.length === 0) continue;
    combos = combos.flatMap((combo) => values.map((value) => [...combo, value]));
  }
  const used = new Set<string>();
  return combos.map((combo) => {
    let sku = suggestSku(productName, combo);
    for (let n = 2; used.has(sku); n += 1) sku = `${suggestSku(productName, combo).slice(0, 36)}-${n}`;
    used.add(sku);
    return { options: combo, sku };
  });
}

/**
 * "12.50" -> 1250 minor units; null when it is not a non-negative amount with at most the currency's decimals
 * (shared/lib/money.ts). Without a currency (the variants' base prices): two decimals.
 */
export function toMinorUnits(text: string, currency: Currency = null): number | null {
  return parseMinor(text, currency, { maxWholeDigits: 9 });
}

/** Minor units as money in the store's currency. */
export function formatMoney(minor: number, currency: string): string {
  return formatMinor(minor, currency);
}
