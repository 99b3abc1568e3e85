import { existsSync } from 'node:fs';

/**
 * Which Chromium the browser tests drive: Debian's /usr/bin/chromium when present (these machines cannot
 * download Playwright's own), else Playwright's bundled Chromium. Throws one clear line when neither exists.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export function chromiumExecutable(bundledPath: () => string): string | undefined {
  const fromEnv = process.env.STOREWISE_CHROMIUM;
  if (fromEnv) return fromEnv;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  let bundled: string;
  try {
    bundled = bundledPath();
  } catch {
    bundled = '';
  }
  if (bundled && existsSync(bundled)) return undefined; // let Playwright use its own
  throw new Error(
    'No Chromium found: install Debian\'s chromium (apt-get install chromium) or run "npx playwright install chromium".',
  );
}
