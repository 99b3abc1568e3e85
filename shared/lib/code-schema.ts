import { z } from 'zod';

/** A code from an authenticator app: six digits (spaces typed between the groups are dropped). */
export const authenticatorCodeSchema = z.object({
  code: z
    .string()
    .transform((value) => value.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app')),
});
export type AuthenticatorCodeValues = z.input<typeof authenticatorCodeSchema>;

/** A recovery code as shown at enrolment (xxxxx-xxxxx); case and spaces do not matter. */
export const recoveryCodeSchema = z.object({
  code: z
    .string()
    .transform((value) => value.trim().toLowerCase())
    .pipe(z.string().regex(/^[a-z0-9]{5}-?[a-z0-9]{5}$/, 'Enter one of your recovery codes, like abcde-12345')),
});
export type RecoveryCodeValues = z.input<typeof recoveryCodeSchema>;
