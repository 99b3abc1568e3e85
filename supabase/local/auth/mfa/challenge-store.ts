import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/types';

export interface ChallengeRow {
  id: string;
  factor_id: string;
  created_at: Date;
  verified_at: Date | null;
  ip: string;
}

/** GoTrue stores the caller's IP with the challenge; verify must come from the same address. */
export async function createChallenge(tx: Queryable, factorId: string, ip: string): Promise<ChallengeRow> {
  const id = randomUUID();
  await tx.query(
    `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address) values ($1, $2, now(), $3::inet)`,
    [id, factorId, ip],
  );
  // clock_timestamp: last_challenged_at is unique in GoTrue's schema, so two challenges in one transaction
  // time (now()) on different factors must not collide.
  await tx.query('update auth.mfa_factors set last_challenged_at = clock_timestamp() where id = $1', [factorId]);
  const row = await challengeOf(tx, factorId, id, false);
  if (!row) throw new Error('challenge insert vanished');
  return row;
}

export async function challengeOf(tx: Queryable, factorId: string, challengeId: string, lock: boolean): Promise<ChallengeRow | undefined> {
  const result = await tx.query<ChallengeRow>(
    `select id, factor_id, created_at, verified_at, host(ip_address) as ip
       from auth.mfa_challenges where id = $1 and factor_id = $2${lock ? ' for update' : ''}`,
    [challengeId, factorId],
  );
  return result.rows[0];
}

export function challengeExpiresAt(challenge: ChallengeRow, expirySeconds: number): number {
  return Math.floor(new Date(challenge.created_at).getTime() / 1000) + expirySeconds;
}

export async function markChallengeVerified(tx: Queryable, challengeId: string): Promise<void> {
  await tx.query('update auth.mfa_challenges set verified_at = now() where id = $1', [challengeId]);
}

export async function deleteChallenge(tx: Queryable, challengeId: string): Promise<void> {
  await tx.query('delete from auth.mfa_challenges where id = $1', [challengeId]);
}

/** The address a challenge is tied to; requests made in-process (no socket) count as the loopback address. */
export function challengeIp(ip: string | null): string {
  return ip ?? '127.0.0.1';
}
