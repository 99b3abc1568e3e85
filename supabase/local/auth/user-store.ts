import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/types';
import { factorJson, factorsOf } from './mfa/factor-store';

/** An auth.users row (the columns the local GoTrue reads). */
export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: Date | null;
  updated_at: Date | null;
  phone: string | null;
  confirmed_at: Date | null;
  banned_until: Date | null;
  is_anonymous: boolean;
  deleted_at: Date | null;
}

interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
  email: string | null;
}

const userColumns = `id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_sent_at, recovery_sent_at,
  last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, phone, confirmed_at, banned_until,
  is_anonymous, deleted_at`;

export const NIL_INSTANCE = '00000000-0000-0000-0000-000000000000';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(tx: Queryable, email: string): Promise<UserRow | undefined> {
  const result = await tx.query<UserRow>(
    `select ${userColumns} from auth.users where lower(email) = $1 and not is_sso_user and deleted_at is null limit 1`,
    [normalizeEmail(email)],
  );
  return result.rows[0];
}

export async function findUserById(tx: Queryable, id: string): Promise<UserRow | undefined> {
  const result = await tx.query<UserRow>(`select ${userColumns} from auth.users where id = $1`, [id]);
  return result.rows[0];
}

export interface NewUser {
  email: string;
  passwordHash: string | null;
  userMetadata: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  confirmed: boolean;
  provider?: string;
  providerId?: string;
  identityData?: Record<string, unknown>;
}

/** Inserts the user and its identity in the caller's transaction (handle_new_user adds the profile). */
export async function insertUser(tx: Queryable, user: NewUser): Promise<UserRow> {
  const id = randomUUID();
  const provider = user.provider ?? 'email';
  const email = normalizeEmail(user.email);
  const appMetadata = { provider, providers: [provider], ...(user.appMetadata ?? {}) };
  await tx.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_super_admin, is_anonymous)
     values ($1, $2, 'authenticated', 'authenticated', $3, $4, case when $5 then now() end, $6, $7, now(), now(), false, false)`,
    [NIL_INSTANCE, id, email, user.passwordHash, user.confirmed, JSON.stringify(appMetadata), JSON.stringify(user.userMetadata)],
  );
  const identityData = user.identityData ?? {
    sub: id,
    email,
    email_verified: user.confirmed,
    phone_verified: false,
  };
  await tx.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1, $2, $3, $4, now(), now(), now())`,
    [user.providerId ?? id, id, JSON.stringify(identityData), provider],
  );
  const created = await findUserById(tx, id);
  if (!created) throw new Error('user insert vanished');
  return created;
}

async function identitiesOf(tx: Queryable, userId: string): Promise<IdentityRow[]> {
  const result = await tx.query<IdentityRow>(
    `select id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at, email
       from auth.identities where user_id = $1 order by created_at`,
    [userId],
  );
  return result.rows;
}

const iso = (value: Date | null | undefined): string | undefined => (value ? new Date(value).toISOString() : undefined);

/** The user JSON GoTrue returns (fields that are unset are left out, like GoTrue's omitempty). */
export async function userJson(tx: Queryable, user: UserRow): Promise<Record<string, unknown>> {
  const identities = await identitiesOf(tx, user.id);
  const factors = await factorsOf(tx, user.id);
  const json: Record<string, unknown> = {
    id: user.id,
    aud: user.aud ?? 'authenticated',
    role: user.role ?? 'authenticated',
    email: user.email ?? '',
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: user.phone ?? '',
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: identities.map((identity) => ({
      identity_id: identity.id,
      id: identity.provider_id,
      user_id: identity.user_id,
      identity_data: identity.identity_data,
      provider: identity.provider,
      last_sign_in_at: iso(identity.last_sign_in_at),
      created_at: iso(identity.created_at),
      updated_at: iso(identity.updated_at),
      email: identity.email ?? undefined,
    })),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    banned_until: iso(user.banned_until),
    is_anonymous: user.is_anonymous,
    // GoTrue's omitempty: only users with factors carry the list (supabase-js listFactors reads it).
    factors: factors.length > 0 ? factors.map(factorJson) : undefined,
  };
  return Object.fromEntries(Object.entries(json).filter(([, value]) => value !== undefined));
}

/** What signup answers for an already confirmed email when confirmations are on: a look-alike user. */
export function obfuscatedUser(email: string, userMetadata: Record<string, unknown>): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: 'authenticated',
    email: normalizeEmail(email),
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: userMetadata,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

export function isBanned(user: UserRow): boolean {
  return Boolean(user.banned_until && new Date(user.banned_until).getTime() > Date.now());
}
