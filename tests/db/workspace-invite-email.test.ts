/*
 * Issue 11: creating an invitation emails the invitee through the auth service (POST /auth/v1/otp, as
 * supabase-js signInWithOtp sends it; docs/adr/0105). The link in the local inbox signs the invitee in and
 * lands on the accept page with the invitation token, where accepting joins the business.
 * Issue 25 (docs/adr/0210): the email says who invites, to which business and role, with the business in the
 * subject, from the database's facts; the hosted send-email hook (send-email/auth-hook.ts) writes the same
 * email, checked here under Node against this stack's data API with a fake email provider.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sendInvitationEmail } from '../../shared/features/workspace/invitation-email';
import { invitationLink } from '../../shared/features/workspace/invitation-link';
import { createAuthEmailHook } from '../../supabase/functions/send-email/auth-hook';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';

const site = 'http://127.0.0.1:5173';
const password = 'Owner-pass-1234';
let stack: StackHandle;
let owner: SupabaseClient;
let businessId = '';

const listSchema = z.object({
  messages: z.array(z.object({ ID: z.string(), To: z.array(z.object({ Address: z.string() })), Subject: z.string() })),
});
const messageSchema = z.object({ Text: z.string().optional() });

async function mails(to: string): Promise<{ subject: string; link: string; text: string }[]> {
  const { messages } = listSchema.parse(await (await fetch(`${stack.inboxUrl}/api/v1/messages`)).json());
  const mine = messages.filter((m) => m.To.some((r) => r.Address === to));
  return Promise.all(mine.map(async (m) => {
    const { Text } = messageSchema.parse(await (await fetch(`${stack.inboxUrl}/api/v1/message/${m.ID}`)).json());
    return { subject: m.Subject, link: Text?.match(/https?:\/\/\S+\/verify\?\S+/)?.[0] ?? '', text: Text ?? '' };
  }));
}

async function invitation(email: string, role = 'cashier'): Promise<{ invitation_id: string; token: string }> {
  const { data, error } = await owner.rpc('create_invitation', {
    _business_id: businessId, _email: email, _role: role, _all_stores: true, _store_ids: [],
  });
  if (error) throw new Error(error.message);
  const row = (data as { invitation_id: string; token: string }[])[0];
  if (!row) throw new Error('create_invitation returned no row');
  return row;
}

const invite = async (email: string, role = 'cashier') => (await invitation(email, role)).token;

/** Opens the email's link like a browser: the auth server answers 303 to the accept page with a session. */
async function follow(link: string): Promise<{ page: URL; session: URLSearchParams }> {
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(303);
  const page = new URL(response.headers.get('location') ?? '');
  return { page, session: new URLSearchParams(page.hash.slice(1)) };
}

function asUser(accessToken: string): SupabaseClient {
  return createTestClient(stack, 'anon', { global: { headers: { Authorization: `Bearer ${accessToken}` } } });
}

