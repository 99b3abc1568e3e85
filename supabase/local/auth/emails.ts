import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/types';
import type { OutgoingMail } from '../mail/mailbox';
import { confirmationEmail, recoveryEmail } from '../mail/templates';
import { invitationMailFor } from './invitation-mail';
import type { AuthDeps } from './auth-deps';
import { errors } from './auth-error';
import { newOtp, PKCE_PREFIX, tokenHash } from './tokens';
import type { UserRow } from './user-store';

export type EmailKind = 'signup' | 'recovery';

export interface PkceRequest {
  codeChallenge: string;
  method: 's256' | 'plain';
}

const tokenTypeOf = { signup: 'confirmation_token', recovery: 'recovery_token' } as const;
const sentColumnOf = { signup: 'confirmation_sent_at', recovery: 'recovery_sent_at' } as const;
const authMethodOf = { signup: 'email/signup', recovery: 'recovery' } as const;

/** GoTrue's max_frequency: at most one email of a kind per address per interval (else 429). */
export function assertCanSend(deps: AuthDeps, user: UserRow, kind: EmailKind): void {
  const sentAt = kind === 'signup' ? user.confirmation_sent_at : user.recovery_sent_at;
  if (!sentAt) return;
  const elapsed = (Date.now() - new Date(sentAt).getTime()) / 1000;
  const wait = Math.ceil(deps.config.emailSendInterval - elapsed);
  if (wait > 0) throw errors.emailSendRateLimited(wait);
}

/**
 * Stores a fresh one-time token for the user (and a PKCE flow state when the client asked for PKCE),
 * and returns the email with the verify link, as Supabase's templates write it. The caller sends it
 * after the transaction commits, so no email points at a token that was rolled back.
 */
export async function prepareAuthEmail(
  deps: AuthDeps,
  tx: Queryable,
  user: UserRow,
  kind: EmailKind,
  redirectTo: string,
  pkce: PkceRequest | undefined,
  magicLink?: (to: string, link: string) => OutgoingMail,
): Promise<OutgoingMail> {
  const email = user.email ?? '';
  const otp = newOtp();
  const hash = tokenHash(email, otp);
  const tokenType = tokenTypeOf[kind];
  await tx.query(`update auth.users set ${tokenType} = $2, ${sentColumnOf[kind]} = now() where id = $1`, [user.id, hash]);
  await tx.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
     values ($1, $2, $3, $4, $5, now() at time zone 'utc', now() at time zone 'utc')
     on conflict (user_id, token_type) do update
       set token_hash = excluded.token_hash, relates_to = excluded.relates_to,
           created_at = excluded.created_at, updated_at = excluded.updated_at`,
    [randomUUID(), user.id, tokenType, hash, email],
  );
  let linkToken = hash;
  if (pkce) {
    await tx.query(
      `delete from auth.flow_state where user_id = $1 and authentication_method = $2`,
      [user.id, authMethodOf[kind]],
    );
    await tx.query(
      `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
         created_at, updated_at, authentication_method)
       values ($1, $2, $3, $4, $5, 'email', now(), now(), $6)`,
      [randomUUID(), user.id, randomUUID(), pkce.method, pkce.codeChallenge, authMethodOf[kind]],
    );
    linkToken = `${PKCE_PREFIX}${hash}`;
  }
  const link = new URL(`${deps.apiUrl()}/auth/v1/verify`);
  link.searchParams.set('token', linkToken);
  // A magic link consumes the recovery token but says type=magiclink, so the app signs in instead of
  // opening the password reset (routes/otp.ts).
  link.searchParams.set('type', magicLink ? 'magiclink' : kind);
  link.searchParams.set('redirect_to', redirectTo);
  // A sign-in or sign-up link that opens an invitation says who invites, to what and as what (as the hosted
  // send-email hook does); anything else, or an invitation no longer pending, gets the usual email.
  if (kind === 'signup' || magicLink) {
    const invitation = await invitationMailFor(tx, email, redirectTo, link.toString());
    if (invitation) return invitation;
  }
  if (magicLink) return magicLink(email, link.toString());
  return kind === 'signup' ? confirmationEmail(email, link.toString()) : recoveryEmail(email, link.toString());
}

export const flowAuthMethod = authMethodOf;
