import { z } from 'zod';
import { fitsPasswordHash, passwordTooLongForService } from '../../lib/password-limit';
import { personNameSchema } from '../../lib/person-name';

/**
 * What a person invited without an account chooses when accepting (issue 25): their name, as the profile keeps
 * it (2-100 characters, the sign-up page's messages), and a password with the reset page's rules and messages.
 */
export const joinSchema = z
  .object({
    fullName: personNameSchema,
    password: z.string().min(6, 'Password must be at least 6 characters long.').refine(fitsPasswordHash, passwordTooLongForService),
    confirmPassword: z.string(),
  })
  .refine((values) => values.password === values.confirmPassword, { path: ['confirmPassword'], message: "Passwords don't match" });

export type JoinValues = z.output<typeof joinSchema>;

/** An account the invitation created (no password of its own yet) is asked for a name and a password. */
export function mustChooseCredentials(metadata: Record<string, unknown> | undefined): boolean {
  return metadata?.invited === true && metadata.password_chosen !== true;
}

/** Where a new member starts: a cashier at the register, anyone else on the Overview. */
export const firstScreenFor = (role: string) => (role === 'cashier' ? '/dashboard/pos' : '/dashboard');
