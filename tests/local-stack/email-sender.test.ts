/**
 * The email settings at send time (issue 30, 20261202101000_email_sender_and_test_email.sql, docs/adr/0281), on a
 * real local stack over HTTP: an admin changes the sender name and reply-to and the next email of every sender
 * shows them, without a restart: the local mailer (the outbox relay's test email and an auth email, read back
 * through the Mailpit-style inbox API), the SMTP relay (the raw headers nodemailer writes) and the hosted
 * send-email Edge Function's logic (the provider's JSON). The test email button: admins only, to their own
 * address, through the real outbox, in the settings trail, at most 5 an hour (429).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxRenderers } from '../../supabase/functions/_shared/outbox-renderers';
import { renderOutboxEmail } from '../../supabase/functions/_shared/outbox-email';
import { createOutboxSender } from '../../supabase/functions/send-email/sender';
import { emailSenderFromDb } from '../../supabase/local/mail/email-sender';
import { createMailer } from '../../supabase/local/mail/mailer';
import { Mailbox } from '../../supabase/local/mail/mailbox';
import { drainOutbox } from '../../supabase/local/mail/outbox-relay';
import { smtpRelay } from '../../supabase/local/mail/smtp-relay';
import { startLocalStack, type RunningStack } from '../../supabase/local/server';
import { seedUsers } from '../db/support/seed-ids';
import { createNodeSupabaseClient } from '../helpers/node-supabase-client';

interface InboxMessage { From: { Name: string; Address: string }; ReplyTo: { Address: string }[]; To: { Address: string }[]; Subject: string; Text: string; HTML: string }

let stack: RunningStack;
let provider: Server;
let providerUrl = '';
const providerBodies: Record<string, unknown>[] = [];
let admin: SupabaseClient;
let owner: SupabaseClient;
const site = 'http://127.0.0.1:5173';

async function signIn(email: string, password: string): Promise<SupabaseClient> {
  const client = createNodeSupabaseClient(stack.apiUrl, stack.anonKey);
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw new Error(`sign-in as ${email} failed: ${error.message}`);
  return client;
}

const setSender = async (name: string, replyTo: string) => {
  const { error } = await admin.rpc('admin_update_platform_settings', { _changes: { email_sender_name: name, email_reply_to: replyTo } });
  if (error) throw new Error(error.message);
};

/** The newest message in the stack's inbox, through its Mailpit-style HTTP API. */
async function latestInbox(): Promise<InboxMessage> {
  const response = await fetch(`${stack.inboxUrl}/api/v1/message/latest`);
  expect(response.status).toBe(200);
  return (await response.json()) as InboxMessage;
}

