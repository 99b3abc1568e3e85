/**
 * A way back in after a lost authenticator, and the admin reset (docs/adr/0206): recovery codes made by
 * public.mfa_new_recovery_codes (aal2 only, stored hashed), spent through the mfa-recover Edge Function as Deno
 * runs it (it removes the factors with the auth admin API), and public.admin_reset_two_factor (admin at aal2,
 * written to the account security trail). All through supabase-js against the local stack.
 */
import { Secret, TOTP } from 'otpauth';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDenoFunction, type DenoFunction } from '../helpers/deno-function';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { seedUsers } from '../db/support/seed-ids';
import { uniqueEmail } from './auth-helpers';

let stack: StackHandle;
let recover: DenoFunction;
beforeAll(async () => {
  stack = await startStack();
  recover = await startDenoFunction('supabase/functions/mfa-recover/index.ts', {
    SUPABASE_URL: stack.apiUrl,
    SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
  });
}, 300_000);
afterAll(async () => {
  recover?.stop();
  await stack?.stop();
});

const code = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate();

async function signedIn(email: string, password: string): Promise<SupabaseClient> {
  const client = createTestClient(stack);
  const { error } = await client.auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  return client;
}

async function userWithFactor(prefix: string) {
  const email = uniqueEmail(prefix);
  const password = 'recovery-password-1';
  const { data } = await createTestClient(stack, 'service').auth.admin.createUser({ email, password, email_confirm: true });
  const client = await signedIn(email, password);
  const { data: factor } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
  const { error } = await client.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: code(factor!.totp.secret) });
  expect(error).toBeNull();
  return { id: data.user!.id, email, password, client, secret: factor!.totp.secret };
}

async function recoverWith(client: SupabaseClient, recoveryCode: unknown) {
  const { data } = await client.auth.getSession();
  const response = await fetch(recover.url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${data.session!.access_token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ code: recoveryCode }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('recovery codes', () => {
  it('are made at aal2 only, ten at a time, and stored hashed out of every API role’s reach', async () => {
    const user = await userWithFactor('recovery-make');
    const { data: codes, error } = await user.client.rpc('mfa_new_recovery_codes');
    expect(error).toBeNull();
    expect(codes).toHaveLength(10);
    for (const one of codes!) expect(one).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(new Set(codes).size).toBe(10);
    expect((await user.client.rpc('mfa_recovery_codes_left')).data).toBe(10);

    const { rows } = await stack.db.query<{ code_hash: string }>('select code_hash from private.mfa_recovery_codes where user_id = $1', [user.id]);
    expect(rows).toHaveLength(10);
    expect(rows.map((row) => row.code_hash)).not.toContain(codes![0]);

    const aal1 = await signedIn(user.email, user.password);
    expect((await aal1.rpc('mfa_new_recovery_codes')).error?.code).toBe('42501');
    expect((await aal1.rpc('mfa_redeem_recovery_code', { _user_id: user.id, _code: codes![0] })).error).not.toBeNull();
  });

  it('one code, sent to mfa-recover from a password-only session, removes the factors; it works once', async () => {
    const user = await userWithFactor('recovery-use');
    const { data: codes } = await user.client.rpc('mfa_new_recovery_codes');
    const lostPhone = await signedIn(user.email, user.password);

    expect((await recoverWith(lostPhone, 'aaaaa-aaaaa')).body).toMatchObject({ error: 'invalid_recovery_code' });
    expect((await recoverWith(lostPhone, 42)).status).toBe(400);
    const noSession = await fetch(recover.url, { method: 'POST', body: JSON.stringify({ code: codes![1] }) });
    expect(noSession.status).toBe(401);

    // Typed in capitals with spaces: still the code.
    const used = await recoverWith(lostPhone, ` ${codes![1]!.toUpperCase()} `);
    expect(used).toEqual({ status: 200, body: { removed: 1 } });
    // The next sign-in asks for no code (supabase-js reads the factors from the fresh session's user).
    const later = await signedIn(user.email, user.password);
    const { data: level } = await later.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
    expect((await recoverWith(lostPhone, codes![2])).status).toBe(400);

    const { rows } = await stack.db.query<{ kind: string }>(
      'select kind from private.account_security_events where user_id = $1 order by id', [user.id]);
    expect(rows.map((row) => row.kind)).toEqual(['mfa.recovery_codes_created', 'mfa.recovery_code_used']);
  });
});

describe('admin reset of two-factor', () => {
  it('needs an admin with a second factor and is written to the trail', async () => {
    const user = await userWithFactor('recovery-admin');
    const owner = await signedIn(seedUsers.owner1.email, seedUsers.owner1.password);
    expect((await owner.rpc('admin_reset_two_factor', { _user_id: user.id })).error?.code).toBe('42501');

    const admin = await signedIn(seedUsers.admin.email, seedUsers.admin.password);
    expect((await admin.rpc('admin_reset_two_factor', { _user_id: user.id })).error?.code).toBe('42501');
    const { data: factor } = await admin.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Admin phone' });
    await admin.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: code(factor!.totp.secret) });

    const { data, error } = await admin.rpc('admin_reset_two_factor', { _user_id: user.id });
    expect(error).toBeNull();
    expect(data).toBe(1);
    const { data: factors } = await createTestClient(stack, 'service').auth.admin.mfa.listFactors({ userId: user.id });
    expect(factors!.factors).toEqual([]);
    const { rows } = await stack.db.query<{ kind: string; actor_id: string }>(
      'select kind, actor_id from private.account_security_events where user_id = $1', [user.id]);
    expect(rows).toEqual([{ kind: 'mfa.reset_by_admin', actor_id: seedUsers.admin.id }]);
    expect(await admin.rpc('admin_reset_two_factor', { _user_id: crypto.randomUUID() }))
      .toMatchObject({ status: 404, error: { code: 'PT404', message: 'no such user' } });
  });

  it('an admin with an authenticator is refused admin work with a password-only token', async () => {
    // The previous test gave the demo admin an authenticator; a password-only session is now stale for admin work.
    const stale = await signedIn(seedUsers.admin.email, seedUsers.admin.password);
    expect((await stale.rpc('admin_without_second_factor')).data).toBe(false);
    expect((await stale.rpc('is_admin', { _user_id: seedUsers.admin.id })).data).toBe(false);
    expect((await stale.rpc('admin_overview')).error?.code).toBe('42501');
    const { data: profiles } = await stale.from('profiles').select('id');
    expect(profiles!.map((row) => row.id)).toEqual([seedUsers.admin.id]);

    // Without an authenticator the password is all there is (and could enrol one): admin work goes on, with a notice.
    const service = createTestClient(stack, 'service');
    const { data: listed } = await service.auth.admin.mfa.listFactors({ userId: seedUsers.admin.id });
    for (const factor of listed!.factors) await service.auth.admin.mfa.deleteFactor({ userId: seedUsers.admin.id, id: factor.id });
    const plain = await signedIn(seedUsers.admin.email, seedUsers.admin.password);
    expect((await plain.rpc('admin_without_second_factor')).data).toBe(true);
    expect((await plain.rpc('admin_overview')).error).toBeNull();
  });
});

