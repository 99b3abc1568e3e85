import type { z } from 'zod';

/**
 * The auth service hashes passwords with bcrypt, which reads only the first 72 bytes, so GoTrue refuses
 * longer ones (hosted and local alike) with these words. The spec lets passwords run to 100 characters;
 * the forms keep that rule and its message, and add this one so a 73-100 byte password is refused on the
 * form, before the round trip, in the service's own words.
 */
export const passwordHashMaxBytes = 72;
export const passwordTooLongForService = 'Password cannot be longer than 72 characters';

export function fitsPasswordHash(password: string): boolean {
  return new TextEncoder().encode(password).length <= passwordHashMaxBytes;
}

/**
 * A new password's upper bounds: the spec's 100 characters with its message, then the service's 72 bytes,
 * checked only within 100 so each too-long password gets one message. (An `abort` on the first rule would
 * do the same but also skip the form's "passwords match" check.)
 */
export function withPasswordMaximum(schema: z.ZodString) {
  return schema
    .max(100, 'Password is too long')
    .refine((password) => password.length > 100 || fitsPasswordHash(password), passwordTooLongForService);
}
