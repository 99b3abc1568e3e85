/**
 * The cart's arithmetic, the same as post_sale's (supabase/migrations/20261122140000_pos.sql): integers in minor
 * units, per-line rounding half away from zero, tax on top or included per store. The server recomputes and is the
 * arbiter; the register shows the same figures so the customer pays what the receipt will say.
 */
export interface CatalogItem {
  variantId: string;
  name: string;
  sku: string;
  barcodes: string[];
  /** Store price, else the variant's price, in minor units. */
  price: number;
  /** Percent (product's rate, else the store's default). */
  taxRate: number;
  unit: 'each' | 'kg';
}

export interface CartLine {
  item: CatalogItem;
  qty: number;
  /** Minor units off the line. */
  discount: number;
}

export interface LineFigures {
  gross: number;
  net: number;
  tax: number;
  total: number;
}

/** Half away from zero, like PostgreSQL's round(numeric). */
export const roundHalfAway = (value: number) => Math.sign(value) * Math.round(Math.abs(value) + 1e-9);

export function lineFigures(line: CartLine, taxInclusive: boolean): LineFigures {
  const gross = roundHalfAway(line.item.price * line.qty);
  const net = gross - line.discount;
  const rate = line.item.taxRate;
  const tax = taxInclusive ? roundHalfAway((net * rate) / (100 + rate)) : roundHalfAway((net * rate) / 100);
  return { gross, net, tax, total: taxInclusive ? net : net + tax };
}

export interface CartTotals {
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
  /** Tax per rate, for the receipt's breakdown. */
  taxByRate: { rate: number; tax: number }[];
}

export function cartTotals(lines: CartLine[], taxInclusive: boolean): CartTotals {
  const byRate = new Map<number, number>();
  let subtotal = 0;
  let discount = 0;
  let tax = 0;
  let total = 0;
  for (const line of lines) {
    const f = lineFigures(line, taxInclusive);
    subtotal += f.gross;
    discount += line.discount;
    tax += f.tax;
    total += f.total;
    byRate.set(line.item.taxRate, (byRate.get(line.item.taxRate) ?? 0) + f.tax);
  }
  return { subtotal, discount, tax, total, taxByRate: [...byRate].map(([rate, t]) => ({ rate, tax: t })) };
}

/** Adds one of an item (or its quantity) to the cart: the same item again raises the quantity. */
export function addItem(lines: CartLine[], item: CatalogItem, qty = 1): CartLine[] {
  const index = lines.findIndex((line) => line.item.variantId === item.variantId);
  if (index === -1) return [...lines, { item, qty, discount: 0 }];
  return lines.map((line, i) => (i === index ? { ...line, qty: Math.round((line.qty + qty) * 1000) / 1000 } : line));
}

export function setQty(lines: CartLine[], variantId: string, qty: number): CartLine[] {
  return qty <= 0 ? lines.filter((line) => line.item.variantId !== variantId)
    : lines.map((line) => (line.item.variantId === variantId ? { ...line, qty } : line));
}

/** Money in minor units as the store's currency, e.g. "$12.50". */
export function formatMinor(amount: number, currency: string): string {
  const fmt = new Intl.NumberFormat(undefined, { style: 'currency', currency });
  const digits = fmt.resolvedOptions().maximumFractionDigits ?? 2;
  return fmt.format(amount / 10 ** digits);
}

/** "12.50" typed at the till into minor units (1250); null when it is not an amount. */
export function parseMinor(text: string, currency: string): number | null {
  const digits = new Intl.NumberFormat(undefined, { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const match = /^\s*(\d{1,9})(?:[.,](\d*))?\s*$/.exec(text);
  if (!match) return null;
  const fraction = (match[2] ?? '').slice(0, digits).padEnd(digits, '0');
  return Number(match[1]) * 10 ** digits + Number(fraction || '0');
}
