import { z } from 'zod';

/** The answer of admin_billing_collections() (20261127140000_billing.sql), checked at the edge. */
const count = z.coerce.number().int().nonnegative();
const money = z.coerce.number().nonnegative();

export const collectionsSchema = z.object({
  days: count,
  trials_started: count,
  trials_converted: count,
  trialing: count,
  past_due: count,
  churned: count,
  collected: money,
  failed_payments: count,
  failed_amount: money,
  refunds: count,
  refunded_amount: money,
  webhook_failures: count,
  signature_failures: count,
  last_signature_failure: z.string().nullable(),
});
export type Collections = z.infer<typeof collectionsSchema>;

/** Trial conversion as a percentage, or null before any trial started. */
export const conversionRate = (c: Collections): number | null =>
  c.trials_started === 0 ? null : Math.round((c.trials_converted / c.trials_started) * 100);
