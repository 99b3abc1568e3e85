import { z } from 'zod';
import { amountExample, type Currency } from '../../lib/money';
import { toMinorUnits } from './variant-grid';

/** The product form; the same bounds as supabase/migrations/20261122120000_catalog.sql. */
export const productSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(200, 'Use at most 200 characters'),
  brand: z.string().trim().max(100, 'Use at most 100 characters'),
  unit: z.enum(['each', 'kg']),
  price: z.string().refine((v) => toMinorUnits(v) !== null, 'Enter a price such as 12.50 (not negative)'),
  hasLots: z.boolean(),
  requiresExpiry: z.boolean(),
  options: z.array(z.object({
    name: z.string().trim().max(40, 'Use at most 40 characters'),
    values: z.string().max(500, 'Use at most 500 characters'),
  })).max(3),
});
export type ProductValues = z.infer<typeof productSchema>;

/** Editing a product's details (options and variants are edited per variant). */
export const productEditSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(200, 'Use at most 200 characters'),
  brand: z.string().trim().max(100, 'Use at most 100 characters'),
  categoryId: z.string(),
  unit: z.enum(['each', 'kg']),
  taxRate: z.string().trim().refine((v) => v === '' || (/^\d{1,3}(\.\d{1,3})?$/.test(v) && Number(v) <= 100),
    'Enter a rate from 0 to 100 (blank: the store\'s rate)'),
  trackStock: z.boolean(),
  hasLots: z.boolean(),
  requiresExpiry: z.boolean(),
});
export type ProductEditValues = z.infer<typeof productEditSchema>;

/** One variant's SKU, price and (for owners and managers) cost. */
export const variantEditSchema = z.object({
  sku: z.string().trim().toUpperCase().regex(/^[A-Z0-9][A-Z0-9._/-]{0,39}$/, 'Use letters, digits and . _ / - (40 at most)'),
  price: z.string().refine((v) => toMinorUnits(v) !== null, 'Enter a price such as 12.50 (not negative)'),
  cost: z.string().refine((v) => v.trim() === '' || toMinorUnits(v) !== null, 'Enter a cost such as 4.20 (not negative)'),
});
export type VariantEditValues = z.infer<typeof variantEditSchema>;

/** A store's own price for a variant, in the digits of that store's currency (none known: two decimals). */
export const storePriceSchemaFor = (currency: Currency) => z.object({
  storeId: z.string().min(1, 'Choose a store'),
  variantId: z.string().min(1, 'Choose a variant'),
  price: z.string().refine((v) => toMinorUnits(v, currency) !== null, `Enter a price such as ${amountExample(currency)} (not negative)`),
});
export const storePriceSchema = storePriceSchemaFor(null);
export type StorePriceValues = z.infer<typeof storePriceSchema>;
