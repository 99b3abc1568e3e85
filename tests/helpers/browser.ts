import { existsSync } from 'node:fs';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';
const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/**
 * Which Chromium the browser tests drive: Debian's /usr/bin/chromium when present (these machines cannot
 * download Playwright's own), else Playwright's bundled Chromium. Throws one clear line when neither exists.
 */
export function chromiumExecutable(bundledPath: () => string): string | undefined {
  const fromEnv = process.env.STOREWISE_CHROMIUM;
  if (fromEnv) return fromEnv;
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
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

/**
 * The Chromium the end-to-end tests drive: Debian's chromium-headless-shell when installed, else as above. It is the
 * same Chromium (engine, version and security updates) built without the browser's windowing layers, which is what
 * Playwright itself runs headless; a whole e2e run spends about a third less processor time in the browser with it
 * (docs/adr/0380). Benches that stand for a person's browser (first content, the register) keep the full chromium.
 */
export function testChromiumExecutable(bundledPath: () => string): string | undefined {
  if (!process.env.STOREWISE_CHROMIUM && existsSync(DEBIAN_HEADLESS_SHELL)) return DEBIAN_HEADLESS_SHELL;
  return chromiumExecutable(bundledPath);
}