beforeAll(async () => {
  // The stack's own relay is off: each test drains the outbox through the deliverer it checks.
  stack = await startLocalStack({ memory: true, seed: true, apiPort: 0, inboxPort: 0, outboxRelay: false });
  provider = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      providerBodies.push(JSON.parse(raw) as Record<string, unknown>);
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id":"fake"}');
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/emails`;
  admin = await signIn(seedUsers.admin.email, seedUsers.admin.password);
  owner = await signIn(seedUsers.owner1.email, seedUsers.owner1.password);
}, 300_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (provider ? provider.close(() => resolve()) : resolve()));
  await stack?.stop();
});

describe('the test email button', () => {
  it('is for admins only; sends to the admin\'s own address through the outbox, in the trail, 5 an hour', async () => {
    for (const client of [owner, createNodeSupabaseClient(stack.apiUrl, stack.anonKey)]) {
      const refused = await client.rpc('admin_send_test_email');
      expect(['42501', 'PGRST202']).toContain(refused.error?.code);
    }
    // Nobody but the service role reads the sender through the API.
    expect((await owner.rpc('email_sender')).error).not.toBeNull();

    const sent = await admin.rpc('admin_send_test_email');
    expect(sent.error).toBeNull();
    expect(sent.data).toEqual({ to: seedUsers.admin.email, sender_name: 'Storewise', reply_to: 'support@storewise.app' });
    const rows = (await stack.db.query<{ to_email: string; template: string }>(
      `select to_email, template from public.email_outbox where template = 'test_email'`)).rows;
    expect(rows).toEqual([{ to_email: seedUsers.admin.email, template: 'test_email' }]);
    const trail = (await admin.rpc('admin_platform_setting_changes', {})).data as { subject: string; actor: string; after: unknown }[];
    expect(trail[0]).toMatchObject({ subject: 'test_email', after: { email_sender_name: 'Storewise', email_reply_to: 'support@storewise.app' } });

    for (let i = 2; i <= 5; i += 1) expect((await admin.rpc('admin_send_test_email')).error).toBeNull();
    const sixth = await admin.rpc('admin_send_test_email');
    expect(sixth.status).toBe(429);
    expect(sixth.error?.code).toBe('PT429');
    expect(sixth.error?.message).toMatch(/You sent 5 test emails in the last hour: try again in \d+ minutes/);
    expect(Number((await stack.db.query<{ n: number }>(`select count(*)::int as n from public.email_outbox where template = 'test_email'`)).rows[0]?.n)).toBe(5);
    // Room for the tests below.
    await stack.db.query(`delete from private.platform_setting_changes where subject = 'test_email'`);
    await stack.db.query('delete from public.email_outbox');
  }, 120_000);
});

describe('the sender name and reply-to at send time', () => {
  it('the local mailer: the next test email and the next auth email carry the new name and reply-to', async () => {
    await setSender('Storewise Night Desk', 'night@desk.example');
    expect((await admin.rpc('admin_send_test_email')).error).toBeNull();
    expect(await drainOutbox(stack.db, stack.mailer, site)).toBe(1);
    let mail = await latestInbox();
    expect(mail.Subject).toBe('Storewise test email');
    expect(mail.To).toEqual([{ Name: '', Address: seedUsers.admin.email }]);
    expect(mail.From).toEqual({ Name: 'Storewise Night Desk', Address: 'no-reply@storewise.local' });
    expect(mail.ReplyTo).toEqual([{ Name: '', Address: 'night@desk.example' }]);
    expect(mail.Text).toContain('Sender name: Storewise Night Desk');
    // The shared email page (email-html.ts): title, escaped paragraphs, the settings link, the footer.
    expect(mail.HTML).toContain('<h2>Storewise test email</h2>');
    expect(mail.HTML).toContain('<p>Replies go to: night@desk.example</p>');
    expect(mail.HTML).toMatch(/<p><a href="http[^"]+\/admin\/settings">System Settings<\/a><\/p>/);
    expect(mail.HTML).toContain('<p style="color:#555">Storewise</p>');

    // Changed again: the very next email (an auth email this time, from the auth service) shows it.
    await setSender('Storewise Day Desk', 'day@desk.example');
    const recover = await createNodeSupabaseClient(stack.apiUrl, stack.anonKey).auth.resetPasswordForEmail(seedUsers.owner1.email);
    expect(recover.error).toBeNull();
    mail = await latestInbox();
    expect(mail.To[0]?.Address).toBe(seedUsers.owner1.email);
    expect(mail.From.Name).toBe('Storewise Day Desk');
    expect(mail.ReplyTo).toEqual([{ Name: '', Address: 'day@desk.example' }]);
  }, 120_000);

  it('the SMTP relay writes them into the From and Reply-To headers', async () => {
    const raws: string[] = [];
    const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    const transport = {
      sendMail: async (options: Parameters<typeof stream.sendMail>[0]) => {
        const info = await stream.sendMail(options);
        raws.push((info.message as Buffer).toString());
        return info;
      },
    };
    const mailer = createMailer(new Mailbox(), smtpRelay(transport, 'Storewise <mail@storewise.example>'), () => {}, () => emailSenderFromDb(stack.db));
    const mail = { to: 'someone@shop.example', subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' };

    await setSender('Storewise Billing', 'billing@storewise.example');
    await mailer.send(mail);
    await setSender('Storewise Ops (EU)', 'ops@storewise.example');
    await mailer.send(mail);
    expect(raws).toHaveLength(2);
    expect(raws[0]).toMatch(/^From: Storewise Billing <mail@storewise\.example>$/m);
    expect(raws[0]).toMatch(/^Reply-To: billing@storewise\.example$/m);
    // A name with characters a bare display name may not have is quoted.
    expect(raws[1]).toMatch(/^From: "Storewise Ops \(EU\)" <mail@storewise\.example>$/m);
    expect(raws[1]).toMatch(/^Reply-To: ops@storewise\.example$/m);
  }, 120_000);

  it('the hosted send-email function posts them to the provider (from and reply_to)', async () => {
    const handler = createOutboxSender({
      supabaseUrl: stack.apiUrl, serviceRoleKey: stack.serviceRoleKey, senderToken: 'sender-token', siteUrl: site,
      emailApiUrl: providerUrl, emailApiKey: 'provider-key', emailFrom: 'Storewise <support@storewise.example>', batchSize: 20, leaseSeconds: 120,
    }, { render: (row, siteUrl) => renderOutboxEmail(row, siteUrl, outboxRenderers), fetch });
    const run = async () => (await handler(new Request('http://functions.local/send-email', {
      method: 'POST', headers: { Authorization: 'Bearer sender-token' } }))).json();

    await setSender('Storewise Team', 'team@storewise.example');
    expect((await admin.rpc('admin_send_test_email')).error).toBeNull();
    expect(await run()).toEqual({ claimed: 1, sent: 1, failed: 0 });
    expect(providerBodies.at(-1)).toMatchObject({ from: 'Storewise Team <support@storewise.example>', reply_to: 'team@storewise.example',
      to: [seedUsers.admin.email], subject: 'Storewise test email' });

    await setSender('Storewise', 'hello@storewise.example');
    expect((await admin.rpc('admin_send_test_email')).error).toBeNull();
    expect(await run()).toEqual({ claimed: 1, sent: 1, failed: 0 });
    expect(providerBodies.at(-1)).toMatchObject({ from: 'Storewise <support@storewise.example>', reply_to: 'hello@storewise.example' });
  }, 120_000);
});
