import { expect, test, type Page } from '@playwright/test';
import type { AuthDeepLink, SupabaseConfig } from '../../shared/platform/platform';
import { parseAuthDeepLink } from '../../src/main/deep-link';
import type { StorewiseBridge } from '../../src/preload/api-types';
import { e2e } from '../helpers/e2e-env';
import { demo, serviceRoleKey } from './support/users';

/**
 * The desktop renderer (out/renderer, served by the local stack under /desktop/) in real Chromium with
 * the Electron bridge supplied at its boundary: window.storewise is a stand-in for the preload whose
 * session storage records every write, so we can see where supabase-js puts the session.
 */

interface BridgeOptions {
  config: SupabaseConfig;
  persistenceWarning: string | null;
}

/** Runs in the page before any app script (serialized by Playwright: no outside references). */
function installFakeBridge({ config, persistenceWarning }: BridgeOptions) {
  const store = new Map<string, string>();
  const writes: Array<{ op: 'set' | 'remove'; key: string }> = [];
  const opened: string[] = [];
  const listeners = new Set<(link: AuthDeepLink) => void>();
  let warning = persistenceWarning;
  const bridge = {
    session: {
      getItem: async (key: string) => store.get(key) ?? null,
      setItem: async (key: string, value: string) => {
        writes.push({ op: 'set', key });
        store.set(key, value);
      },
      removeItem: async (key: string) => {
        writes.push({ op: 'remove', key });
        store.delete(key);
      },
      persistenceWarning: async () => {
        const once = warning;
        warning = null;
        return once;
      },
    },
    links: {
      openExternal: async (url: string) => {
        opened.push(url);
        return true;
      },
    },
    auth: {
      onDeepLink(listener: (link: AuthDeepLink) => void) {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    },
    app: { version: async () => '0.0.0-e2e', config: async () => ({ ok: true as const, config }) },
    machine: {
      status: async () => ({
        version: '0.0.0-e2e', channel: 'stable' as const, platform: 'win32' as const, arch: 'x64' as const,
        deviceId: '7d2c0b8e-1c6f-4a51-9d44-3f0a12345678', autoUpdate: true, policyProblem: null, locked: [], update: 'Up to date',
      }),
      reportRegister: async () => true,
      changeSettings: async () => ({ ok: true, message: 'Saved.' }),
    },
    printing: {
      printReceipt: async () => ({ ok: true as const, via: 'dialog' as const }),
      printSlip: async () => ({ ok: true as const, via: 'dialog' as const }),
      listPrinters: async () => [],
      getSettings: async () => ({ mode: 'dialog' as const, deviceName: null, network: null, openDrawerOnCash: true, columns: 48 as const }),
      saveSettings: async () => ({ ok: true as const }),
    },
  } satisfies StorewiseBridge; // the stand-in has exactly the preload's shape
  Object.assign(globalThis, {
    storewise: bridge,
    __desktopTest: {
      entries: () => Object.fromEntries(store),
      writes: () => writes,
      opened: () => opened,
      fireDeepLink: (link: AuthDeepLink) => listeners.forEach((listener) => listener(link)),
    },
  });
}

interface DesktopTestHandle {
  entries(): Record<string, string>;
  writes(): Array<{ op: 'set' | 'remove'; key: string }>;
  opened(): string[];
  fireDeepLink(link: AuthDeepLink): void;
}
/** The page's globals as these tests see them (this file is type-checked without DOM types). */
type PageGlobals = typeof globalThis & {
  __desktopTest: DesktopTestHandle;
  localStorage: Record<string, string>;
  sessionStorage: Record<string, string>;
};

/**
 * A fresh confirmed user through GoTrue's admin endpoint over plain HTTP (supabase-js's admin client
 * needs a WebSocket global that Node 20 lacks).
 */
async function createConfirmedUser(page: Page) {
  const email = `desktop-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@e2e.storewise.test`;
  const password = `Pw-${crypto.randomUUID()}`;
  // The gateway wants the project's own key string; the admin route wants a service-role JWT.
  const { anonKey } = await supabaseConfig(page);
  const response = await page.request.post(`${e2e.apiUrl}/auth/v1/admin/users`, {
    headers: { apikey: anonKey, authorization: `Bearer ${await serviceRoleKey()}` },
    data: { email, password, email_confirm: true, user_metadata: { full_name: 'Desktop Owner' } },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return { email, password };
}

async function supabaseConfig(page: Page): Promise<SupabaseConfig> {
  const response = await page.request.get(`${e2e.webUrl}/config.json`);
  expect(response.ok()).toBe(true);
  const config = (await response.json()) as SupabaseConfig;
  return { url: config.url, anonKey: config.anonKey };
}

async function openDesktop(page: Page, route: string, persistenceWarning: string | null = null) {
  await page.addInitScript(installFakeBridge, { config: await supabaseConfig(page), persistenceWarning });
  await page.goto(`${e2e.webUrl}/desktop/#${route}`);
}

// page.evaluate serializes its callback, so each one reaches the page's globals on its own.
const bridgeEntries = (page: Page) => page.evaluate(() => (globalThis as PageGlobals).__desktopTest.entries());
const openedUrls = (page: Page) => page.evaluate(() => (globalThis as PageGlobals).__desktopTest.opened());
const browserStorage = (page: Page) =>
  page.evaluate(() => {
    const page = globalThis as PageGlobals;
    return JSON.stringify({ local: { ...page.localStorage }, session: { ...page.sessionStorage } });
  });

function sessionFrom(entries: Record<string, string>): { access_token: string; refresh_token: string; user: { email: string } } {
  const key = Object.keys(entries).find((name) => name.endsWith('-auth-token'));
  expect(key, `no supabase-js session key among ${Object.keys(entries).join(', ')}`).toBeDefined();
  return JSON.parse(entries[key!]!) as { access_token: string; refresh_token: string; user: { email: string } };
}

test('password sign-in keeps the session in the bridge storage, not in localStorage', async ({ page }) => {
  const user = await createConfirmedUser(page);
  await openDesktop(page, '/auth');
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Welcome back!')).toBeVisible();
  await expect(page).toHaveURL(/\/desktop\/#\/$/);

  const session = sessionFrom(await bridgeEntries(page));
  expect(session.user.email).toBe(user.email);
  expect(session.refresh_token.length).toBeGreaterThan(0);
  const storage = await browserStorage(page);
  expect(storage).not.toContain(session.refresh_token);
  expect(storage).not.toContain(session.access_token);
  expect(storage).not.toMatch(/auth-token/);
});

test('Google sign-in: system browser, stand-in provider, deep link back, code exchanged in the app', async ({ page, context }) => {
  await openDesktop(page, '/auth');
  await page.getByRole('button', { name: 'Continue with Google' }).click();

  // The app asked the bridge to open the provider in the system browser, and kept the PKCE verifier in the bridge.
  await expect.poll(async () => (await openedUrls(page)).length).toBe(1);
  const [authorizeUrl] = await openedUrls(page);
  expect(authorizeUrl).toContain('/auth/v1/authorize?provider=google');
  expect(authorizeUrl).toContain('redirect_to=storewise%3A%2F%2Fauth%2Fcallback');
  expect(authorizeUrl).toContain('code_challenge=');
  expect(Object.keys(await bridgeEntries(page)).some((key) => key.endsWith('-code-verifier'))).toBe(true);

  // "System browser": a second page signs in at the local Google stand-in, which redirects to the deep link.
  const browser = await context.newPage();
  await browser.goto(authorizeUrl!);
  const email = `desktop-google-${Date.now()}@e2e.storewise.test`;
  await browser.getByLabel('Email').fill(email);
  await browser.getByLabel('Name').fill('Desktop Google User');
  const [redirect] = await Promise.all([
    browser.waitForResponse((response) => response.url().includes('/local-provider/google') && response.request().method() === 'POST'),
    browser.getByRole('button', { name: 'Continue' }).click(),
  ]);
  const deepLinkUrl = redirect.headers()['location'] ?? '';
  expect(deepLinkUrl).toMatch(/^storewise:\/\/auth\/callback\?code=/);
  await browser.close();

  // The OS hands the link to the main process; its parser must accept what the provider sent.
  const link = parseAuthDeepLink(deepLinkUrl);
  expect(link?.kind).toBe('oauth-callback');
  await page.evaluate((accepted) => (globalThis as PageGlobals).__desktopTest.fireDeepLink(accepted), link!);

  await expect.poll(async () => Object.keys(await bridgeEntries(page)).some((key) => key.endsWith('-auth-token'))).toBe(true);
  expect(sessionFrom(await bridgeEntries(page)).user.email).toBe(email);
  await expect(page).toHaveURL(/\/desktop\/#\/$/);
  // The one-time verifier is gone once exchanged, and nothing reached the browser's own storage.
  await expect.poll(async () => Object.keys(await bridgeEntries(page)).some((key) => key.endsWith('-code-verifier'))).toBe(false);
  expect(await browserStorage(page)).not.toMatch(/auth-token|access_token|refresh_token/);
});

test('a keychain-less desktop says once that the sign-in will not be remembered', async ({ page }) => {
  await openDesktop(page, '/', 'Storewise cannot reach this computer\u2019s keychain, so your sign-in will not be remembered after you close the app.');
  await expect(page.getByText('Sign-in will not be remembered', { exact: true })).toBeVisible();
  await expect(page.getByText(/your sign-in will not be remembered after you close the app/)).toBeVisible();
});

test('without the bridge the desktop build explains itself instead of falling back to localStorage', async ({ page }) => {
  await page.goto(`${e2e.webUrl}/desktop/#/auth`);
  await expect(page.getByRole('alert')).toHaveText('Storewise desktop must be started from the Storewise app.');
});

test('a store PC reports its version for the signed-in business; the admin sees it (docs/adr/0270)', async ({ page }) => {
  await openDesktop(page, '/auth');
  await page.getByLabel('Email').fill(demo.owner1.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(demo.owner1.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Welcome back!')).toBeVisible();
  // A hash change, not a reload: the stand-in bridge keeps the session in the page's memory.
  await page.evaluate(() => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = '#/dashboard';
  });

  // The admin's view over HTTP: the stand-in bridge's device id, version, channel and system, and nothing else.
  const { anonKey } = await supabaseConfig(page);
  const token = await page.request.post(`${e2e.apiUrl}/auth/v1/token?grant_type=password`, {
    headers: { apikey: anonKey }, data: { email: demo.admin.email, password: demo.admin.password },
  });
  expect(token.ok(), await token.text()).toBe(true);
  const { access_token: adminToken } = (await token.json()) as { access_token: string };
  await expect.poll(async () => {
    const response = await page.request.post(`${e2e.apiUrl}/rest/v1/rpc/admin_desktop_versions`, {
      headers: { apikey: anonKey, authorization: `Bearer ${adminToken}` }, data: { _days: 1, _limit: 200 },
    });
    const rows = (await response.json()) as { device_id: string; app_version: string; channel: string; platform: string }[];
    return rows.find((row) => row.device_id === '7d2c0b8e-1c6f-4a51-9d44-3f0a12345678') ?? null;
  }, { timeout: 45_000 }).toMatchObject({ app_version: '0.0.0-e2e', channel: 'stable', platform: 'win32' });
});
