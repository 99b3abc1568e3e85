import type { Hono } from 'hono';
import { z } from 'zod';
import type { AuthDeps } from '../auth-deps';
import { AuthError, errors } from '../auth-error';
import { hashPassword, newPasswordField, verifyPassword } from '../passwords';
import { limit, readBody, requireUser } from '../request-helpers';
import { lockUserSessions } from '../sessions';
import { assertMetadataSize, mergeMetadata, type Metadata } from '../metadata';
import { storeNewPassword } from '../password-change';
import { findUserById, userJson } from '../user-store';
import { metadata } from './schemas';

const updateBody = z.object({
  email: z.string().optional(),
  password: newPasswordField.optional(),
  data: metadata.nullish(),
  nonce: z.string().optional(),
});

export function mountLogoutAndUser(app: Hono, deps: AuthDeps): void {
  app.post('/logout', async (c) => {
    const scope = c.req.query('scope') ?? 'global';
    if (!['global', 'local', 'others'].includes(scope)) {
      throw new AuthError(400, 'validation_failed', `Unsupported logout scope "${scope}"`);
    }
    const { userId, sessionId } = await requireUser(c, deps);
    // Deleting auth.sessions rows removes their refresh tokens and, through the schema's trigger,
    // their public.active_sessions rows.
    await deps.db.transaction(async (tx) => {
      await lockUserSessions(tx, userId);
      if (scope === 'global' || !sessionId) {
        await tx.query('delete from auth.sessions where user_id = $1', [userId]);
      } else if (scope === 'local') {
        await tx.query('delete from auth.sessions where id = $1', [sessionId]);
      } else {
        await tx.query('delete from auth.sessions where user_id = $1 and id <> $2', [userId, sessionId]);
      }
    });
    return c.body(null, 204);
  });

  app.get('/user', async (c) => {
    const { userId } = await requireUser(c, deps);
    const user = await findUserById(deps.db, userId);
    if (!user) throw errors.userNotFound();
    return c.json(await userJson(deps.db, user));
  });

  app.put('/user', async (c) => {
    limit(c, deps, 'signupRecover');
    const { userId, sessionId } = await requireUser(c, deps);
    const body = await readBody(c, updateBody);
    const user = await findUserById(deps.db, userId);
    if (!user) throw errors.userNotFound();
    if (body.email !== undefined && body.email.trim().toLowerCase() !== (user.email ?? '')) {
      throw new AuthError(422, 'validation_failed', 'Email changes are not available on the local Storewise stack');
    }
    let passwordHash: string | undefined;
    if (body.password !== undefined) {
      if (body.password.length < deps.config.minimumPasswordLength) throw errors.weakPassword(deps.config.minimumPasswordLength);
      if (await verifyPassword(body.password, user.encrypted_password)) throw errors.samePassword();
      passwordHash = await hashPassword(body.password);
    }
    const data = body.data;
    const updated = await deps.db.transaction(async (tx) => {
      if (data) {
        // The merged result is what goes into every token, so the size limit applies to it.
        const current = await tx.query<{ meta: Metadata | null }>(
          'select raw_user_meta_data as meta from auth.users where id = $1 for no key update',
          [userId],
        );
        const merged = mergeMetadata(current.rows[0]?.meta, data, { nullRemoves: true });
        assertMetadataSize('user_metadata', merged);
        await tx.query('update auth.users set raw_user_meta_data = $2::jsonb, updated_at = now() where id = $1', [
          userId,
          JSON.stringify(merged),
        ]);
      }
      // Other sessions end and pending email links die (GoTrue); this session stays signed in.
      if (passwordHash) await storeNewPassword(tx, userId, passwordHash, sessionId);
      const row = await findUserById(tx, userId);
      if (!row) throw errors.userNotFound();
      return userJson(tx, row);
    });
    return c.json(updated);
  });
}
