/**
 * The send-email Edge Function as Deno runs it (supabase/functions/send-email/index.ts, docs/adr/0121): the real
 * entry under the `deno` devDependency, against the local stack's data API with the service role and a fake HTTP
 * email provider. What the Node-side test (email-outbox.test.ts) cannot show: the entry's imports resolve in Deno
 * (the shared renderers with their .ts extensions, zod), its secrets come from the environment, and a request
 * from pg_cron's kick delivers a queued support email and a receipt-template row marks as sent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalStack, type RunningStack } from '../../supabase/local/server';
import { seedUsers } from '../db/support/seed-ids';

let stack: RunningStack;
let provider: Server;
let deno: ChildProcess | undefined;
let functionUrl = '';
const sent: { to: string[]; subject: string; text: string }[] = [];
const token = 'deno-test-sender-token';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as AddressInfo).port;
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  stack = await startLocalStack({ memory: true, seed: true, apiPort: 0, inboxPort: 0, outboxRelay: false });
  provider = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      sent.push(JSON.parse(raw) as (typeof sent)[number]);
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id":"fake"}');
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const port = await freePort();
  functionUrl = `http://127.0.0.1:${port}/`;
  // --node-modules-dir=manual: npm imports (zod) come from this repository's node_modules, not the network
  // (the deployed function resolves them through supabase/functions/send-email/deno.json instead).
  deno = spawn(join('node_modules', '.bin', 'deno'),
    ['run', '--node-modules-dir=manual', '--no-lock', '--allow-net=127.0.0.1', '--allow-env', '--no-prompt', 'supabase/functions/send-email/index.ts'], {
      env: {
        PATH: process.env.PATH ?? '',
        DENO_DIR: join(tmpdir(), 'storewise-deno-cache'),
        DENO_NO_UPDATE_CHECK: '1',
        DENO_SERVE_ADDRESS: `tcp:127.0.0.1:${port}`,
        SUPABASE_URL: stack.apiUrl,
        SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
        OUTBOX_SENDER_TOKEN: token,
        SITE_URL: 'https://app.storewise.example',
        EMAIL_API_URL: `http://127.0.0.1:${(provider.address() as AddressInfo).port}/emails`,
        EMAIL_API_KEY: 'provider-key',
        EMAIL_FROM: 'Storewise <support@storewise.example>',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Listening on')) resolve();
    };
    deno?.stdout?.on('data', onData);
    deno?.stderr?.on('data', onData);
    deno?.once('exit', (code) => reject(new Error(`deno exited with ${code}: ${output}`)));
  });
}, 300_000);

afterAll(async () => {
  deno?.kill();
  await new Promise<void>((resolve) => (provider ? provider.close(() => resolve()) : resolve()));
  await stack?.stop();
});

it('delivers a queued support email and a receipt through the Deno entry, then marks both sent', async () => {
  // Only this test's rows (the demo seed may queue emails of its own).
  await stack.db.query('delete from public.email_outbox');
  await stack.db.query(
    `insert into public.email_outbox (to_email, template, params) values
       ($1, 'ticket_resolved', '{"subject": "Till drawer sticks", "link_path": "/dashboard/support/tickets/t1"}'),
       ('buyer@example.com', 'receipt', $2)`,
    [seedUsers.owner1.email, JSON.stringify({
      receipt_number: 'R-0001', store_name: 'Fresh Corner', currency: 'USD', occurred_local: '2026-11-23 09:00',
      subtotal: 250, discount_total: 0, tax_total: 0, total: 250, change_total: 0,
      lines: [{ description: 'Apples', qty: 1, unit_price: 250, line_total: 250 }], taxes: [],
      tenders: [{ kind: 'card', amount: 250, tendered: 250, change: 0 }],
    })],
  );
  expect((await fetch(functionUrl, { method: 'POST', headers: { Authorization: 'Bearer nope' } })).status).toBe(401);
  const response = await fetch(functionUrl, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ claimed: 2, sent: 2, failed: 0 });
  expect(sent.map((m) => m.subject).sort()).toEqual([
    'Your receipt R-0001 from Fresh Corner',
    'Your ticket was resolved: Till drawer sticks',
  ]);
  expect(sent.find((m) => m.subject.startsWith('Your ticket'))?.text)
    .toContain('https://app.storewise.example/dashboard/support/tickets/t1');
  const { rows } = await stack.db.query<{ waiting: number }>(
    'select count(*)::int as waiting from public.email_outbox where sent_at is null');
  expect(rows[0]?.waiting).toBe(0);
});
