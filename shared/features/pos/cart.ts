import { formatMinor as formatMoneyMinor, parseMinor as parseMoneyMinor } from '../../lib/money';
import { saleCashRounding } from './cash-rounding';
import type { Prescription } from './prescriptions/prescription';
import type { ForeignCash } from './foreign-tender';

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
  /** The unit's serial or IMEI (issue 29): a line of its own, one unit. */
  serial?: string;
  /** The scale label the quantity came from (issue 29): a line of its own; post_sale checks the label again. */
  scaleLabel?: string;
  /**
   * The lot read from a GS1 DataMatrix (issue 29): a line per lot; the id when the store holds that lot (sent as
   * lot_id), null when it does not (post_sale then picks the first expiring lot); its expiry (AI 17) when printed.
   */
  lot?: { id: string | null; number: string; expiry?: string };
  /** The prescription of a prescription-only item's line (ADR 0390), recorded at the register. */
  prescription?: Prescription;
}

/** What tells a line from the others: the item, and the serial or scale label of a line that has one. */
export function lineKey(line: Pick<CartLine, 'item' | 'serial' | 'scaleLabel' | 'lot'>): string {
  return line.serial ? `${line.item.variantId}#serial:${line.serial}`
    : line.scaleLabel ? `${line.item.variantId}#label:${line.scaleLabel}`
      : line.lot ? `${line.item.variantId}#lot:${line.lot.number}` : line.item.variantId;
}

/** A line whose quantity comes from a serial or a label: never merged with another, its quantity not edited. */
export const fixedQuantity = (line: Pick<CartLine, 'serial' | 'scaleLabel'>) => Boolean(line.serial ?? line.scaleLabel);

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

/**
 * A receipt's line: qty x unit price, the line before its discount (tax included only when the store's prices
 * include it), so a receipt's lines add up to its subtotal (issue 25).
 */
export function receiptLine(line: CartLine, taxInclusive: boolean): { name: string; qty: number; unitPrice: number; total: number } {
  return { name: line.item.name, qty: line.qty, unitPrice: line.item.price, total: lineFigures(line, taxInclusive).gross };
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

/**
 * Adds one of an item (or its quantity) to the cart: the same item again raises the quantity. With a lot (a
 * DataMatrix scan) the lot's own line grows, or a new line for the lot.
 */
export function addItem(lines: CartLine[], item: CatalogItem, qty = 1, lot?: NonNullable<CartLine['lot']>): CartLine[] {
  const key = lineKey({ item, lot });
  const index = lines.findIndex((line) => lineKey(line) === key);
  if (index === -1) return [...lines, { item, qty, discount: 0, ...(lot ? { lot } : {}) }];
  return lines.map((line, i) => (i === index ? { ...line, qty: Math.round((line.qty + qty) * 1000) / 1000 } : line));
}

/**
 * Adds a line of its own for a unit with a serial or a weighed or priced label; the same serial or label twice is
 * refused (one unit is sold once, one label once).
 */
export function addLine(lines: CartLine[], line: CartLine): CartLine[] | string {
  if (lines.some((l) => lineKey(l) === lineKey(line))) {
    return line.serial ? `${line.serial} is already in this sale` : 'This label is already in this sale';
  }
  return [...lines, line];
}

/** Sets a line's quantity by its key (lineKey); 0 or less removes it. */
export function setQty(lines: CartLine[], key: string, qty: number): CartLine[] {
  return qty <= 0 ? lines.filter((line) => lineKey(line) !== key)
    : lines.map((line) => (lineKey(line) === key ? { ...line, qty } : line));
}

/** Money in minor units as the store's currency, e.g. "$12.50" (shared/lib/money.ts). */
export function formatMinor(amount: number, currency: string): string {
  return formatMoneyMinor(amount, currency);
}

/**
 * "12.50" or "12,50" typed at the till into minor units (1250); null when it is not an amount of the store's
 * currency (more decimals than it has are refused rather than cut off).
 */
export function parseMinor(text: string, currency: string): number | null {
  return parseMoneyMinor(text, currency, { decimalComma: true, maxWholeDigits: 9 });
}

// ---------------------------------------------------------------------------------------------------------------
// Discounts (issue 13): on a line or on the whole cart, as a percent or an amount. post_sale only knows line
// discounts in minor units, so a cart discount is spread over the lines here and sent as line discounts.

export type Discount = { kind: 'percent'; value: number } | { kind: 'amount'; value: number };

/** The discount a spec gives on a line worth `base` (minor units), never more than the line. */
export function discountAmount(base: number, spec: Discount | undefined): number {
  if (!spec || base <= 0 || !(spec.value > 0)) return 0;
  // A percent rounds down so the line never goes past the percent given (post_sale checks it against the limit).
  const raw = spec.kind === 'percent' ? Math.floor((base * Math.min(spec.value, 100)) / 100 + 1e-9) : Math.round(spec.value);
  return Math.min(base, raw);
}

/**
 * Spreads `amount` over the weights in proportion, in whole minor units that add up exactly (largest remainder,
 * ties to the earlier line), so a cart discount of $1.00 over three equal lines is 34 + 33 + 33.
 */
export function allocate(amount: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + Math.max(0, b), 0);
  if (amount <= 0 || sum <= 0) return weights.map(() => 0);
  const capped = Math.min(amount, sum);
  const exact = weights.map((w) => (Math.max(0, w) * capped) / sum);
  const parts = exact.map(Math.floor);
  let left = capped - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, r: e - Math.floor(e) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i] = (parts[i] ?? 0) + 1;
    left -= 1;
  }
  return parts;
}