beforeAll(async () => {
  stack = await startStack({ seed: false, siteUrl: site });
  const admin = createTestClient(stack, 'service');
  const created = await admin.auth.admin.createUser({
    email: 'owner@invite.test', password, email_confirm: true, user_metadata: { full_name: 'Olive Owner', business_name: 'Olive Grocers' },
  });
  if (created.error) throw new Error(created.error.message);
  // A paid plan: the Free plan is the owner alone (ADR 0100).
  const plan = await admin.from('user_plans').insert({ user_id: created.data.user.id, plan_name: 'Growth', price: 29.99, status: 'active' });
  if (plan.error) throw new Error(plan.error.message);
  await admin.auth.admin.createUser({ email: 'known@invite.test', password, email_confirm: true, user_metadata: { invited: true } });
  owner = createTestClient(stack);
  const signed = await owner.auth.signInWithPassword({ email: 'owner@invite.test', password });
  if (signed.error) throw new Error(signed.error.message);
  const { data } = await owner.from('businesses').select('id').single();
  businessId = (data as { id: string }).id;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

// The app's mail client (invitationMailClient) with the Node transport of the test helpers.
const endpoint = () => createTestClient(stack, 'anon', { auth: { flowType: 'implicit', persistSession: false } });

describe('invitation email (POST /otp)', () => {
  it('a new person gets an email whose link signs them in on the accept page, and accepting joins the business', async () => {
    const token = await invite('newcomer@invite.test');
    await sendInvitationEmail(endpoint(), 'newcomer@invite.test', invitationLink(site, token));
    await expect.poll(async () => (await mails('newcomer@invite.test')).length).toBe(1);
    const [mail] = await mails('newcomer@invite.test');
    expect(mail?.subject).toBe('Olive Owner invites you to join Olive Grocers on Storewise');
    expect(mail?.text).toContain('Olive Owner invites you to join Olive Grocers on Storewise as a cashier.');
    expect(mail?.text).toContain('you will choose your name and a password');
    expect(new URL(mail?.link ?? '').searchParams.get('type')).toBe('signup');
    const { page, session } = await follow(mail?.link ?? '');
    expect(`${page.origin}${page.pathname}`).toBe(`${site}/dashboard/business/invitations/accept`);
    expect(page.searchParams.get('token')).toBe(token);
    const invitee = asUser(session.get('access_token') ?? '');
    const accepted = await invitee.rpc('accept_invitation', { _token: token });
    expect(accepted.error).toBeNull();
    expect(accepted.data).toBe(businessId);
    // The invited account founded no business of its own: it has exactly the one it joined.
    const { data: businesses } = await invitee.from('businesses').select('id');
    expect(businesses).toEqual([{ id: businessId }]);
  }, 120_000);

  it('an existing account gets a sign-in (magic) link, not a password reset', async () => {
    const token = await invite('known@invite.test', 'manager');
    await sendInvitationEmail(endpoint(), 'known@invite.test', invitationLink(site, token));
    await expect.poll(async () => (await mails('known@invite.test')).length).toBe(1);
    const [mail] = await mails('known@invite.test');
    expect(mail?.subject).toBe('Olive Owner invites you to join Olive Grocers on Storewise');
    expect(mail?.text).toContain('as a manager.');
    expect(new URL(mail?.link ?? '').searchParams.get('type')).toBe('magiclink');
    const { page, session } = await follow(mail?.link ?? '');
    expect(session.get('type')).toBe('magiclink');
    expect(page.searchParams.get('token')).toBe(token);
    const accepted = await asUser(session.get('access_token') ?? '').rpc('accept_invitation', { _token: token });
    expect(accepted.error).toBeNull();
    // A second email to the same address within the send interval is refused, as GoTrue does.
    await expect(sendInvitationEmail(endpoint(), 'known@invite.test', invitationLink(site, token)))
      .rejects.toMatchObject({ status: 429 });
  }, 120_000);

  it('answers like GoTrue: 422 otp_disabled without create_user, 400 for a bad address, a foreign redirect goes to the site', async () => {
    const post = (body: unknown, query = '') => fetch(`${stack.apiUrl}/auth/v1/otp${query}`, {
      method: 'POST', headers: { apikey: stack.anonKey, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    const noCreate = await post({ email: 'nobody@invite.test', create_user: false });
    expect(noCreate.status).toBe(422);
    expect(await noCreate.json()).toMatchObject({ error_code: 'otp_disabled' });
    expect((await post({ email: 'not-an-email' })).status).toBe(400);
    expect((await post({})).status).toBe(400);
    expect((await post({ email: 'elsewhere@invite.test' }, '?redirect_to=https%3A%2F%2Fevil.example%2F')).status).toBe(200);
    await expect.poll(async () => (await mails('elsewhere@invite.test')).length).toBe(1);
    const [mail] = await mails('elsewhere@invite.test');
    expect(new URL(mail?.link ?? '').searchParams.get('redirect_to')).toBe(site);
  }, 120_000);
});

describe('invitation email facts', () => {
  it('a revoked invitation gets the plain confirmation email, not one naming the business', async () => {
    const { invitation_id, token } = await invitation('late@invite.test');
    const revoked = await owner.rpc('revoke_invitation', { _invitation_id: invitation_id });
    expect(revoked.error).toBeNull();
    await sendInvitationEmail(endpoint(), 'late@invite.test', invitationLink(site, token));
    await expect.poll(async () => (await mails('late@invite.test')).length).toBe(1);
    const [mail] = await mails('late@invite.test');
    expect(mail?.subject).toBe('Confirm your Storewise account');
    expect(mail?.text).not.toContain('Olive');
  }, 120_000);

  it('only the service role may read them, and only for the invited address', async () => {
    const token = await invite('facts@invite.test');
    const asOwner = await owner.rpc('invitation_email_facts', { _token: token, _email: 'facts@invite.test' });
    expect(asOwner.error?.code).toBe('42501');
    const service = createTestClient(stack, 'service');
    const right = await service.rpc('invitation_email_facts', { _token: token, _email: 'FACTS@invite.test' });
    expect(right.data).toEqual([expect.objectContaining({ business_name: 'Olive Grocers', role: 'cashier', inviter_name: 'Olive Owner' })]);
    const other = await service.rpc('invitation_email_facts', { _token: token, _email: 'someone@invite.test' });
    expect(other.data).toEqual([]);
  }, 60_000);
});

describe('send-email auth hook (hosted path)', () => {
  const secret = `v1,whsec_${randomBytes(32).toString('base64')}`;
  const providerUrl = 'https://email-provider.test/emails';
  const sent: { to: string[]; subject: string; text: string }[] = [];
  const logs: string[] = [];
  let providerStatus = 200;
  // The email provider is the one fake (a network this machine cannot reach); the data API is the stack's.
  const fetchWithProvider: typeof fetch = async (input, init) => {
    if (String(input) === providerUrl) {
      sent.push(JSON.parse(String(init?.body)) as (typeof sent)[number]);
      return new Response('{"id":"1"}', { status: providerStatus });
    }
    return fetch(input, init);
  };
  const hook = () => createAuthEmailHook({
    supabaseUrl: stack.apiUrl, serviceRoleKey: stack.serviceRoleKey, hookSecret: secret,
    emailApiUrl: providerUrl, emailApiKey: 'test-key', emailFrom: 'Storewise <no-reply@storewise.test>',
  }, { fetch: fetchWithProvider, log: (line) => logs.push(line) });

  /** A delivery as GoTrue signs it (Standard Webhooks), optionally with another key or time. */
  function delivery(payload: unknown, options: { key?: string; timestamp?: number } = {}): Request {
    const body = JSON.stringify(payload);
    const id = `msg_${randomBytes(6).toString('hex')}`;
    const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
    const key = Buffer.from((options.key ?? secret).replace(/^v1,whsec_/, ''), 'base64');
    const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
    return new Request('http://functions.test/send-email/auth-hook', {
      method: 'POST', body,
      headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` },
    });
  }
  const payload = (email: string, type: string, redirectTo: string, extra: Record<string, unknown> = {}) => ({
    user: { id: '00000000-0000-0000-0000-000000000001', email, ...extra },
    email_data: { token: '123456', token_hash: 'hash-abc', redirect_to: redirectTo, email_action_type: type, site_url: site, token_new: '', token_hash_new: '' },
  });

  it('writes the invitation email from the database facts and sends it through the provider', async () => {
    sent.length = 0;
    const token = await invite('hooked@invite.test');
    const answer = await hook()(delivery(payload('hooked@invite.test', 'signup', invitationLink(site, token))));
    expect(answer.status).toBe(200);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.to).toEqual(['hooked@invite.test']);
    expect(sent[0]?.subject).toBe('Olive Owner invites you to join Olive Grocers on Storewise');
    expect(sent[0]?.text).toContain('as a cashier.');
    const link = new URL(/https?:\/\/\S+\/verify\?\S+/.exec(sent[0]?.text ?? '')?.[0] ?? '');
    expect(`${link.origin}${link.pathname}`).toBe(`${stack.apiUrl}/auth/v1/verify`);
    expect(link.searchParams.get('token')).toBe('hash-abc');
    expect(link.searchParams.get('type')).toBe('signup');
    expect(link.searchParams.get('redirect_to')).toBe(invitationLink(site, token));
  }, 60_000);

  it('other emails keep their usual text; an email change goes to both addresses', async () => {
    sent.length = 0;
    expect((await hook()(delivery(payload('a@invite.test', 'recovery', site)))).status).toBe(200);
    expect((await hook()(delivery(payload('a@invite.test', 'magiclink', invitationLink(site, 'f'.repeat(64)))))).status).toBe(200);
    const change = payload('a@invite.test', 'email_change', site, { new_email: 'b@invite.test' });
    change.email_data.token_hash_new = 'hash-current';
    expect((await hook()(delivery(change))).status).toBe(200);
    expect(sent.map((m) => [m.to[0], m.subject])).toEqual([
      ['a@invite.test', 'Reset your Storewise password'],
      ['a@invite.test', 'Your Storewise sign-in link'],
      ['b@invite.test', 'Confirm your new Storewise email address'],
      ['a@invite.test', 'Confirm your new Storewise email address'],
    ]);
    expect(sent[3]?.text).toContain('token=hash-current');
  }, 60_000);

  it('refuses a wrong signature, a stale delivery and an unknown kind, and sends nothing', async () => {
    sent.length = 0;
    const body = payload('a@invite.test', 'recovery', site);
    const wrongKey = `v1,whsec_${randomBytes(32).toString('base64')}`;
    expect((await hook()(delivery(body, { key: wrongKey }))).status).toBe(401);
    expect((await hook()(delivery(body, { timestamp: Math.floor(Date.now() / 1000) - 3600 }))).status).toBe(401);
    const unknown = await hook()(delivery(payload('a@invite.test', 'sms', site)));
    expect(unknown.status).toBe(400);
    expect(sent).toEqual([]);
  });

  it('a provider failure answers 503 (GoTrue retries) and logs no address', async () => {
    providerStatus = 500;
    logs.length = 0;
    try {
      const answer = await hook()(delivery(payload('private@invite.test', 'recovery', site)));
      expect(answer.status).toBe(503);
    } finally {
      providerStatus = 200;
    }
    expect(logs.join('\n')).toContain('recovery failed: email provider answered 500');
    expect(logs.join('\n')).not.toContain('private@invite.test');
  });
});
