// SQL (supabase/schemas/pos.sql): private.prescription_problem, private.record_sale_prescriptions,
// public.sale_line_prescriptions; catalog.sql products.prescription_only (ADR 0390).
import { format } from 'date-fns';
import { z } from 'zod';
import type { CartLine } from '../cart';

/**
 * A prescription as the register records it on a line of a prescription-only item: the same rules as the
 * database's private.prescription_problem, so the form refuses what post_sale would refuse (and the sale is never
 * queued offline with a prescription the server will flag).
 */
export interface Prescription {
  prescriber: string;
  number: string;
  /** The date written, YYYY-MM-DD. */
  writtenOn: string;
  refillsAuthorised: number;
  refillsRemaining: number;
}

const refills = z.coerce.number({ message: 'Enter a whole number.' }).int('Enter a whole number.')
  .min(0, 'Enter 0 to 99.').max(99, 'Enter 0 to 99.');

/** The form's schema; `today` is the register's local date (a prescription is not written in the future). */
export function prescriptionSchema(today: string) {
  return z.object({
    prescriber: z.string().trim().min(2, 'Enter the prescriber (2 to 120 characters).').max(120, 'Enter the prescriber (2 to 120 characters).'),
    number: z.string().trim().min(1, 'Enter the prescription number.').max(40, 'A prescription number has at most 40 characters.'),
    writtenOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter the date written.')
      .refine((d) => d <= today, 'The date written is not after today.'),
    refillsAuthorised: refills,
    refillsRemaining: refills,
  }).refine((p) => p.refillsRemaining <= p.refillsAuthorised, {
    message: 'Refills remaining are at most the refills authorised.', path: ['refillsRemaining'],
  });
}

export const todayLocal = () => format(new Date(), 'yyyy-MM-dd');

/** The line's prescription as post_sale reads it (the outbox keeps it in the sale's payload, offline too). */
export function prescriptionPayload(p: Prescription) {
  return { prescriber: p.prescriber.trim(), number: p.number.trim(), written_on: p.writtenOn,
    refills_authorised: p.refillsAuthorised, refills_remaining: p.refillsRemaining };
}

/** The cart's lines of prescription-only items that have no prescription yet, in cart order. */
export function linesNeedingPrescription<T extends CartLine & { prescription?: Prescription }>(
  lines: T[], prescriptionItems: Record<string, true> | undefined): T[] {
  return prescriptionItems ? lines.filter((l) => prescriptionItems[l.item.variantId] && !l.prescription) : [];
}
