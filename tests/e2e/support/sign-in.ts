import type { Page } from '@playwright/test';
import { deriveApiKeys } from '../../../supabase/local/keys/api-keys';
import { e2e } from '../../helpers/e2e-env';
import { createNodeSupabaseClient } from '../../helpers/node-supabase-client';

/** Signs in through the real /auth form and waits for the spec's redirect to /. */
export async function signInThroughUi(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/auth');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByRole('textbox', { name: /^Email/ }).fill(email);
  await form.getByLabel(/^Password/).fill(password);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/**
 * Signs in for tests where signing in is only the setup (the form itself is covered by public-auth and the
 * security specs): the same password grant the form makes, from Node, with the session written into the page's
 * localStorage exactly as the web app's supabase-js would write it. supabase-js writes it here too — a client with
 * the app's URL and anon key (so the same storage key) and an in-memory storage, whose entries are copied over.
 *
 * It ends where signInThroughUi does: on / with the app started and signed in (the header offers the Dashboard).
 * That first load of the app fetches its code with the whole test's time, as the form's page does, rather than
 * inside the caller's first ten-second assertion (a freshly started server answers its first requests slowly).
 * GoTrue records the session with Node's user agent, so tests about the session list keep signInThroughUi.
 */
export async function signInFast(page: Page, email: string, password: string): Promise<void> {
  const written = new Map<string, string>();
  const client = createNodeSupabaseClient(e2e.apiUrl, (await deriveApiKeys(e2e.jwtSecret)).anonKey, {
    auth: {
      persistSession: true,
      storage: {
        getItem: (key) => written.get(key) ?? null,
        setItem: (key, value) => void written.set(key, value),
        removeItem: (key) => void written.delete(key),
      },
    },
  });
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw new Error(`sign-in of ${email} failed: ${error.message}`);
  if (written.size === 0) throw new Error(`sign-in of ${email} stored no session`);
  // localStorage belongs to the origin: open a small static file of the site to write it, before the app starts.
  await page.goto('/robots.txt');
  await page.evaluate((entries) => {
    for (const [key, value] of entries) localStorage.setItem(key, value);
  }, [...written]);
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'Dashboard' }).waitFor();
}