/** A cart line with its own discount spec (the effective discount in minor units is filled by priceCart). */
export interface CartEntry extends CartLine {
  lineDiscount?: Discount;
}

/**
 * The lines as they will be sent: each line's own discount, then the cart discount spread over what remains of
 * every line (a percent of each line, an amount in proportion to each line).
 */
export function priceCart(entries: CartEntry[], cartDiscount?: Discount): CartEntry[] {
  const own = entries.map((e) => discountAmount(roundHalfAway(e.item.price * e.qty), e.lineDiscount));
  const rest = entries.map((e, i) => roundHalfAway(e.item.price * e.qty) - (own[i] ?? 0));
  const shares = !cartDiscount ? rest.map(() => 0)
    : cartDiscount.kind === 'percent' ? rest.map((r) => discountAmount(r, cartDiscount))
      : allocate(Math.round(cartDiscount.value), rest);
  return entries.map((e, i) => ({ ...e, discount: (own[i] ?? 0) + (shares[i] ?? 0) }));
}

/** The largest discount of any line, as a percent of that line (what post_sale checks against the role's limit). */
export function maxDiscountPercent(lines: CartLine[]): number {
  let max = 0;
  for (const line of lines) {
    const gross = roundHalfAway(line.item.price * line.qty);
    if (gross > 0 && line.discount > 0) max = Math.max(max, (line.discount * 100) / gross);
  }
  return max;
}

/** The discount each role gives without a manager, as private.discount_limit_percent (ADR 0131). */
export function discountLimitPercent(role: string | null | undefined): number {
  return role === 'owner' ? 100 : role === 'manager' ? 50 : role === 'cashier' ? 10 : 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Tenders: split across cash, card and other. Only cash gives change; post_sale wants the amounts to add up to
// the total exactly and a non-cash tender's tendered equal to its amount.

export type TenderKind = 'cash' | 'card' | 'other';
export interface Tender {
  kind: TenderKind;
  /** What this tender pays of the total. */
  amount: number;
  /** What the customer handed over (cash may be more: the change); for foreign cash, its value in the store's currency. */
  tendered: number;
  /** Cash in another currency at a manager's rate (foreign-tender.ts, ADR 0395). */
  foreign?: ForeignCash;
}

/**
 * What is paid, what remains and whether the sale is paid. With a cash rounding step (cash-rounding.ts) the sale is
 * paid when the tenders pay the total plus the rounding cash brings, as post_sale checks.
 */
export function tenderState(total: number, tenders: Tender[], step = 0) {
  const paid = tenders.reduce((a, t) => a + t.amount, 0);
  const change = tenders.reduce((a, t) => a + (t.tendered - t.amount), 0);
  const rounding = saleCashRounding(total, tenders, step);
  const due = total + rounding;
  return { paid, remaining: Math.max(0, due - paid), change, rounding, complete: tenders.length > 0 && paid === due };
}

/** What cash still has to pay: what remains after the other tenders, rounded to the step. */
export function cashRemaining(total: number, tenders: Tender[], step = 0): number {
  const withCash: Tender[] = [...tenders, { kind: 'cash', amount: 0, tendered: 0 }];
  const paid = tenders.reduce((a, t) => a + t.amount, 0);
  return Math.max(0, total + saleCashRounding(total, withCash, step) - paid);
}

/**
 * Adds a tender of `given` minor units (empty: the rest). Cash pays at most what remains and the excess is
 * change; a card or other tender may not pay more than remains. Returns the tenders or a message for the cashier.
 */
export function addTender(total: number, tenders: Tender[], kind: TenderKind, given: number | null, step = 0): Tender[] | string {
  const { remaining, complete } = tenderState(total, tenders, step);
  if ((remaining <= 0 && total > 0) || complete) return 'The sale is already paid';
  // Cash pays what remains rounded to the store's step (a few cents left may round to nothing).
  const forCash = kind === 'cash' ? cashRemaining(total, tenders, step) : remaining;
  const handed = given ?? forCash;
  if (kind === 'cash' && forCash === 0 && remaining > 0 && Number.isInteger(handed) && handed >= 0) {
    return [...tenders, { kind, amount: 0, tendered: handed }];
  }
  if (!Number.isInteger(handed) || handed <= 0) {
    if (total === 0 && tenders.length === 0) return [{ kind, amount: 0, tendered: 0 }];
    return 'Enter an amount above zero';
  }
  if (kind === 'cash') return [...tenders, { kind, amount: Math.min(handed, forCash), tendered: handed }];
  if (handed > remaining) return `A ${kind} payment cannot be more than what remains`;
  return [...tenders, { kind, amount: handed, tendered: handed }];
}

/** Change due for cash handed over against what remains (for the live "Change" figure while typing). */
export const changeDue = (remaining: number, given: number | null) => (given !== null && given > remaining ? given - remaining : 0);
