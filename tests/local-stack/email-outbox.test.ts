/**
 * Email outbox delivery (issue 15, docs/adr/0121), on a real local stack with its own relay off:
 * - the local relay keeps a row it cannot render or send (attempt counted, error without the address, backoff)
 *   and sends it once it can; it never deletes an unsent row;
 * - the send-email Edge Function's logic (supabase/functions/send-email/sender.ts) over HTTP: it claims rows
 *   through the data API with the service role, renders them with the shared renderer, posts them to an HTTP
 *   email provider (a fake one here) and marks them sent; a provider failure keeps the row; a wrong caller gets 401;
 * - claim_email_outbox / finish_email_outbox: only the service role may call them (policy matrix over HTTP), and a
 *   leased row is not claimed twice.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderOutboxEmail, supportRenderers } from '../../supabase/functions/_shared/outbox-email';
import { createOutboxSender, type SenderConfig } from '../../supabase/functions/send-email/sender';
import { drainOutbox, outboxEmail } from '../../supabase/local/mail/outbox-relay';
import type { OutgoingMail } from '../../supabase/local/mail/mailbox';
import { startLocalStack, type RunningStack } from '../../supabase/local/server';
import { seedUsers } from '../db/support/seed-ids';
import { createNodeSupabaseClient } from '../helpers/node-supabase-client';

interface OutboxState {
  id: string;
  template: string;
  attempts: number;
  last_error: string | null;
  sent_at: string | null;
  claimed_until: string | null;
  wait_seconds: number;
}

interface ProviderCall {
  headers: IncomingHttpHeaders;
  body: { from: string; to: string[]; subject: string; text: string; html: string };
}

let stack: RunningStack;
let provider: Server;
let providerUrl = '';
const providerCalls: ProviderCall[] = [];
let providerFailures = 0;
let ticketId = '';
const clients = {} as Record<'anon' | 'owner' | 'admin' | 'service', SupabaseClient>;

async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await stack.db.query<T>(sql, params)).rows;
}

async function outbox(): Promise<OutboxState[]> {
  return rows<OutboxState>(
    `select id::text, template, attempts, last_error, sent_at::text, claimed_until::text,
            round(extract(epoch from next_attempt_at - now()))::int as wait_seconds
       from public.email_outbox order by id`,
  );
}

async function queue(template: string, params: Record<string, unknown>, to = seedUsers.owner1.email): Promise<string> {
  const [row] = await rows<{ id: string }>(
    'insert into public.email_outbox (to_email, template, params) values ($1, $2, $3) returning id::text',
    [to, template, JSON.stringify(params)],
  );
  return row?.id ?? '';
}

async function signIn(email: string, password: string): Promise<SupabaseClient> {
  const client = createNodeSupabaseClient(stack.apiUrl, stack.anonKey);
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw new Error(`sign-in as ${email} failed: ${error.message}`);
  return client;
}

const collected: OutgoingMail[] = [];
const workingMailer = { send: async (mail: OutgoingMail) => void collected.push(mail) };
const site = 'http://127.0.0.1:5173';

beforeAll(async () => {
  stack = await startLocalStack({ memory: true, seed: true, apiPort: 0, inboxPort: 0, outboxRelay: false });
  // A template a newer version might write: this version's CHECK would refuse it, so lift it in this database.
  await stack.db.query('alter table public.email_outbox drop constraint email_outbox_template_check');
  provider = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      providerCalls.push({ headers: request.headers, body: JSON.parse(raw) as ProviderCall['body'] });
      if (providerFailures > 0) {
        providerFailures -= 1;
        response.writeHead(500, { 'Content-Type': 'application/json' }).end('{"message":"upstream down"}');
        return;
      }
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id":"fake"}');
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/emails`;
  clients.anon = createNodeSupabaseClient(stack.apiUrl, stack.anonKey);
  clients.service = createNodeSupabaseClient(stack.apiUrl, stack.serviceRoleKey);
  clients.owner = await signIn(seedUsers.owner1.email, seedUsers.owner1.password);
  clients.admin = await signIn(seedUsers.admin.email, seedUsers.admin.password);
  const filed = await clients.owner.from('support_tickets')
    .insert({ user_id: seedUsers.owner1.id, subject: 'Scanner beeps twice', message: 'Every scan beeps twice.', status: 'open', priority: 'medium' })
    .select('id').single();
  if (filed.error) throw new Error(filed.error.message);
  ticketId = (filed.data as { id: string }).id;
}, 300_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (provider ? provider.close(() => resolve()) : resolve()));
  await stack?.stop();
});

beforeEach(async () => {
  await rows('delete from public.email_outbox');
  collected.length = 0;
  providerCalls.length = 0;
  providerFailures = 0;
});

describe('the local relay', () => {
  it('keeps a row whose template it does not know, counts the attempt and backs off', async () => {
    const id = await queue('newsletter', { subject: 'News' });
    expect(await drainOutbox(stack.db, workingMailer, site)).toBe(0);
    let [row] = await outbox();
    expect(row).toMatchObject({ id, attempts: 1, sent_at: null, claimed_until: null });
    expect(row?.last_error).toMatch(/unknown template.*newsletter/);
    expect(row?.wait_seconds).toBeGreaterThanOrEqual(25);
    expect(row?.wait_seconds).toBeLessThanOrEqual(30);

    // Not due yet: another round leaves it alone.
    await drainOutbox(stack.db, workingMailer, site);
    expect((await outbox())[0]?.attempts).toBe(1);

    // Due again: the second failure waits twice as long, and the row is still there.
    await rows('update public.email_outbox set next_attempt_at = now() - interval \'1 second\'');
    await drainOutbox(stack.db, workingMailer, site);
    [row] = await outbox();
    expect(row).toMatchObject({ id, attempts: 2, sent_at: null });
    expect(row?.wait_seconds).toBeGreaterThanOrEqual(55);
    expect(row?.wait_seconds).toBeLessThanOrEqual(60);
    expect(collected).toEqual([]);
  });

  it('keeps a row whose send failed, without the address in the error, and sends it on the retry', async () => {
    const id = await queue('ticket_reply', { subject: 'Printer', excerpt: 'Try again', link_path: '/dashboard/support/tickets/x' });
    const failing = { send: async (mail: OutgoingMail) => { throw new Error(`SMTP 451 for ${mail.to}`); } };
    expect(await drainOutbox(stack.db, failing, site)).toBe(0);
    const [row] = await outbox();
    expect(row).toMatchObject({ id, attempts: 1, sent_at: null });
    expect(row?.last_error).toContain('SMTP 451');
    expect(row?.last_error).not.toContain(seedUsers.owner1.email);

    await rows('update public.email_outbox set next_attempt_at = now()');
    expect(await drainOutbox(stack.db, workingMailer, site)).toBe(1);
    expect(collected.map((m) => m.subject)).toEqual(['Storewise Support replied: Printer']);
    const [after] = await outbox();
    expect(after).toMatchObject({ id, attempts: 2, last_error: null });
    expect(after?.sent_at).not.toBeNull();
    // Sent rows are not sent again.
    await rows('update public.email_outbox set next_attempt_at = now() - interval \'1 minute\'');
    expect(await drainOutbox(stack.db, workingMailer, site)).toBe(0);
  });

  it('renders the support templates with the shared renderer the Edge Function uses', () => {
    const row = { to_email: 'a@example.com', template: 'ticket_resolved', params: { subject: 'S', link_path: '/dashboard/support/tickets/1' } };
    expect(outboxEmail(row, site)).toEqual(renderOutboxEmail(row, site, supportRenderers));
    // A row cannot point the link at another site.
    const hostile = outboxEmail({ ...row, params: { subject: 'S', link_path: '//evil.example/x' } }, site);
    expect(hostile?.text).toContain(`${site}/dashboard/support`);
    expect(hostile?.text).not.toContain('evil.example');
  });
});

describe('claim and finish over HTTP', () => {
  it.each(['anon', 'owner', 'admin'] as const)('%s may not claim or finish outbox rows', async (name) => {
    const id = await queue('ticket_reply', { subject: 'x' });
    const claim = await clients[name].rpc('claim_email_outbox', { _limit: 10 });
    expect(claim.error?.code).toBe('42501');
    const finish = await clients[name].rpc('finish_email_outbox', { _id: Number(id) });
    expect(finish.error?.code).toBe('42501');
    expect(await outbox()).toMatchObject([{ id, attempts: 0, sent_at: null }]);
  });

  it('the service role claims a row once per lease; an expired lease gives it back', async () => {
    const id = await queue('ticket_reply', { subject: 'x' });
    const first = await clients.service.rpc('claim_email_outbox', { _limit: 10, _lease_seconds: 60 });
    expect(first.error).toBeNull();
    expect((first.data as { id: number }[]).map((r) => String(r.id))).toEqual([id]);
    const second = await clients.service.rpc('claim_email_outbox', { _limit: 10 });
    expect(second.data).toEqual([]);
    await rows('update public.email_outbox set claimed_until = now() - interval \'1 second\'');
    const third = await clients.service.rpc('claim_email_outbox', { _limit: 10 });
    expect(third.data).toMatchObject([{ attempts: 2 }]);
    expect((await clients.service.rpc('finish_email_outbox', { _id: Number(id) })).data).toBe(true);
    // Finishing a sent row again changes nothing.
    expect((await clients.service.rpc('finish_email_outbox', { _id: Number(id), _error: 'late' })).data).toBe(false);
    expect((await outbox())[0]?.last_error).toBeNull();
  });
});

describe('the send-email Edge Function', () => {
  const config = (): SenderConfig => ({
    supabaseUrl: stack.apiUrl,
    serviceRoleKey: stack.serviceRoleKey,
    senderToken: 'test-sender-token',
    siteUrl: 'https://app.storewise.example',
    emailApiUrl: providerUrl,
    emailApiKey: 'test-provider-key',
    emailFrom: 'Storewise <support@storewise.example>',
    batchSize: 20,
    leaseSeconds: 120,
  });
  const handler = () =>
    createOutboxSender(config(), { render: (row, siteUrl) => renderOutboxEmail(row, siteUrl, supportRenderers), fetch });
  const call = (token = 'test-sender-token', method = 'POST') =>
    handler()(new Request('http://functions.local/send-email', { method, headers: { Authorization: `Bearer ${token}` } }));

  it('refuses callers without the sender token and other methods', async () => {
    await queue('ticket_reply', { subject: 'x' });
    expect((await call('wrong-token')).status).toBe(401);
    expect((await call(stack.anonKey)).status).toBe(401);
    expect((await call('test-sender-token', 'GET')).status).toBe(405);
    expect(providerCalls).toEqual([]);
    expect((await outbox())[0]?.attempts).toBe(0);
  });

  it('claims an admin reply\'s email, renders it, posts it to the provider and marks it sent', async () => {
    const reply = await clients.admin.rpc('admin_reply', { _ticket_id: ticketId, _body: 'Update the scanner firmware.' });
    expect(reply.error).toBeNull();
    const response = await call();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ claimed: 1, sent: 1, failed: 0 });
    expect(providerCalls).toHaveLength(1);
    const [sent] = providerCalls;
    expect(sent?.headers.authorization).toBe('Bearer test-provider-key');
    expect(sent?.headers['idempotency-key']).toMatch(/^storewise-outbox-\d+$/);
    expect(sent?.body).toMatchObject({
      from: 'Storewise <support@storewise.example>',
      to: [seedUsers.owner1.email],
      subject: 'Storewise Support replied: Scanner beeps twice',
    });
    expect(sent?.body.text).toContain('Update the scanner firmware.');
    expect(sent?.body.text).toContain(`https://app.storewise.example/dashboard/support/tickets/${ticketId}`);
    const [row] = await outbox();
    expect(row).toMatchObject({ attempts: 1, last_error: null, claimed_until: null });
    expect(row?.sent_at).not.toBeNull();
    // A second run finds nothing to send.
    expect(await (await call()).json()).toEqual({ claimed: 0, sent: 0, failed: 0 });
    expect(providerCalls).toHaveLength(1);
  });

  it('keeps the row when the provider fails or the template is unknown, and sends it on the retry', async () => {
    const reply = await queue('ticket_resolved', { subject: 'Till drawer', link_path: '/dashboard/support/tickets/t' });
    const unknown = await queue('newsletter', { subject: 'News' });
    providerFailures = 1;
    expect(await (await call()).json()).toEqual({ claimed: 2, sent: 0, failed: 2 });
    const failed = await outbox();
    expect(failed.find((r) => r.id === reply)).toMatchObject({ attempts: 1, sent_at: null, last_error: 'Error: email provider answered 500' });
    expect(failed.find((r) => r.id === unknown)?.last_error).toMatch(/unknown template/);
    expect(failed.every((r) => r.wait_seconds >= 25)).toBe(true);

    await rows('update public.email_outbox set next_attempt_at = now()');
    expect(await (await call()).json()).toEqual({ claimed: 2, sent: 1, failed: 1 });
    const after = await outbox();
    expect(after.find((r) => r.id === reply)?.sent_at).not.toBeNull();
    expect(after.find((r) => r.id === unknown)).toMatchObject({ attempts: 2, sent_at: null });
    // The retry carried the same idempotency key as the failed try.
    const keys = providerCalls.filter((c) => c.body.subject.includes('Till drawer')).map((c) => c.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
  });

  it('two runs at once never send a row twice', async () => {
    for (let i = 0; i < 12; i += 1) await queue('ticket_reply', { subject: `Parallel ${i}` });
    const results = await Promise.all([call(), call(), call()]);
    const counts = (await Promise.all(results.map((r) => r.json()))) as { sent: number }[];
    expect(counts.reduce((sum, c) => sum + c.sent, 0)).toBe(12);
    const subjects = providerCalls.map((c) => c.body.subject);
    expect(new Set(subjects).size).toBe(12);
    expect(subjects).toHaveLength(12);
  });
});
