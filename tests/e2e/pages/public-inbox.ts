import { expect } from '@playwright/test';
import { z } from 'zod';
import { e2e } from '../../helpers/e2e-env';

const listSchema = z.object({
  messages: z.array(z.object({ ID: z.string(), To: z.array(z.object({ Address: z.string() })), Subject: z.string() })),
});
const messageSchema = z.object({ Text: z.string().optional(), HTML: z.string().optional() });

/**
 * The local stack's mail inbox (Mailpit-style API): waits for the newest message to an address whose
 * subject matches, and returns the first link in it that goes to the auth server's verify endpoint.
 */
export async function linkFromEmail(to: string, subject: RegExp): Promise<string> {
  return (await emailFromInbox(to, subject)).link;
}

/** The newest email to an address whose subject matches: its subject, plain text and verify link. */
export async function emailFromInbox(to: string, subject: RegExp): Promise<{ subject: string; text: string; link: string }> {
  let found: { ID: string; Subject: string } | undefined;
  await expect
    .poll(
      async () => {
        const response = await fetch(`${e2e.inboxUrl}/api/v1/messages`);
        const { messages } = listSchema.parse(await response.json());
        found = messages.find((m) => m.To.some((r) => r.Address.toLowerCase() === to.toLowerCase()) && subject.test(m.Subject));
        return found?.ID;
      },
      { message: `email "${subject}" to ${to}`, timeout: 15_000 },
    )
    .toBeTruthy();
  const message = messageSchema.parse(await (await fetch(`${e2e.inboxUrl}/api/v1/message/${found?.ID ?? ''}`)).json());
  const body = `${message.Text ?? ''}\n${message.HTML ?? ''}`.replace(/&amp;/g, '&');
  const link = body.match(/https?:\/\/[^\s"'<>]+\/verify\?[^\s"'<>]+/)?.[0];
  if (!link) throw new Error(`no verify link in the email to ${to}`);
  return { subject: found?.Subject ?? '', text: message.Text ?? '', link };
}
