import { z } from 'zod';

export const metadata = z.record(z.string(), z.unknown());
export const codeChallengeFields = {
  code_challenge: z.string().min(43).max(128).nullish(),
  code_challenge_method: z.string().nullish(),
};

/** GoTrue accepts 'S256', 's256' and 'plain'. */
export function pkceOf(body: { code_challenge?: string | null | undefined; code_challenge_method?: string | null | undefined }) {
  if (!body.code_challenge) return undefined;
  const method = (body.code_challenge_method ?? 's256').toLowerCase();
  if (method !== 's256' && method !== 'plain') return undefined;
  return { codeChallenge: body.code_challenge, method } as const;
}

/** The email check GoTrue applies (format only; the domain is not resolved locally). */
export const emailField = z
  .string()
  .trim()
  .max(255)
  .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'Unable to validate email address: invalid format');
