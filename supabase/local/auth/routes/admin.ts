import type { Hono } from 'hono';
import { z } from 'zod';
import type { AuthDeps } from '../auth-deps';
import { errors } from '../auth-error';
import { hashPassword, newPasswordField } from '../passwords';
import { readBody, requireServiceRole } from '../request-helpers';
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

/** The admin API (service role only) that tests and seeding scripts use through supabase-js. */
export function mountAdmin(app: Hono, deps: AuthDeps): void {
  app.use('/admin/*', async (c, next) => {
    await requireServiceRole(c, deps);
    await next();
  });

  app.post('/admin/users', async (c) => {
    const body = await readBody(c, createBody);
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
    const page = Math.max(1, Number(c.req.query('page') ?? 1) || 1);
    const perPage = Math.min(1000, Math.max(1, Number(c.req.query('per_page') ?? 50) || 50));
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
    const passwordHash = body.password ? await hashPassword(body.password) : undefined;
    const user = await deps.db.transaction(async (tx) => {
      if (!(await findUserById(tx, id.data))) throw errors.userNotFound();
      if (passwordHash) await tx.query('update auth.users set encrypted_password = $2 where id = $1', [id.data, passwordHash]);
      if (body.email_confirm === true) {
        await tx.query('update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1', [id.data]);
      }
      if (body.user_metadata) {
        await tx.query(`update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || $2::jsonb where id = $1`, [
          id.data,
          JSON.stringify(body.user_metadata),
        ]);
      }
      if (body.app_metadata) {
        await tx.query(`update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}'::jsonb) || $2::jsonb where id = $1`, [
          id.data,
          JSON.stringify(body.app_metadata),
        ]);
      }
      if (body.ban_duration !== undefined) {
        await tx.query(
          `update auth.users set banned_until = case when $2 = 'none' then null else now() + $2::interval end where id = $1`,
          [id.data, body.ban_duration],
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
    const deleted = await deps.db.query('delete from auth.users where id = $1', [id.data]);
    if (deleted.affectedRows === 0) throw errors.userNotFound();
    return c.json({});
  });
}
