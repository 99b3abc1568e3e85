import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { AuthDeps } from '../auth-deps';
import { errors } from '../auth-error';
import { factorJson, factorsOf, ownedFactor } from '../mfa/factor-store';
import { readBody } from '../request-helpers';
import { findUserById } from '../user-store';

const uuid = z.uuid();
const updateBody = z.object({ friendly_name: z.string().optional() });

async function userIdOf(c: Context, deps: AuthDeps): Promise<string> {
  const id = uuid.safeParse(c.req.param('id'));
  if (!id.success || !(await findUserById(deps.db, id.data))) throw errors.userNotFound();
  return id.data;
}

function factorIdOf(c: Context): string {
  const id = uuid.safeParse(c.req.param('factor_id'));
  if (!id.success) throw errors.mfaFactorIdNotUuid();
  return id.data;
}

/**
 * GoTrue's admin factor routes (supabase-js auth.admin.mfa.*), behind mountAdmin's service-role check.
 * Deleting a factor is how support resets a user's two-factor sign-in (the caller writes the trail).
 */
export function mountAdminFactors(app: Hono, deps: AuthDeps): void {
  app.get('/admin/users/:id/factors', async (c) => {
    const userId = await userIdOf(c, deps);
    return c.json((await factorsOf(deps.db, userId)).map(factorJson));
  });

  app.delete('/admin/users/:id/factors/:factor_id', async (c) => {
    const userId = await userIdOf(c, deps);
    const factorId = factorIdOf(c);
    const factor = await deps.db.transaction(async (tx) => {
      const row = await ownedFactor(tx, userId, factorId, true);
      if (!row) throw errors.mfaFactorNotFound();
      await tx.query('delete from auth.mfa_factors where id = $1', [factorId]);
      return row;
    });
    return c.json(factorJson(factor));
  });

  app.put('/admin/users/:id/factors/:factor_id', async (c) => {
    const userId = await userIdOf(c, deps);
    const factorId = factorIdOf(c);
    const body = await readBody(c, updateBody);
    const factor = await deps.db.transaction(async (tx) => {
      const row = await ownedFactor(tx, userId, factorId, true);
      if (!row) throw errors.mfaFactorNotFound();
      if (body.friendly_name !== undefined) {
        const others = await factorsOf(tx, userId);
        if (others.some((other) => other.id !== factorId && (other.friendly_name ?? '') === body.friendly_name)) {
          throw errors.mfaNameConflict(body.friendly_name);
        }
        await tx.query('update auth.mfa_factors set friendly_name = $2, updated_at = now() where id = $1', [factorId, body.friendly_name]);
      }
      return (await ownedFactor(tx, userId, factorId)) ?? row;
    });
    return c.json(factorJson(factor));
  });
}
