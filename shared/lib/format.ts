import { format, isValid, parseISO } from 'date-fns';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });

/** "$1,234.50". Accepts numbers or the strings PostgREST returns for numeric columns. */
export function formatMoney(amount: number | string | null | undefined): string {
  const value = typeof amount === 'string' ? Number(amount) : (amount ?? 0);
  return money.format(Number.isFinite(value) ? value : 0);
}

function toDate(value: string | Date | null | undefined): Date | null {
  if (!value) return null;
  const date = typeof value === 'string' ? parseISO(value) : value;
  return isValid(date) ? date : null;
}

/** "Jan 05, 2026" (the spec's MMM dd, yyyy), or the fallback for missing dates. */
export function formatDate(value: string | Date | null | undefined, fallback = 'Unknown'): string {
  const date = toDate(value);
  return date ? format(date, 'MMM dd, yyyy') : fallback;
}

/** "Jan 05, 2026, 14:03". */
export function formatDateTime(value: string | Date | null | undefined, fallback = 'Unknown'): string {
  const date = toDate(value);
  return date ? format(date, 'MMM dd, yyyy, HH:mm') : fallback;
}
