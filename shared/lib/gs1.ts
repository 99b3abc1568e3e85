import { format, isValid, lastDayOfMonth } from 'date-fns';
import { gtinCheckDigit } from './gtin';

/**
 * GS1 element strings as DataMatrix (and GS1-128) scanners send them (issue 29, ADR 0341): an optional symbology
 * identifier (`]d2` DataMatrix, `]C1` GS1-128, `]Q3` QR, `]e0` DataBar), then application identifiers with their
 * data; a variable-length field ends at FNC1, sent as the GS character (0x1D), or at the end. The human-readable
 * form "(01)09506000134352(17)270600(10)A1" is read too, so a code can be typed from the box.
 *
 * Read here: 01 GTIN (14 digits, check digit verified), 10 lot, 17 expiry (YYMMDD; day 00 = the month's last day),
 * 21 serial. Other fields of known length are skipped and kept in `other`, so a code carrying a net weight or a
 * production date still gives its item and lot. One parser for the register and for receiving.
 */
export interface Gs1Data {
  gtin?: string;
  lot?: string;
  /** ISO date (yyyy-MM-dd). */
  expiry?: string;
  serial?: string;
  /** Every other application identifier read, by its AI. */
  other: Record<string, string>;
}

export type Gs1Result = { ok: true; data: Gs1Data } | { ok: false; error: string };

export const GS = '\u001d';
const SYMBOLOGY = /^\](d2|C1|Q3|e0)/;

/** Data length of the fixed-length AIs (GS1 General Specifications, the predefined-length table), by AI. */
const FIXED: Record<string, number> = {
  '00': 18, '01': 14, '02': 14, '03': 14, '04': 16, '11': 6, '12': 6, '13': 6, '15': 6, '16': 6, '17': 6, '20': 2,
};
/** Variable-length AIs read until FNC1, with their longest data. */
const VARIABLE: Record<string, number> = {
  '10': 20, '21': 20, '22': 20, '30': 8, '37': 8, '240': 30, '241': 30, '250': 30, '251': 30, '400': 30, '90': 30,
  '91': 90, '92': 90, '93': 90, '94': 90, '95': 90, '96': 90, '97': 90, '98': 90, '99': 90,
};
/** 4-digit measure AIs (310n..369n): 6 digits. */
const isMeasure = (ai4: string) => /^3[1-6]\d\d$/.test(ai4);

/** The AI at the start of `rest` and its data length (null: variable), or null when it is not one we know. */
function readAi(rest: string): { ai: string; fixed: number | null; max: number } | null {
  const two = rest.slice(0, 2);
  const three = rest.slice(0, 3);
  const four = rest.slice(0, 4);
  if (FIXED[two] !== undefined) return { ai: two, fixed: FIXED[two], max: FIXED[two] };
  if (isMeasure(four)) return { ai: four, fixed: 6, max: 6 };
  if (VARIABLE[three] !== undefined) return { ai: three, fixed: null, max: VARIABLE[three] };
  if (VARIABLE[two] !== undefined) return { ai: two, fixed: null, max: VARIABLE[two] };
  return null;
}

/**
 * YYMMDD to an ISO date. The century is the one that puts the year within 49 years back and 50 ahead of `today`
 * (GS1 General Specifications 7.12); day 00 means the last day of the month.
 */
export function gs1Date(yymmdd: string, today: Date = new Date()): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const month = Number(yymmdd.slice(2, 4));
  const day = Number(yymmdd.slice(4, 6));
  if (month < 1 || month > 12) return null;
  const current = today.getFullYear();
  const diff = yy - (current % 100);
  let year = current - (current % 100) + yy;
  if (diff >= 51) year -= 100;
  else if (diff <= -50) year += 100;
  const first = new Date(year, month - 1, 1);
  const last = lastDayOfMonth(first).getDate();
  if (day > last) return null;
  const date = new Date(year, month - 1, day === 0 ? last : day);
  return isValid(date) ? format(date, 'yyyy-MM-dd') : null;
}

/** The human-readable form "(01)0950...(10)A1" as an element string with GS after each variable field. */
function fromParentheses(text: string): string | null {
  const parts = [...text.matchAll(/\((\d{2,4})\)([^()]*)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return null;
  return parts.map(([, ai = '', data = ''], i) => {
    const known = readAi(ai);
    const last = i === parts.length - 1;
    return ai + data + (known && known.fixed === null && !last ? GS : '');
  }).join('');
}

/** Whether a scan is a GS1 element string (rather than a plain barcode to look up as it is). */
export function looksLikeGs1(code: string): boolean {
  return SYMBOLOGY.test(code) || code.includes(GS) || /^\(\d{2,4}\)/.test(code) || (/^01\d{14}\d{2}/.test(code) && code.length > 16);
}

export function parseGs1(input: string, today: Date = new Date()): Gs1Result {
  let text = input.replace(/[\r\n]+$/, '');
  const symbology = SYMBOLOGY.exec(text);
  if (symbology) text = text.slice(symbology[0].length);
  if (text.startsWith('(')) {
    const converted = fromParentheses(text);
    if (converted === null) return { ok: false, error: 'The code in brackets is not (AI)data(AI)data' };
    text = converted;
  }
  if (text.startsWith(GS)) text = text.slice(1);
  const data: Gs1Data = { other: {} };
  let rest = text;
  while (rest.length > 0) {
    const found = readAi(rest);
    if (!found) return { ok: false, error: `Unknown application identifier at "${rest.slice(0, 4)}"` };
    rest = rest.slice(found.ai.length);
    let value: string;
    if (found.fixed !== null) {
      value = rest.slice(0, found.fixed);
      if (value.length !== found.fixed || value.includes(GS)) {
        return { ok: false, error: `(${found.ai}) needs ${found.fixed} characters` };
      }
      rest = rest.slice(found.fixed);
      // A GS after a fixed field is allowed (some printers add one).
      if (rest.startsWith(GS)) rest = rest.slice(1);
    } else {
      const end = rest.indexOf(GS);
      value = end === -1 ? rest : rest.slice(0, end);
      rest = end === -1 ? '' : rest.slice(end + 1);
      if (value.length === 0 || value.length > found.max) {
        return { ok: false, error: `(${found.ai}) holds 1 to ${found.max} characters` };
      }
    }
    if (found.ai === '01') {
      if (!/^\d{14}$/.test(value) || gtinCheckDigit(value.slice(0, 13)) !== Number(value[13])) {
        return { ok: false, error: `The GTIN ${value} has a wrong check digit` };
      }
      data.gtin = value;
    } else if (found.ai === '10') {
      data.lot = value;
    } else if (found.ai === '21') {
      data.serial = value;
    } else if (found.ai === '17') {
      const date = gs1Date(value, today);
      if (!date) return { ok: false, error: `(17) ${value} is not a date (YYMMDD)` };
      data.expiry = date;
    } else {
      data.other[found.ai] = value;
    }
  }
  return { ok: true, data };
}

/**
 * The codes a GTIN-14 is printed as on single items, longest first: the GTIN-14 itself, then EAN-13, UPC-A and
 * EAN-8 when its leading digits are zeros (the catalog stores the code as printed on the item).
 */
export function gtinLookupCodes(gtin14: string): string[] {
  const codes = [gtin14];
  for (const length of [13, 12, 8]) {
    if (/^0+$/.test(gtin14.slice(0, 14 - length))) codes.push(gtin14.slice(14 - length));
  }
  return codes;
}
