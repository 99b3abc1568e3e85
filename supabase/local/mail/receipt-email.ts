import { z } from 'zod';
// With its extension: the hosted send-email Edge Function (Deno) loads this file too (docs/adr/0121).
import { escapeHtml } from '../../functions/_shared/email-html.ts';
import type { RenderedEmail as OutgoingMail } from '../../functions/_shared/outbox-email.ts';

/*
 * The 'receipt' template of public.email_outbox: the params request_receipt_email writes
 * (supabase/migrations/20261123135000_receipt_email.sql, docs/adr/0132) rendered as a plain-text and an HTML
 * email. The params are parsed, not trusted: a malformed row yields null and is skipped like an unknown template.
 */

const money = z.number().int();
const receiptParams = z.object({
  receipt_number: z.string().max(100),
  store_name: z.string().max(200),
  store_address: z.string().max(500).nullable().optional(),
  store_phone: z.string().max(40).nullable().optional(),
  /** <business id>/logo?v=<version> in the public bucket business-logos (20261202140100_receipt_email_logo). */
  logo_path: z.string().regex(/^[0-9a-f-]{36}\/logo\?v=\d{1,15}$/).nullable().optional(),
  header: z.string().max(500).nullable().optional(),
  footer: z.string().max(500).nullable().optional(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  occurred_local: z.string().max(40),
  /** Absent in rows queued before 20261127160000: shown as before (tax added on top). */
  tax_inclusive: z.boolean().optional(),
  subtotal: money,
  discount_total: money,
  tax_total: money,
  total: money,
  change_total: money,
  lines: z.array(z.object({ description: z.string().max(500), qty: z.number(), unit_price: money, line_total: money,
    amount: money.optional(),
    /** From 20261205100000 (ADR 0410): the unit's serial and the lots the line took, as the printed receipt shows. */
    serial: z.string().max(200).nullable().optional(),
    lots: z.array(z.object({ lot_number: z.string().max(100), expires_on: z.string().max(10).nullable(), qty: z.number() }))
      .max(100).optional() })).max(1000),
  taxes: z.array(z.object({ rate: z.number(), tax: money })).max(50),
  tenders: z.array(z.object({ kind: z.string().max(20), amount: money, tendered: money, change: money,
    /** Foreign cash (ADR 0395): the currency handed over, its rate to the store's, and the amount in its minor units. */
    currency: z.string().regex(/^[A-Z]{3}$/).nullable().optional(),
    rate: z.number().positive().nullable().optional(),
    foreign_tendered: money.nullable().optional() })).max(20),
});
export type ReceiptEmailParams = z.infer<typeof receiptParams>;

function formatter(currency: string) {
  const fmt = new Intl.NumberFormat('en-US', { style: 'currency', currency });
  const digits = fmt.resolvedOptions().maximumFractionDigits ?? 2;
  return (minor: number) => fmt.format(minor / 10 ** digits);
}

const tenderLabel = (kind: string) => (kind === 'cash' ? 'Cash' : kind === 'card' ? 'Card' : 'Other');

type Line = ReceiptEmailParams['lines'][number];
type Tender = ReceiptEmailParams['tenders'][number];

/** A line's serial and lots under it, worded as the register prints them (shared/lib/receipt-lot.ts). */
const lineDetails = (l: Line): [string, string][] => [
  ...(l.serial ? [[`  Serial ${l.serial}`, ''] as [string, string]] : []),
  ...(l.lots ?? []).map((lot): [string, string] =>
    [`  Lot ${lot.lot_number}${lot.expires_on ? ` exp. ${lot.expires_on}` : ''} x ${lot.qty}`, '']),
];

/** Cash in another currency shows what was handed over and the rate, then its value here (ADR 0395). */
function tenderRows(t: Tender, fmt: (minor: number) => string, storeCurrency: string): [string, string][] {
  if (t.currency && t.rate != null && t.foreign_tendered != null) {
    return [[`Cash in ${t.currency}: ${formatter(t.currency)(t.foreign_tendered)} at ${t.rate} ${storeCurrency} per ${t.currency}`,
      fmt(t.tendered)]];
  }
  return [[tenderLabel(t.kind), fmt(t.kind === 'cash' ? t.tendered : t.amount)]];
}

/**
 * The logo's absolute public URL on the project (hosted Storage's public object route), or null without an API
 * URL or a logo. Only an http(s) API URL is used, and the path was checked above: the link cannot point elsewhere.
 */
function logoUrl(apiUrl: string | undefined, path: string | null | undefined): string | null {
  if (!apiUrl || !path || !/^https?:\/\//.test(apiUrl)) return null;
  return `${apiUrl.replace(/\/+$/, '')}/storage/v1/object/public/business-logos/${path}`;
}

/** The receipt email for one outbox row, or null when its params are not a receipt. */
export function receiptEmail(to: string, params: unknown, apiUrl?: string): OutgoingMail | null {
  const parsed = receiptParams.safeParse(params);
  if (!parsed.success) return null;
  const r = parsed.data;
  const fmt = formatter(r.currency);
  // [label, amount] rows shared by the text and the HTML versions.
  const rows: [string, string][] = [
    // Each line is qty x unit price, so the lines add up to the subtotal (as on the register's receipt, issue 25).
    ...r.lines.flatMap((l): [string, string][] => [[`${l.description}  ${l.qty} x ${fmt(l.unit_price)}`, fmt(l.amount ?? l.line_total)],
      ...lineDetails(l)]),
    ['Subtotal', fmt(r.subtotal)],
    ...(r.discount_total > 0 ? [['Discount', `-${fmt(r.discount_total)}`] as [string, string]] : []),
    ...r.taxes.map((t): [string, string] => [r.tax_inclusive ? `Tax ${t.rate}% (included)` : `Tax ${t.rate}%`, fmt(t.tax)]),
    ['Total', fmt(r.total)],
    ...r.tenders.flatMap((t) => tenderRows(t, fmt, r.currency)),
    ...(r.change_total > 0 ? [['Change', fmt(r.change_total)] as [string, string]] : []),
  ];
  const head = [r.store_name, r.store_address, r.store_phone, r.header].filter((x): x is string => Boolean(x));
  const logo = logoUrl(apiUrl, r.logo_path);
  const subject = `Your receipt ${r.receipt_number} from ${r.store_name}`;
  const text = [...head, '', `Receipt ${r.receipt_number}`, r.occurred_local, '',
    ...rows.map(([label, amount]) => (amount ? `${label}: ${amount}` : label)), '', ...(r.footer ? [r.footer] : []), ''].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111">
${logo ? `<p><img src="${escapeHtml(logo)}" alt="${escapeHtml(r.store_name)}" style="max-height:80px;max-width:240px"></p>\n` : ''}${head.map((line, i) => (i === 0 ? `<h2>${escapeHtml(line)}</h2>` : `<p style="margin:0">${escapeHtml(line)}</p>`)).join('\n')}
<p>Receipt <strong>${escapeHtml(r.receipt_number)}</strong><br>${escapeHtml(r.occurred_local)}</p>
<table style="border-collapse:collapse;min-width:280px">${rows
    .map(([label, amount]) => `<tr><td style="padding:2px 12px 2px 0">${escapeHtml(label)}</td><td style="text-align:right">${escapeHtml(amount)}</td></tr>`)
    .join('')}</table>
${r.footer ? `<p>${escapeHtml(r.footer)}</p>` : ''}<p style="color:#555">Sent by Storewise at the store's request.</p></body></html>`;
  return { to, subject, text, html };
}
