import type { Queryable } from '../db/types';
import { lockUserSessions } from './sessions';

/**
 * GoTrue's UpdatePassword: a password change means the old one may no longer be trusted, so every
 * pending email token (confirmation, recovery, email change, reauthentication) is cleared and every
 * other session ends (all of them when no session asked, as from the admin API). Unexchanged PKCE
 * codes of email links go too, since they were earned with a link issued before the change.
 */
export async function storeNewPassword(tx: Queryable, userId: string, passwordHash: string, keepSessionId: string | undefined): Promise<void> {
  await lockUserSessions(tx, userId);
  await tx.query(
    `update auth.users
        set encrypted_password = $2,
            confirmation_token = '', confirmation_sent_at = null,
            recovery_token = '', recovery_sent_at = null,
            email_change_token_current = '', email_change_token_new = '', email_change_sent_at = null,
            phone_change_token = '', phone_change_sent_at = null,
            reauthentication_token = '', reauthentication_sent_at = null,
            updated_at = now()
      where id = $1`,
    [userId, passwordHash],
  );
  await tx.query('delete from auth.one_time_tokens where user_id = $1', [userId]);
  await tx.query(`delete from auth.flow_state where user_id = $1 and authentication_method in ('recovery', 'email/signup', 'magiclink')`, [userId]);
  // Deleting auth.sessions rows removes their refresh tokens and their public.active_sessions rows.
  if (keepSessionId) {
    await tx.query('delete from auth.sessions where user_id = $1 and id <> $2', [userId, keepSessionId]);
  } else {
    await tx.query('delete from auth.sessions where user_id = $1', [userId]);
  }
}
