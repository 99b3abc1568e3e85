import { createHash } from 'node:crypto';
import type { Queryable } from '../db/types';

/** GoTrue's obfuscateValue: base64url(sha256(user id + value)), stable per user and value, not reversible. */
function obfuscate(userId: string, value: string): string {
  return createHash('sha256').update(userId + value).digest('base64url');
}

/**
 * GoTrue's soft delete (DELETE /admin/users/{id} with should_soft_delete): the row and its id stay, so rows that
 * point at the user (sales, shifts, the trail) keep their actor; email and phone are replaced by hashes, the
 * password, pending tokens and both metadata are cleared, deleted_at is set; identities lose their data and
 * provider id; factors and sessions are deleted. A user already soft-deleted is left as it is.
 */
export async function softDeleteUser(tx: Queryable, userId: string): Promise<void> {
  const found = await tx.query<{ email: string | null; phone: string | null; email_change: string | null; phone_change: string | null; deleted_at: Date | null }>(
    'select email, phone, email_change, phone_change, deleted_at from auth.users where id = $1 for update',
    [userId],
  );
  const user = found.rows[0];
  if (!user || user.deleted_at) return;
  await tx.query(
    `update auth.users set email = $2, phone = $3, email_change = $4, phone_change = $5, encrypted_password = null,
            confirmation_token = '', recovery_token = '', email_change_token_current = '', email_change_token_new = '',
            phone_change_token = '', raw_user_meta_data = '{}'::jsonb, raw_app_meta_data = '{}'::jsonb,
            deleted_at = now(), updated_at = now()
      where id = $1`,
    [
      userId,
      obfuscate(userId, user.email ?? ''),
      obfuscate(userId, user.phone ?? '').slice(0, 15),
      obfuscate(userId, user.email_change ?? ''),
      obfuscate(userId, user.phone_change ?? '').slice(0, 15),
    ],
  );
  await tx.query('delete from auth.one_time_tokens where user_id = $1', [userId]);
  const identities = await tx.query<{ id: string; provider: string; provider_id: string }>(
    'select id, provider, provider_id from auth.identities where user_id = $1',
    [userId],
  );
  for (const identity of identities.rows) {
    await tx.query(`update auth.identities set identity_data = '{}'::jsonb, provider_id = $2, updated_at = now() where id = $1`, [
      identity.id,
      obfuscate(userId, `${identity.provider}:${identity.provider_id}`),
    ]);
  }
  await tx.query('delete from auth.mfa_factors where user_id = $1', [userId]);
  await tx.query('delete from auth.sessions where user_id = $1', [userId]);
}
