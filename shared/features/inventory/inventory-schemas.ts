import { z } from 'zod';
import { minorToPlain, parseMinor, type Currency } from '../../lib/money';

/**
 * The inventory forms' rules, the same as the database's (20261122120000_catalog.sql and the inventory
 * functions), so a mistake is named next to its field before anything is sent. The database checks again.
 */

/**
 * "12.50" -> 1250 minor units; null unless a non-negative amount with at most the currency's decimals
 * (shared/lib/money.ts); two decimals without a currency.
 */
export function parseMoney(text: string, currency: Currency = null): number | null {
  return parseMinor(text, currency, { maxWholeDigits: 9 });
}

/** Minor units as a plain decimal in the currency's digits (the till's currency is the store's). */
export const money = (minor: number | string | null | undefined, currency: Currency = null) => minorToPlain(minor ?? 0, currency);

/** A quantity as typed: null when it is not a number >= 0 with at most 3 decimals (whole for items by the piece). */
export function parseQty(text: string, unit: string): number | null {
  const t = text.trim();
  if (!/^\d{1,9}(\.\d{1,3})?$/.test(t)) return null;
  const n = Number(t);
  if (unit !== 'kg' && !Number.isInteger(n)) return null;
  return n;
}

export const qtyMessage = (unit: string) =>
  unit === 'kg' ? 'Enter kilograms, up to 3 decimals' : 'Enter a whole number of pieces';

const optional = (max: number, message: string) => z.string().trim().max(max, message);

export const supplierSchema = z.object({
  name: z.string().trim().min(2, 'Enter a name of at least 2 characters').max(100, 'Use at most 100 characters'),
  contactName: optional(100, 'Use at most 100 characters'),
  email: z.string().trim().max(255, 'Use at most 255 characters')
    .refine((v) => v === '' || /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v), 'Enter an email such as orders@supplier.com'),
  phone: z.string().trim().refine((v) => v === '' || (v.length >= 10 && v.length <= 20), 'Enter 10 to 20 characters'),
  notes: optional(500, 'Use at most 500 characters'),
});
export type SupplierValues = z.infer<typeof supplierSchema>;

/** One line of a new purchase order (or transfer): the item chosen in the picker and its quantity. */
const lineBase = z.object({ variantId: z.string().min(1), label: z.string(), unit: z.string(), qty: z.string() });

export const purchaseOrderSchema = z.object({
  supplierId: z.string().min(1, 'Choose a supplier'),
  expectedOn: z.string().refine((v) => v === '' || /^\d{4}-\d{2}-\d{2}$/.test(v), 'Enter a date'),
  notes: optional(500, 'Use at most 500 characters'),
  lines: z.array(lineBase.extend({ unitCost: z.string() }).superRefine((line, ctx) => {
    if (!(parseQty(line.qty, line.unit) ?? 0)) ctx.addIssue({ code: 'custom', path: ['qty'], message: qtyMessage(line.unit) });
    if (line.unitCost.trim() !== '' && parseMoney(line.unitCost) === null) {
      ctx.addIssue({ code: 'custom', path: ['unitCost'], message: 'Enter a cost such as 4.20' });
    }
  })).min(1, 'Add at least one item'),
});
export type PurchaseOrderValues = z.infer<typeof purchaseOrderSchema>;

/** A draft's lines as edited on its page: the same rules as a new order's lines. */
export const draftLinesSchema = z.object({ lines: purchaseOrderSchema.shape.lines });
export type DraftLinesValues = z.infer<typeof draftLinesSchema>;

/** Serial numbers as typed or scanned: one per line (or separated by commas), trimmed, empties dropped. */
export const serialList = (text: string) => text.split(/[\n,]/).map((s) => s.trim()).filter((s) => s !== '');

/**
 * Receiving an order: per line what arrived now (blank: nothing), with lot and expiry where the item needs them,
 * and one serial per unit for serial-tracked items (the database checks IMEIs and known serials again).
 */
