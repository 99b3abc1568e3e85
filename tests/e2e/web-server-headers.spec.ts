import { expect, test, type Page, type Response } from '@playwright/test';
import { pickEncoding } from '../../supabase/local/cli/compression';
import { e2e } from '../helpers/e2e-env';
import { signInThroughUi } from './support/sign-in';

/**
 * The web server's Content-Security-Policy against the real build in Chromium: the public pages, sign-in and
 * the dashboard (which calls the API) run without a single CSP violation, and the answers are compressed.
 */

async function recordViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    // The page's window, typed here without the DOM library.
    const page = globalThis as unknown as {
      addEventListener(type: string, listener: (event: { violatedDirective: string; blockedURI: string }) => void): void;
      reportCspViolation(text: string): void;
    };
    page.addEventListener('securitypolicyviolation', (event) => page.reportCspViolation(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return violations;
}

test('the public pages, sign-in and the dashboard run under the CSP without violations', async ({ page }) => {
  const violations = await recordViolations(page);
  const landing = await page.goto('/');
  const csp = (await landing?.allHeaders())?.['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain(`connect-src 'self' ${e2e.apiUrl}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/privacy-policy');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await signInThroughUi(page, 'owner1@storewise.local', 'storewise-owner');
  await page.goto('/dashboard');
  await expect(page.getByText('owner1@storewise.local').first()).toBeVisible();
  expect(violations).toEqual([]);
});

test('JavaScript comes compressed (brotli where Chromium offers it, gzip on plain http) and immutable, HTML revalidated', async ({ page }) => {
  const scripts: Promise<{ url: string; encoding?: string; expected?: string; cache?: string }>[] = [];
  const onResponse = (response: Response) => {
    if (!/\/assets\/.*\.js$/.test(response.url())) return;
    scripts.push(
      (async () => {
        const headers = await response.allHeaders();
        const size = (await response.body()).byteLength;
        const offered = (await response.request().allHeaders())['accept-encoding'];
        return { url: response.url(), encoding: headers['content-encoding'], expected: size >= 512 ? pickEncoding(offered) : undefined, cache: headers['cache-control'] };
      })(),
    );
  };
  page.on('response', onResponse);
  const landing = await page.goto('/');
  expect((await landing?.allHeaders())?.['cache-control']).toBe('no-cache');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The app's chunks load in steps after the first paint (ADR 0091): wait for them, then stop listening, so no
  // body is read after the test has ended.
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  const seen = await Promise.all(scripts);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.some((script) => script.expected !== undefined)).toBe(true);
  for (const script of seen) {
    expect(script.encoding, script.url).toBe(script.expected);
    expect(script.cache, script.url).toBe('public, max-age=31536000, immutable');
  }
});
