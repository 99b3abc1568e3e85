import type { z } from 'zod';

/**
 * The auth service hashes passwords with bcrypt, which reads only the first 72 bytes, so GoTrue refuses
 * longer ones (hosted and local alike). The spec lets passwords run to 100 characters; the forms keep that
 * rule and its message, and add this one so a password past 72 bytes is refused on the form, before the
 * round trip. The limit is in bytes, not characters: an accented letter takes 2 bytes and "€" 3, so 30 "€"
 * signs (90 bytes) are too long. The words say so (GoTrue's own "72 characters" misled users).
 */
export const passwordHashMaxBytes = 72;
export const passwordTooLongForService =
  'Password must be at most 72 bytes (fewer characters if it uses accents or symbols)';

export function fitsPasswordHash(password: string): boolean {
  return new TextEncoder().encode(password).length <= passwordHashMaxBytes;
}

/** GoTrue's wording for the same refusal, which counts bytes while saying "characters". */
const serviceTooLongWords = /^Password cannot be longer than 72 characters\.?$/i;

/** The auth service's refusal of a too-long password, in the forms' own (accurate) words; any other message as it is. */
export function explainPasswordLimit(message: string): string {
  return serviceTooLongWords.test(message.trim()) ? passwordTooLongForService : message;
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
