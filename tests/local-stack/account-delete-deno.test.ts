/**
 * A team member deletes their own login through the delete-account Edge Function as Deno runs it (docs/adr/0208):
 * refused to an owner and to a password-only session of a user with an authenticator; otherwise memberships end,
 * the name becomes "Former staff member", the auth user is soft-deleted (GoTrue's admin API) and rows that name
 * the user keep its id. A deletion cut off after the database step finishes on the next call.
 */
import { Secret, TOTP } from 'otpauth';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDenoFunction, type DenoFunction } from '../helpers/deno-function';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { seedUsers } from '../db/support/seed-ids';
import { uniqueEmail } from './auth-helpers';

let stack: StackHandle;
let deleteAccount: DenoFunction;
let businessId: string;
beforeAll(async () => {
  stack = await startStack();
  deleteAccount = await startDenoFunction('supabase/functions/delete-account/index.ts', {
    SUPABASE_URL: stack.apiUrl,
    SUPABASE_ANON_KEY: stack.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
  });
  const { rows } = await stack.db.query<{ id: string }>('select id from public.businesses where owner_id = $1 limit 1', [seedUsers.owner1.id]);
  businessId = rows[0]!.id;
}, 300_000);
afterAll(async () => {
  deleteAccount?.stop();
  await stack?.stop();
});

const password = 'member-password-1';

async function signedIn(email: string, pw = password): Promise<SupabaseClient> {
  const client = createTestClient(stack);
  const { error } = await client.auth.signInWithPassword({ email, password: pw });
  expect(error).toBeNull();
  return client;
}

/** A cashier of owner1's business (invited: no business of their own) with one line in the trail under their name. */
async function cashier(prefix: string) {
  const email = uniqueEmail(prefix);
  const { data } = await createTestClient(stack, 'service').auth.admin.createUser({
    email, password, email_confirm: true, user_metadata: { full_name: 'Casey Cashier', invited: true },
  });
  const id = data.user!.id;
  await stack.db.query(`insert into public.business_members (business_id, user_id, role) values ($1, $2, 'cashier')`, [businessId, id]);
  await stack.db.query(
    `insert into public.activity (business_id, actor_id, kind, entity_type) values ($1, $2, 'sale.created', 'sale')`,
    [businessId, id],
  );
  return { id, email };
}

async function requestDeletion(client: SupabaseClient | null) {
  const token = client ? (await client.auth.getSession()).data.session!.access_token : null;
  const response = await fetch(deleteAccount.url, {
    method: 'POST',
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('delete-account', () => {
  it('refuses a visitor and an owner who still owns a business', async () => {
    expect((await requestDeletion(null)).status).toBe(401);
    const owner = await signedIn(seedUsers.owner1.email, seedUsers.owner1.password);
    const refused = await requestDeletion(owner);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('transfer it');
  });

  it('refuses a password-only session of a member with an authenticator, then deletes at aal2', async () => {
    const member = await cashier('delete-aal');
    const client = await signedIn(member.email);
    const { data: factor } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    const code = new TOTP({ secret: Secret.fromBase32(factor!.totp.secret) }).generate();
    await client.auth.mfa.challengeAndVerify({ factorId: factor!.id, code });
    const stale = await signedIn(member.email);
    expect((await requestDeletion(stale)).status).toBe(403);
    expect((await requestDeletion(client)).status).toBe(200);
  });

  it('ends memberships, renames the profile, soft-deletes the login and keeps the actor id in the trail', async () => {
    const member = await cashier('delete-member');
    const client = await signedIn(member.email);
    expect(await requestDeletion(client)).toEqual({ status: 200, body: { deleted: true } });

    const { rows: memberships } = await stack.db.query('select 1 from public.business_members where user_id = $1', [member.id]);
    expect(memberships).toHaveLength(0);
    const { rows: profile } = await stack.db.query<{ full_name: string }>('select full_name from public.profiles where id = $1', [member.id]);
    expect(profile).toEqual([{ full_name: 'Former staff member' }]);
    const { rows: trail } = await stack.db.query('select 1 from public.activity where actor_id = $1', [member.id]);
    expect(trail.length).toBeGreaterThanOrEqual(1);
    const { rows: auth } = await stack.db.query<{ deleted: boolean; email: string }>(
      'select deleted_at is not null as deleted, email from auth.users where id = $1', [member.id]);
    expect(auth[0]?.deleted).toBe(true);
    expect(auth[0]?.email).not.toBe(member.email);
    const { rows: events } = await stack.db.query<{ kind: string }>('select kind from private.account_security_events where user_id = $1', [member.id]);
    expect(events.map((row) => row.kind)).toContain('account.deleted');
    const again = await createTestClient(stack).auth.signInWithPassword({ email: member.email, password });
    expect(again.error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('a deletion cut off after the database step is finished by the next call', async () => {
    const member = await cashier('delete-resume');
    const client = await signedIn(member.email);
    // The function died after erasing and before the auth soft delete: the login still works.
    const { error } = await createTestClient(stack, 'service').rpc('erase_member_personal_data', { _user_id: member.id });
    expect(error).toBeNull();
    expect((await requestDeletion(client)).status).toBe(200);
    const { rows } = await stack.db.query<{ deleted: boolean }>('select deleted_at is not null as deleted from auth.users where id = $1', [member.id]);
    expect(rows[0]?.deleted).toBe(true);
    // The auth service refuses the old token at once (its session is gone), as on hosted.
    expect((await client.auth.getUser()).error).not.toBeNull();
  });
});

describe('export_my_personal_data', () => {
  it('gives a member what is held about them, without secrets, and needs aal2 once they have an authenticator', async () => {
    const member = await cashier('export-member');
    const client = await signedIn(member.email);
    const { data, error } = await client.rpc('export_my_personal_data');
    expect(error).toBeNull();
    const exported = data as Record<string, unknown>;
    expect(exported).toMatchObject({ format: 'storewise-personal-data/1', login: { id: member.id, email: member.email } });
    expect(exported.profile).toMatchObject({ full_name: 'Casey Cashier' });
    expect(exported.memberships).toEqual([expect.objectContaining({ role: 'cashier' })]);
    expect((exported.login_activity as unknown[]).length).toBeGreaterThanOrEqual(1);
    // Their own trail entries (the one the helper wrote as them), never another person's.
    expect(exported.own_activity).toEqual([expect.objectContaining({ kind: 'sale.created', entity_type: 'sale' })]);

    const { data: factor } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    await client.auth.mfa.challengeAndVerify({
      factorId: factor!.id,
      code: new TOTP({ secret: Secret.fromBase32(factor!.totp.secret) }).generate(),
    });
    const { data: withFactor } = await client.rpc('export_my_personal_data');
    expect(JSON.stringify(withFactor)).not.toContain(factor!.totp.secret);
    expect((withFactor as { authenticators: unknown[] }).authenticators).toEqual([expect.objectContaining({ name: 'Phone', status: 'verified' })]);
    const stale = await signedIn(member.email);
    expect((await stale.rpc('export_my_personal_data')).error?.code).toBe('42501');
    expect((await createTestClient(stack).rpc('export_my_personal_data')).error).not.toBeNull();
  });
});
