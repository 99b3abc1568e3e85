/*
 * Issue 11: creating an invitation emails the invitee through the auth service (POST /auth/v1/otp, as
 * supabase-js signInWithOtp sends it; docs/adr/0105). The link in the local inbox signs the invitee in and
 * lands on the accept page with the invitation token, where accepting joins the business.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sendInvitationEmail } from '../../shared/features/workspace/invitation-email';
import { invitationLink } from '../../shared/features/workspace/invitation-link';
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

async function mails(to: string): Promise<{ subject: string; link: string }[]> {
  const { messages } = listSchema.parse(await (await fetch(`${stack.inboxUrl}/api/v1/messages`)).json());
  const mine = messages.filter((m) => m.To.some((r) => r.Address === to));
  return Promise.all(mine.map(async (m) => {
    const { Text } = messageSchema.parse(await (await fetch(`${stack.inboxUrl}/api/v1/message/${m.ID}`)).json());
    return { subject: m.Subject, link: Text?.match(/https?:\/\/\S+\/verify\?\S+/)?.[0] ?? '' };
  }));
}

async function invite(email: string): Promise<string> {
  const { data, error } = await owner.rpc('create_invitation', {
    _business_id: businessId, _email: email, _role: 'cashier', _all_stores: true, _store_ids: [],
  });
  if (error) throw new Error(error.message);
  return (data as { token: string }[])[0]?.token ?? '';
}

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
    expect(mail?.subject).toBe('Confirm your Storewise account');
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
    const token = await invite('known@invite.test');
    await sendInvitationEmail(endpoint(), 'known@invite.test', invitationLink(site, token));
    await expect.poll(async () => (await mails('known@invite.test')).length).toBe(1);
    const [mail] = await mails('known@invite.test');
    expect(mail?.subject).toBe('Your Storewise sign-in link');
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