export const receiveSchema = z.object({
  lines: z.array(z.object({
    lineId: z.string(), variantId: z.string(), label: z.string(), unit: z.string(), remaining: z.number(),
    hasLots: z.boolean(), requiresExpiry: z.boolean(), serialTracking: z.enum(['serial', 'imei']).nullable(),
    barcodes: z.array(z.string()),
    qty: z.string(), lotNumber: z.string().trim().max(60, 'Use at most 60 characters'), expiresOn: z.string(),
    serials: z.string().max(40000, 'Too many characters'),
  }).superRefine((line, ctx) => {
    if (line.serialTracking && line.qty.trim() !== '') {
      const serials = serialList(line.serials);
      const qty = parseQty(line.qty, line.unit) ?? 0;
      if (serials.length !== qty) {
        ctx.addIssue({ code: 'custom', path: ['serials'], message: `Enter ${qty} serial number${qty === 1 ? '' : 's'}, one per unit (${serials.length} entered)` });
      } else if (serials.some((s) => !/^[A-Za-z0-9./-]{1,64}$/.test(s))) {
        ctx.addIssue({ code: 'custom', path: ['serials'], message: 'Serials use letters, digits and . / - (64 at most)' });
      } else if (line.serialTracking === 'imei' && serials.some((s) => !/^\d{15}$/.test(s))) {
        ctx.addIssue({ code: 'custom', path: ['serials'], message: 'An IMEI is 15 digits' });
      } else if (new Set(serials).size !== serials.length) {
        ctx.addIssue({ code: 'custom', path: ['serials'], message: 'A serial number is listed twice' });
      }
    }
    if (line.qty.trim() === '') return;
    const qty = parseQty(line.qty, line.unit);
    if (qty === null) ctx.addIssue({ code: 'custom', path: ['qty'], message: qtyMessage(line.unit) });
    else if (qty > line.remaining) ctx.addIssue({ code: 'custom', path: ['qty'], message: `At most ${line.remaining} are still expected` });
    else if (qty > 0 && line.hasLots && line.lotNumber === '') ctx.addIssue({ code: 'custom', path: ['lotNumber'], message: 'Enter the lot number' });
    if (qty && line.requiresExpiry && line.expiresOn === '') ctx.addIssue({ code: 'custom', path: ['expiresOn'], message: 'Enter the expiry date' });
  })).refine((lines) => lines.some((l) => (parseQty(l.qty, l.unit) ?? 0) > 0), 'Enter what arrived for at least one line'),
});
export type ReceiveValues = z.infer<typeof receiveSchema>;

export const sendTransferSchema = z.object({
  toStoreId: z.string().min(1, 'Choose the store to send to'),
  note: optional(500, 'Use at most 500 characters'),
  lines: z.array(lineBase.extend({ lotId: z.string(), available: z.number() }).superRefine((line, ctx) => {
    if (line.qty.trim() === '') return;
    const qty = parseQty(line.qty, line.unit);
    if (qty === null) ctx.addIssue({ code: 'custom', path: ['qty'], message: qtyMessage(line.unit) });
    else if (qty > line.available) ctx.addIssue({ code: 'custom', path: ['qty'], message: `Only ${line.available} on hand` });
  })).refine((lines) => lines.some((l) => (parseQty(l.qty, l.unit) ?? 0) > 0), 'Enter a quantity to send for at least one item'),
});
export type SendTransferValues = z.infer<typeof sendTransferSchema>;

/** Receiving a transfer: per line received and damaged; missing is what is left of what was sent. */
export const receiveTransferSchema = z.object({
  lines: z.array(z.object({ lineId: z.string(), label: z.string(), unit: z.string(), sent: z.number(), received: z.string(), damaged: z.string() })
    .superRefine((line, ctx) => {
      const received = parseQty(line.received, line.unit);
      const damaged = parseQty(line.damaged || '0', line.unit);
      if (received === null) ctx.addIssue({ code: 'custom', path: ['received'], message: qtyMessage(line.unit) });
      if (damaged === null) ctx.addIssue({ code: 'custom', path: ['damaged'], message: qtyMessage(line.unit) });
      if (received !== null && damaged !== null && received + damaged > line.sent) {
        ctx.addIssue({ code: 'custom', path: ['received'], message: `Received and damaged together are at most the ${line.sent} sent` });
      }
    })),
});
export type ReceiveTransferValues = z.infer<typeof receiveTransferSchema>;

/** What arrived missing: sent minus received minus damaged (never below zero). */
export function missingOf(line: { sent: number; received: string; damaged: string; unit: string }): number {
  const received = parseQty(line.received, line.unit) ?? 0;
  const damaged = parseQty(line.damaged || '0', line.unit) ?? 0;
  return Math.max(0, Math.round((line.sent - received - damaged) * 1000) / 1000);
}

export const levelsSchema = z.object({
  unit: z.string(),
  reorderPoint: z.string(),
  targetLevel: z.string(),
}).superRefine((v, ctx) => {
  const point = parseQty(v.reorderPoint, v.unit);
  const target = parseQty(v.targetLevel, v.unit);
  if (point === null) ctx.addIssue({ code: 'custom', path: ['reorderPoint'], message: qtyMessage(v.unit) });
  if (target === null) ctx.addIssue({ code: 'custom', path: ['targetLevel'], message: qtyMessage(v.unit) });
  if (point !== null && target !== null && target < point) {
    ctx.addIssue({ code: 'custom', path: ['targetLevel'], message: 'The target level is at least the reorder point' });
  }
});
export type LevelsValues = z.infer<typeof levelsSchema>;
