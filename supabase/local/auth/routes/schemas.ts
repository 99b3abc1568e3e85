import { z } from 'zod';
import { errors } from '../auth-error';
import { hasControlCharacter } from '../input-guards';

/** RFC 7636 section 4.2, as GoTrue checks it. */
const CODE_CHALLENGE = /^[A-Za-z0-9._~-]+$/;
const CHARSET_MESSAGE = 'code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes';

export const metadata = z.record(z.string(), z.unknown());
export const codeChallengeFields = {
  code_challenge: z.string().min(43).max(128).regex(CODE_CHALLENGE, CHARSET_MESSAGE).nullish(),
  code_challenge_method: z.string().nullish(),
};

/** GoTrue accepts 'S256', 's256' and 'plain'. */
export function pkceOf(body: { code_challenge?: string | null | undefined; code_challenge_method?: string | null | undefined }) {
  if (!body.code_challenge) return undefined;
  // /authorize reads it from the query string, past the body schema: checked here for both.
  if (body.code_challenge.length < 43 || body.code_challenge.length > 128) {
    throw errors.validation('code challenge has to be between 43 and 128 characters');
  }
  if (!CODE_CHALLENGE.test(body.code_challenge)) throw errors.validation(CHARSET_MESSAGE);
  const method = (body.code_challenge_method ?? 's256').toLowerCase();
  if (method !== 's256' && method !== 'plain') return undefined;
  return { codeChallenge: body.code_challenge, method } as const;
}

/** The email check GoTrue applies (format only; the domain is not resolved locally). */
export const emailField = z
  .string()
  .trim()
  .max(255)
  .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'Unable to validate email address: invalid format')
  // No control characters (a NUL cannot be stored as text; it would be a database error, a 500).
  .refine((email) => !hasControlCharacter(email), 'Unable to validate email address: invalid format');
