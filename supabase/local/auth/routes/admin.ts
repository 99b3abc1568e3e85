import type { Hono } from 'hono';
import { z } from 'zod';
import type { AuthDeps } from '../auth-deps';
import { errors } from '../auth-error';
import { hashPassword, newPasswordField } from '../passwords';
import { readBody, requireServiceRole } from '../request-helpers';
import { banMilliseconds } from '../ban-duration';
import { assertMetadataSize, mergeMetadata } from '../metadata';
import { storeNewPassword } from '../password-change';
import { lockUserSessions } from '../sessions';
import { softDeleteUser } from '../soft-delete';
import { findUserByEmail, findUserById, insertUser, userJson } from '../user-store';
import { emailField, metadata } from './schemas';

const createBody = z.object({
  email: emailField,
  password: newPasswordField.optional(),
  email_confirm: z.boolean().optional(),
  user_metadata: metadata.optional(),
  app_metadata: metadata.optional(),
});
const updateBody = z.object({
  password: newPasswordField.optional(),
  email_confirm: z.boolean().optional(),
  user_metadata: metadata.optional(),
  app_metadata: metadata.optional(),
  ban_duration: z.string().optional(),
});
const uuid = z.uuid();
const deleteBody = z.object({ should_soft_delete: z.boolean().optional() });

/** GoTrue parses page and per_page as unsigned integers: anything else is 400, never a huge OFFSET (a 500). */
function pageParameter(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,7}$/.test(value)) throw errors.validation(`Bad Pagination Parameters: ${JSON.stringify(value.slice(0, 40))} is not a page number`);
  return Math.max(1, Number(value));
}

/** The admin API (service role only) that tests and seeding scripts use through supabase-js. */
export function mountAdmin(app: Hono, deps: AuthDeps): void {
  app.use('/admin/*', async (c, next) => {
    await requireServiceRole(c, deps);
    await next();
  });

  app.post('/admin/users', async (c) => {
    const body = await readBody(c, createBody);
    if (body.user_metadata) assertMetadataSize('user_metadata', body.user_metadata);
    if (body.app_metadata) assertMetadataSize('app_metadata', body.app_metadata);
    if (body.password !== undefined && body.password.length < deps.config.minimumPasswordLength) {
      throw errors.weakPassword(deps.config.minimumPasswordLength);
    }
    const passwordHash = body.password ? await hashPassword(body.password) : null;
    const user = await deps.db.transaction(async (tx) => {
      if (await findUserByEmail(tx, body.email)) throw errors.emailExists();
      const created = await insertUser(tx, {
        email: body.email,
        passwordHash,
        userMetadata: body.user_metadata ?? {},
        ...(body.app_metadata ? { appMetadata: body.app_metadata } : {}),
        confirmed: body.email_confirm === true,
      });
      return userJson(tx, created);
    });
    return c.json(user);
  });

  app.get('/admin/users', async (c) => {
    const page = pageParameter(c.req.query('page'), 1);
    const perPage = Math.min(1000, pageParameter(c.req.query('per_page'), 50));
    const ids = await deps.db.query<{ id: string }>('select id from auth.users order by created_at desc, id limit $1 offset $2', [
      perPage,
      (page - 1) * perPage,
    ]);
    const total = await deps.db.query<{ n: number }>('select count(*)::int as n from auth.users');
    const users = [];
    for (const { id } of ids.rows) {
      const row = await findUserById(deps.db, id);
      if (row) users.push(await userJson(deps.db, row));
    }
    return c.json({ users, aud: 'authenticated' }, 200, { 'x-total-count': String(total.rows[0]?.n ?? 0) });
  });

  app.get('/admin/users/:id', async (c) => {
    const id = uuid.safeParse(c.req.param('id'));
    const row = id.success ? await findUserById(deps.db, id.data) : undefined;
    if (!row) throw errors.userNotFound();
    return c.json(await userJson(deps.db, row));
  });

  app.put('/admin/users/:id', async (c) => {
    const id = uuid.safeParse(c.req.param('id'));
    if (!id.success) throw errors.userNotFound();
    const body = await readBody(c, updateBody);
    // Checked before anything is written: a garbage duration is a 400, not a database error.
    const banFor = body.ban_duration !== undefined && body.ban_duration !== '' ? banMilliseconds(body.ban_duration) : undefined;
    const passwordHash = body.password ? await hashPassword(body.password) : undefined;
    const user = await deps.db.transaction(async (tx) => {
      const existing = await findUserById(tx, id.data);
      if (!existing) throw errors.userNotFound();
      // GoTrue's admin password change ends every session of the user and clears pending links.
      if (passwordHash) await storeNewPassword(tx, id.data, passwordHash, undefined);
      if (body.email_confirm === true) {
        await tx.query('update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1', [id.data]);
      }
      // Merged like GoTrue (a null value removes its key); the merged result is what tokens carry.
      if (body.user_metadata) {
        const merged = mergeMetadata(existing.raw_user_meta_data, body.user_metadata, { nullRemoves: true });
        assertMetadataSize('user_metadata', merged);
        await tx.query('update auth.users set raw_user_meta_data = $2::jsonb where id = $1', [id.data, JSON.stringify(merged)]);
      }
      if (body.app_metadata) {
        const merged = mergeMetadata(existing.raw_app_meta_data, body.app_metadata, { nullRemoves: true });
        assertMetadataSize('app_metadata', merged);
        await tx.query('update auth.users set raw_app_meta_data = $2::jsonb where id = $1', [id.data, JSON.stringify(merged)]);
      }
      if (banFor !== undefined) {
        await tx.query(
          `update auth.users set banned_until = case when $2::float8 is null then null else now() + $2::float8 * interval '1 millisecond' end
            where id = $1`,
          [id.data, banFor],
        );
      }
      await tx.query('update auth.users set updated_at = now() where id = $1', [id.data]);
      const row = await findUserById(tx, id.data);
      if (!row) throw errors.userNotFound();
      return userJson(tx, row);
    });
    return c.json(user);
  });

  app.delete('/admin/users/:id', async (c) => {
    const id = uuid.safeParse(c.req.param('id'));
    if (!id.success) throw errors.userNotFound();
    const body = await readBody(c, deleteBody);
    if (body.should_soft_delete) {
      await deps.db.transaction(async (tx) => {
        if (!(await findUserById(tx, id.data))) throw errors.userNotFound();
        await lockUserSessions(tx, id.data);
        await softDeleteUser(tx, id.data);
      });
      return c.json({});
    }
    const deleted = await deps.db.query('delete from auth.users where id = $1', [id.data]);
    if (deleted.affectedRows === 0) throw errors.userNotFound();
    return c.json({});
  });
}
