import { z } from 'zod';
import type { Queryable } from '../db/types';
import { AuthError } from './auth-error';

/**
 * GoTrue's before-user-created hook, as a Postgres function (docs/adr/0260): hosted Supabase calls
 * public.hook_before_user_created when the hook is enabled; the embedded auth service calls the same function
 * before each user it creates on a sign-up, an OAuth sign-in or an OTP request, so the platform's sign-up mode
 * (open, invitation-only, closed) holds on both. An error object refuses the user with its status and message.
 */
const hookAnswer = z.object({
  error: z.object({ http_code: z.number().int().min(400).max(599), message: z.string().min(1) }).optional(),
});

export async function assertUserMayBeCreated(tx: Queryable, user: { email: string; provider: string }): Promise<void> {
  const event = {
    metadata: { name: 'before-user-created', time: new Date().toISOString() },
    user: { email: user.email, app_metadata: { provider: user.provider, providers: [user.provider] } },
  };
  const result = await tx.query<{ answer: unknown }>('select public.hook_before_user_created($1::jsonb) as answer', [JSON.stringify(event)]);
  const answer = hookAnswer.parse(result.rows[0]?.answer ?? {});
  if (answer.error) throw new AuthError(answer.error.http_code, 'signup_disabled', answer.error.message);
}
