import { z } from 'zod';
import { COUNTRY_CODES } from '../../lib/countries';
import { parseMinorAmount } from '../../lib/money';

/** The same bounds as the database's domains (supabase/migrations/20261122100000_workspace.sql). */
const name = z.string().trim().min(2, 'Use at least 2 characters').max(100, 'Use at most 100 characters');
const optionalText = z.string().max(500, 'Use at most 500 characters');
const optionalPhone = z.string().trim().refine((v) => v === '' || (v.length >= 10 && v.length <= 20),
  'A phone number has 10 to 20 characters');

export const BUSINESS_TYPES = ['Grocery', 'Clothing', 'Medical', 'Electronics', 'Others'] as const;

export const businessSchema = z.object({
  name,
  type: z.enum(BUSINESS_TYPES),
  email: z.union([z.literal(''), z.email('Enter a valid email address').max(255)]),
  phone: optionalPhone,
  /** ISO 3166-1 alpha-2, or '' when not said (the retention period is then the longest, 10 years). */
  country: z.union([z.literal(''), z.string().refine((v) => COUNTRY_CODES.includes(v), 'Choose a country from the list')]),
});
export type BusinessValues = z.infer<typeof businessSchema>;

const currencies: readonly string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : [];
const timeZones: readonly string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

const storeFields = z.object({
  name,
  address: optionalText,
  phone: optionalPhone,
  time_zone: z.string().refine((v) => v === 'UTC' || timeZones.length === 0 || timeZones.includes(v), 'Choose a time zone'),
  currency: z.string().regex(/^[A-Z]{3}$/, 'Use a 3-letter ISO 4217 code such as USD')
    .refine((v) => currencies.length === 0 || currencies.includes(v), 'Not an ISO 4217 currency'),
  tax_inclusive: z.boolean(),
  default_tax_rate: z.number({ error: 'Enter a rate between 0 and 100' }).min(0, 'At least 0').max(100, 'At most 100'),
  receipt_header: optionalText,
  receipt_footer: optionalText,
  /** In the store's currency as typed ("50.00"); minor units in the database (stores.offline_refund_limit). */
  offline_refund_limit: z.string(),
  /** Cash is paid in multiples of this ("0.05"; "0" or empty: exact), issue 29; minor units in stores.cash_rounding_step. */
  cash_rounding_step: z.string(),
});

/** The most a cashier refunds offline without a manager (ADR 0171): an amount of the store's currency, 0 to 1,000,000. */
export const storeSchema = storeFields.superRefine((v, ctx) => {
  const parsed = parseMinorAmount(v.offline_refund_limit, v.currency, { maxWholeDigits: 7 });
  if (!parsed.ok) ctx.addIssue({ code: 'custom', path: ['offline_refund_limit'], message: parsed.message });
  else if (parsed.minor > 100_000_000) {
    ctx.addIssue({ code: 'custom', path: ['offline_refund_limit'], message: 'At most 1,000,000' });
  }
  const step = parseMinorAmount(v.cash_rounding_step.trim() || '0', v.currency, { maxWholeDigits: 6 });
  if (!step.ok) ctx.addIssue({ code: 'custom', path: ['cash_rounding_step'], message: step.message });
  else if (step.minor > 100_000) ctx.addIssue({ code: 'custom', path: ['cash_rounding_step'], message: 'Too large a step' });
});
export type StoreFormValues = z.infer<typeof storeSchema>;

export const registerSchema = z.object({
  name,
  receipt_prefix: z.string().trim().toUpperCase().regex(/^[A-Z0-9]{1,8}$/, '1 to 8 letters or digits'),
});
export type RegisterValues = z.infer<typeof registerSchema>;

export const inviteSchema = z.object({
  email: z.email('Enter a valid email address').max(255),
  role: z.enum(['manager', 'cashier']),
  allStores: z.boolean(),
  storeIds: z.array(z.string()),
}).refine((v) => v.allStores || v.storeIds.length > 0, { message: 'Choose at least one store', path: ['storeIds'] });
export type InviteValues = z.infer<typeof inviteSchema>;

export const TIME_ZONES = timeZones.length ? timeZones : ['UTC'];
