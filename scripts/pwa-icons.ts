import { chromium } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, chromiumExecutable } from '../tests/helpers/browser';

/**
 * Renders the installed app's icons (web/public/icons, docs/adr/0200) from the favicon with Chromium, so they are
 * the same drawing: 192 and 512 px as they are, and a 512 px maskable one whose logo sits inside the safe circle
 * (80 %) on the brand blue, since launchers crop it to their own shape. Run `npx tsx scripts/pwa-icons.ts` after
 * changing web/public/favicon.svg.
 */
const svg = await readFile(fileURLToPath(new URL('../web/public/favicon.svg', import.meta.url)), 'utf8');
const out = (name: string) => fileURLToPath(new URL(`../web/public/icons/${name}`, import.meta.url));
const browser = await chromium.launch({ executablePath: chromiumExecutable(() => chromium.executablePath()), args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  const draw = async (size: number, maskable: boolean, file: string) => {
    await page.setViewportSize({ width: size, height: size });
    const logo = maskable ? Math.round(size * 0.8) : size;
    await page.setContent(`<body style="margin:0;display:grid;place-items:center;width:${size}px;height:${size}px;background:${maskable ? '#2563eb' : 'transparent'}">
      <div style="width:${logo}px;height:${logo}px">${svg.replace('<svg ', `<svg width="${logo}" height="${logo}" `)}</div></body>`);
    await page.screenshot({ path: out(file), omitBackground: !maskable });
  };
  await draw(192, false, 'icon-192.png');
  await draw(512, false, 'icon-512.png');
  await draw(512, true, 'maskable-512.png');
} finally {
  await browser.close();
}