describe('sensitive work with an authenticator', () => {
  it('team role changes and plan changes refuse a password-only token once the owner has one', async () => {
    // A cashier of owner1's business (the seed has none besides the owner), written as the invitation would.
    const { data: created } = await createTestClient(stack, 'service').auth.admin.createUser({
      email: uniqueEmail('recovery-cashier'), password: 'cashier-password-1', email_confirm: true,
    });
    const { rows: businesses } = await stack.db.query<{ id: string }>('select id from public.businesses where owner_id = $1 limit 1',
      [seedUsers.owner1.id]);
    const member = { business_id: businesses[0]!.id, user_id: created.user!.id, role: 'cashier' };
    await stack.db.query(`insert into public.business_members (business_id, user_id, role) values ($1, $2, 'cashier')`,
      [member.business_id, member.user_id]);
    // The member keeps the role it has: only who may ask changes.
    const args = { _business_id: member.business_id, _user_id: member.user_id, _role: member.role };
    const owner = await signedIn(seedUsers.owner1.email, seedUsers.owner1.password);
    expect((await owner.rpc('set_member_role', args)).error).toBeNull();

    const { data: factor } = await owner.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Owner phone' });
    await owner.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: code(factor!.totp.secret) });
    expect((await owner.rpc('set_member_role', args)).error).toBeNull();

    const stale = await signedIn(seedUsers.owner1.email, seedUsers.owner1.password);
    expect((await stale.rpc('set_member_role', args)).error?.code).toBe('42501');
    expect((await stale.rpc('remove_member', { _business_id: member.business_id, _user_id: member.user_id })).error?.code).toBe('42501');
    expect((await stale.rpc('choose_plan', { _plan_name: 'Pro' })).error?.code).toBe('42501');
    const { rows: still } = await stack.db.query('select 1 from public.business_members where business_id = $1 and user_id = $2',
      [member.business_id, member.user_id]);
    expect(still).toHaveLength(1);
  });
});

describe('owners can require two-factor sign-in for managers', () => {
  it('a manager without a second factor in the session counts as no member; with one, as before', async () => {
    const owner = await userWithFactor('require-owner');
    const { rows: businesses } = await stack.db.query<{ id: string }>('select id from public.businesses where owner_id = $1', [owner.id]);
    const businessId = businesses[0]?.id;
    // Sign-up makes a business only from the sign-up form's metadata; give this owner one as the trigger would.
    const business = businessId ?? (await stack.db.query<{ id: string }>(
      `insert into public.businesses (name, owner_id) values ('Require Corner', $1) returning id`, [owner.id])).rows[0]!.id;
    if (!businessId) {
      await stack.db.query(`insert into public.business_members (business_id, user_id, role) values ($1, $2, 'owner')
                            on conflict do nothing`, [business, owner.id]);
    }
    const managerEmail = uniqueEmail('require-manager');
    const { data: created } = await createTestClient(stack, 'service').auth.admin.createUser({
      email: managerEmail, password: 'manager-password-1', email_confirm: true,
    });
    await stack.db.query(`insert into public.business_members (business_id, user_id, role) values ($1, $2, 'manager')`,
      [business, created.user!.id]);
    const manager = await signedIn(managerEmail, 'manager-password-1');
    const visible = async (client: SupabaseClient) => (await client.from('businesses').select('id').eq('id', business)).data ?? [];
    expect(await visible(manager)).toHaveLength(1);

    const ownerAal1 = await signedIn(owner.email, owner.password);
    expect((await ownerAal1.rpc('set_managers_need_two_factor', { _business_id: business, _required: true })).error?.code).toBe('42501');
    expect((await manager.rpc('set_managers_need_two_factor', { _business_id: business, _required: true })).error?.code).toBe('42501');
    expect((await owner.client.rpc('set_managers_need_two_factor', { _business_id: business, _required: true })).error).toBeNull();

    expect(await visible(manager)).toHaveLength(0);
    expect((await manager.rpc('business_team', { _business_id: business })).data ?? []).toEqual([]);
    // The owner at aal2 and the manager once verified see the business.
    expect(await visible(owner.client)).toHaveLength(1);
    const { data: factor } = await manager.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Manager phone' });
    await manager.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: code(factor!.totp.secret) });
    expect(await visible(manager)).toHaveLength(1);
  });
});
