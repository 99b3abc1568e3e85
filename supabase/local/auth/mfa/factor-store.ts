import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/types';

/** An auth.mfa_factors row, without the secret (read only where a code is checked). */
export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: 'verified' | 'unverified';
  created_at: Date;
  updated_at: Date;
  last_challenged_at: Date | null;
}

const factorColumns = `id, user_id, friendly_name, factor_type::text as factor_type, status::text as status,
  created_at, updated_at, last_challenged_at`;

/** The factor JSON GoTrue returns (models.Factor: the secret is never serialised). */
export function factorJson(row: FactorRow): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: row.id,
    friendly_name: row.friendly_name || undefined,
    factor_type: row.factor_type,
    status: row.status,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    last_challenged_at: row.last_challenged_at ? new Date(row.last_challenged_at).toISOString() : null,
  };
  return Object.fromEntries(Object.entries(json).filter(([, value]) => value !== undefined));
}

export async function factorsOf(tx: Queryable, userId: string): Promise<FactorRow[]> {
  const result = await tx.query<FactorRow>(
    `select ${factorColumns} from auth.mfa_factors where user_id = $1 order by created_at, id`,
    [userId],
  );
  return result.rows;
}

/** The user's own factor (another user's factor is "not found", as in GoTrue's FindOwnedFactorByID). */
export async function ownedFactor(tx: Queryable, userId: string, factorId: string, lock = false): Promise<FactorRow | undefined> {
  const result = await tx.query<FactorRow>(
    `select ${factorColumns} from auth.mfa_factors where id = $1 and user_id = $2${lock ? ' for update' : ''}`,
    [factorId, userId],
  );
  return result.rows[0];
}

export async function factorSecret(tx: Queryable, factorId: string): Promise<string | null> {
  const result = await tx.query<{ secret: string | null }>('select secret from auth.mfa_factors where id = $1', [factorId]);
  return result.rows[0]?.secret ?? null;
}

/** GoTrue's DeleteExpiredFactors, run on every enroll: unverified factors older than the expiry go. */
export async function deleteExpiredFactors(tx: Queryable, expirySeconds: number): Promise<void> {
  await tx.query(
    `delete from auth.mfa_factors where status = 'unverified' and created_at + $1::int * interval '1 second' < now()`,
    [expirySeconds],
  );
}

export async function insertTotpFactor(tx: Queryable, userId: string, friendlyName: string, secret: string): Promise<FactorRow> {
  const id = randomUUID();
  await tx.query(
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
     values ($1, $2, $3, 'totp', 'unverified', now(), now(), $4)`,
    [id, userId, friendlyName, secret],
  );
  const row = await ownedFactor(tx, userId, id);
  if (!row) throw new Error('factor insert vanished');
  return row;
}

/** The session's assurance level as stored (GoTrue reads it from the session row, not from the token). */
export async function sessionAal(tx: Queryable, sessionId: string): Promise<string | null> {
  const result = await tx.query<{ aal: string | null }>('select aal::text as aal from auth.sessions where id = $1', [sessionId]);
  return result.rows[0]?.aal ?? null;
}

/**
 * GoTrue's DowngradeSessionsToAAL1 after a factor is removed: the sessions it raised lose their totp AMR
 * entry and go back to aal1, so their next refresh carries aal1.
 */
export async function downgradeSessionsOf(tx: Queryable, factorId: string): Promise<void> {
  await tx.query(
    `delete from auth.mfa_amr_claims where authentication_method = 'totp'
       and session_id in (select id from auth.sessions where factor_id = $1)`,
    [factorId],
  );
  await tx.query(`update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now() where factor_id = $1`, [factorId]);
}
