/**
 * The embedded stack's Edge Functions (supabase/local/functions): /functions/v1/<name> runs supabase/functions/*
 * under Deno with hosted Supabase's environment and JWT rule. verify_jwt (config.toml, default on) refuses a
 * missing or forged token before the function runs and lets any project key or user token through; a function
 * deployed with verify_jwt = false gets the raw request; an unknown name is a 404. send-email, hosted's outbox
 * deliverer, runs the same way here once its secrets are in the environment.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalStack, type RunningStack } from '../../supabase/local/server';
import { createTestClient } from '../helpers/stack';
import { seedUsers } from '../db/support/seed-ids';

let stack: RunningStack;
let provider: Server;
const sent: { to: string[]; subject: string }[] = [];
const token = 'edge-test-sender-token';

beforeAll(async () => {
  provider = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      sent.push(JSON.parse(raw) as (typeof sent)[number]);
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id":"fake"}');
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  // Function secrets, as `supabase secrets set` would give them on hosted.
  Object.assign(process.env, {
    OUTBOX_SENDER_TOKEN: token, EMAIL_API_KEY: 'provider-key', EMAIL_FROM: 'Storewise <support@storewise.example>',
    EMAIL_API_URL: `http://127.0.0.1:${(provider.address() as AddressInfo).port}/emails`,
  });
  // The stack's own relay would deliver the row first; send-email is the deliverer under test here.
  stack = await startLocalStack({ memory: true, seed: true, apiPort: 0, inboxPort: 0, outboxRelay: false });
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await new Promise<void>((resolve) => (provider ? provider.close(() => resolve()) : resolve()));
});

const url = (name: string) => `${stack.apiUrl}/functions/v1/${name}`;

it('verify_jwt: no token or a forged one is a 401 before the function runs; project keys and user tokens pass', async () => {
  const none = await fetch(url('billing-reconcile'), { method: 'POST', body: '{}' });
  expect(none.status).toBe(401);
  expect(await none.json()).toEqual({ code: 'UNAUTHORIZED_NO_AUTH_HEADER', message: 'Missing authorization header' });
  const forged = await new SignJWT({ role: 'service_role' }).setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode('not-this-stacks-secret-0123456789abcdef'));
  expect((await fetch(url('billing-reconcile'), { method: 'POST', body: '{}', headers: { Authorization: `Bearer ${forged}` } })).status).toBe(401);
  // The anon key passes the gateway; the function itself then wants a signed-in owner.
  const anon = await fetch(url('billing-reconcile'), { method: 'POST', body: '{}', headers: { Authorization: `Bearer ${stack.anonKey}` } });
  expect(anon.status).toBe(401);
  expect(await anon.json()).toEqual({ error: 'Sign in again to manage billing.' });
  const owner = createTestClient(stack);
  await owner.auth.signInWithPassword({ email: seedUsers.owner3.email, password: seedUsers.owner3.password });
  const { data, error } = await owner.functions.invoke('billing-reconcile', { body: {} });
  expect(error).toBeNull();
  expect(data).toEqual({ checkout: null, synced: false });
});

it('an unknown function is a 404; a shared folder is not a function', async () => {
  expect((await fetch(url('nope'), { method: 'POST' })).status).toBe(404);
  expect((await fetch(url('_shared'), { method: 'POST' })).status).toBe(404);
});

it('send-email (verify_jwt = false) runs under the stack with its secrets and delivers the outbox', async () => {
  await stack.db.query('delete from public.email_outbox');
  await stack.db.query(`insert into public.email_outbox (to_email, template, params)
    values ($1, 'ticket_resolved', '{"subject": "Till drawer sticks", "link_path": "/dashboard/support"}')`, [seedUsers.owner1.email]);
  expect((await fetch(url('send-email'), { method: 'POST', headers: { Authorization: 'Bearer nope' } })).status).toBe(401);
  const answer = await fetch(url('send-email'), { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(200);
  expect(await answer.json()).toMatchObject({ sent: 1, failed: 0 });
  expect(sent.map((m) => m.subject)).toEqual(['Your ticket was resolved: Till drawer sticks']);
});
