/** Small helpers for the auth protocol suites: the inbox's Mailpit API and following email links. */
import { expect } from 'vitest';

interface MailSummary {
  ID: string;
  To: { Address: string }[];
  Subject: string;
  Created: string;
}

export async function latestMailTo(inboxUrl: string, address: string): Promise<{ Subject: string; Text: string; HTML: string }> {
  const list = (await (await fetch(`${inboxUrl}/api/v1/messages`)).json()) as { messages: MailSummary[] };
  const summary = list.messages.find((message) => message.To.some((to) => to.Address === address));
  if (!summary) throw new Error(`no email to ${address}`);
  const response = await fetch(`${inboxUrl}/api/v1/message/${summary.ID}`);
  expect(response.status).toBe(200);
  return (await response.json()) as { Subject: string; Text: string; HTML: string };
}

export function verifyLinkIn(text: string): string {
  const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(text)?.[0];
  if (!link) throw new Error(`no verify link in: ${text}`);
  return link;
}

/** Follows a link like a browser would, without following the redirect: returns where it points. */
export async function redirectOf(url: string, init?: RequestInit): Promise<{ status: number; location: URL }> {
  const response = await fetch(url, { ...init, redirect: 'manual' });
  const location = response.headers.get('location');
  if (!location) throw new Error(`no redirect from ${url} (status ${response.status}): ${await response.text()}`);
  return { status: response.status, location: new URL(location) };
}

export function fragmentOf(url: URL): URLSearchParams {
  return new URLSearchParams(url.hash.replace(/^#/, ''));
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}@example.com`;
}

/** A storage supabase-js can use for PKCE (code verifier) within one test. */
export function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
}
