/**
 * DNS rebinding (issue 10, finding 6): a page on attacker.example whose DNS name points at 127.0.0.1 sends
 * `Host: attacker.example`. The API, the inbox (live sign-in links) and the web server (/config.json) must refuse
 * it, and keep answering loopback names and the configured ones.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebApp } from '../../supabase/local/cli/web-server';
import { allowedHostNames, hostName } from '../../supabase/local/gateway/host-check';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { uniqueEmail } from './auth-helpers';
import { requestWithHost } from './forged-host';

let stack: StackHandle;
let web: ServerType;
let webUrl = '';
const webDir = mkdtempSync(join(tmpdir(), 'storewise-host-'));
writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Storewise web</title>');

beforeAll(async () => {
  // The site URL names a back-office PC on the LAN: that name is served too.
  stack = await startStack({ seed: false, siteUrl: 'http://shop-pc.lan:5173' });
  await createTestClient(stack).auth.signUp({ email: uniqueEmail('rebind'), password: 'rebind-password' });
  const app = createWebApp({ apiUrl: stack.apiUrl, anonKey: stack.anonKey, webDir });
  await new Promise<void>((resolve) => {
    web = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => {
      webUrl = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});
afterAll(async () => {
  await new Promise<void>((resolve) => (web ? web.close(() => resolve()) : resolve()));
  await stack?.stop();
  rmSync(webDir, { recursive: true, force: true });
});

const port = (url: string) => new URL(url).port;

describe('a forged Host header is refused on every local server', () => {
  it('the inbox does not hand out its emails to attacker.example', async () => {
    for (const path of ['/api/v1/messages', '/', '/api/v1/message/latest']) {
      const response = await requestWithHost(`${stack.inboxUrl}${path}`, `attacker.example:${port(stack.inboxUrl)}`);
      expect(response.status).toBe(403);
      expect(response.body.toString()).toContain('not allowed');
      expect(response.body.toString()).not.toContain('verify?token=');
    }
    const own = await requestWithHost(`${stack.inboxUrl}/api/v1/message/latest`, `localhost:${port(stack.inboxUrl)}`);
    expect(own.status).toBe(200);
    expect(own.body.toString()).toContain('verify?token=');
    // Nor can a page frame the inbox, and no cache keeps its links.
    const page = await requestWithHost(`${stack.inboxUrl}/`, `127.0.0.1:${port(stack.inboxUrl)}`);
    expect(page.headers['content-security-policy']).toBe("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it('the API refuses it before CORS, auth or data', async () => {
    const headers = { apikey: stack.anonKey };
    for (const path of ['/auth/v1/settings', '/rest/v1/', '/auth/v1/authorize?provider=google']) {
      const response = await requestWithHost(`${stack.apiUrl}${path}`, 'attacker.example', headers);
      expect(response.status).toBe(403);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    }
    const suffix = await requestWithHost(`${stack.apiUrl}/auth/v1/settings`, 'localhost.attacker.example', headers);
    expect(suffix.status).toBe(403);
    for (const host of ['127.0.0.1', `localhost:${port(stack.apiUrl)}`, `[::1]:${port(stack.apiUrl)}`, 'LOCALHOST', 'shop-pc.lan:54321']) {
      expect((await requestWithHost(`${stack.apiUrl}/auth/v1/settings`, host, headers)).status, host).toBe(200);
    }
  });

  it('the web server does not give /config.json or the app to attacker.example', async () => {
    const config = await requestWithHost(`${webUrl}/config.json`, 'attacker.example');
    expect(config.status).toBe(403);
    expect(config.body.toString()).not.toContain(stack.anonKey);
    expect((await requestWithHost(`${webUrl}/`, 'attacker.example')).status).toBe(403);
    const own = await requestWithHost(`${webUrl}/config.json`, `127.0.0.1:${port(webUrl)}`);
    expect(JSON.parse(own.body.toString())).toMatchObject({ anonKey: stack.anonKey });
  });
});

describe('allowed host names', () => {
  it('are loopback, the configured URLs or names and STOREWISE_ALLOWED_HOSTS, never a wildcard bind address', () => {
    const names = allowedHostNames(['http://Shop-PC.lan:5173', 'app://storewise', '0.0.0.0', '192.168.1.20'], ' backoffice.local , ::1,');
    expect([...names].sort()).toEqual(['127.0.0.1', '192.168.1.20', '[::1]', 'backoffice.local', 'localhost', 'shop-pc.lan']);
  });

  it('parse Host values strictly', () => {
    expect(hostName('LocalHost:5173')).toBe('localhost');
    expect(hostName('[::1]:54321')).toBe('[::1]');
    expect(hostName('example.com.')).toBe('example.com');
    for (const bad of ['', 'a b', 'user@localhost', 'localhost:port', 'localhost/x', '[::1']) expect(hostName(bad), bad).toBeUndefined();
  });
});
