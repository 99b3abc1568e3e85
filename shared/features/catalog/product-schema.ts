import { z } from 'zod';
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
