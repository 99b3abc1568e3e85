import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack } from '../../supabase/local/server';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { uniqueEmail } from './auth-helpers';

let stack: StackHandle;
beforeAll(async () => {
  stack = await startStack({ seed: false });
});
afterAll(async () => {
  await stack?.stop();
});

interface Summary {
  ID: string;
  From: { Name: string; Address: string };
  To: { Address: string }[];
  Subject: string;
  Created: string;
}

describe('the local inbox', () => {
  it('lists every email newest first with Mailpit fields, shows each one, and searches by recipient', async () => {
    const first = uniqueEmail('inbox-a');
    const second = uniqueEmail('inbox-b');
    const client = createTestClient(stack);
    await client.auth.signUp({ email: first, password: 'inbox-password' });
    await client.auth.signUp({ email: second, password: 'inbox-password' });

    const list = (await (await fetch(`${stack.inboxUrl}/api/v1/messages`)).json()) as { total: number; messages: Summary[] };
    expect(list.total).toBe(2);
    expect(list.messages.map((m) => m.To[0]?.Address)).toEqual([second, first]);
    expect(list.messages[0]).toMatchObject({ From: { Name: 'Storewise' }, Subject: 'Confirm your Storewise account' });
    expect(Number.isNaN(Date.parse(list.messages[0]!.Created))).toBe(false);

    const detail = (await (await fetch(`${stack.inboxUrl}/api/v1/message/${list.messages[1]!.ID}`)).json()) as {
      To: { Address: string }[];
      Text: string;
      HTML: string;
    };
    expect(detail.To[0]?.Address).toBe(first);
    expect(detail.Text).toContain(`${stack.apiUrl}/auth/v1/verify?token=`);
    expect(detail.HTML).toContain('href="');

    const search = (await (await fetch(`${stack.inboxUrl}/api/v1/search?query=${encodeURIComponent(`to:${first}`)}`)).json()) as {
      messages: Summary[];
    };
    expect(search.messages.map((m) => m.To[0]?.Address)).toEqual([first]);

    expect((await fetch(`${stack.inboxUrl}/api/v1/message/does-not-exist`)).status).toBe(404);
  });

  it('shows a page listing the messages with their links', async () => {
    const response = await fetch(`${stack.inboxUrl}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Storewise local inbox');
    expect(html).toContain('Confirm your Storewise account');
    expect(html).toContain('/auth/v1/verify?token=');
  });
});

describe('the inbox of a data folder', () => {
  it('survives a restart: emails sent just before the stop are still listed after it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'storewise-inbox-'));
    try {
      const ports = { apiPort: 0, inboxPort: 0, seed: false, jwtSecret: 'inbox-restart-secret-0123456789abcdefghijklmnop' };
      const first = await startLocalStack({ dataDir, ...ports });
      const email = uniqueEmail('inbox-restart');
      const { error } = await createTestClient(first).auth.signUp({ email, password: 'inbox-password' });
      expect(error).toBeNull();
      await first.stop();

      const second = await startLocalStack({ dataDir, ...ports });
      try {
        const list = (await (await fetch(`${second.inboxUrl}/api/v1/messages`)).json()) as { messages: Summary[] };
        expect(list.messages.map((m) => m.To[0]?.Address)).toEqual([email]);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
