import { z } from 'zod';

/**
 * The PIN rules of private.pin_problem (20261202120000_till_pins) for the forms, so a person hears at once that
 * 1234 is refused; the database applies the same rules and is the one that decides.
 */
export function pinProblem(pin: string): string | null {
  if (!/^[0-9]{4,6}$/.test(pin)) return 'A PIN is 4 to 6 digits.';
  const digits = [...pin].map(Number);
  const steps = digits.slice(1).map((d, i) => (d - (digits[i] as number) + 10) % 10);
  const run = steps.every((s) => s === 1) || steps.every((s) => s === 9);
  if (/^(.)\1+$/.test(pin) || run || /^(..)\1+$/.test(pin) || /^(...)\1$/.test(pin)) {
    return 'This PIN is too easy to guess: choose one that is not a repeated digit, a run like 1234 or a repeated pair.';
  }
  return null;
}

/** What a person types to unlock: only the format (a wrong PIN is for the server or the verifier to say). */
export const pinEntrySchema = z.object({
  pin: z.string().regex(/^[0-9]{4,6}$/, 'Type your 4 to 6 digit PIN.'),
});

/** A PIN being chosen: the format and the easy-to-guess rules. */
export const newPinSchema = z.object({
  pin: z.string().superRefine((pin, ctx) => {
    const problem = pinProblem(pin);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  confirm: z.string(),
}).refine((v) => v.pin === v.confirm, { path: ['confirm'], message: 'The two PINs differ.' });
