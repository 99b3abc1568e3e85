/**
 * The catalog page with 50 pictured products loads only thumbnails (issue 27, docs/adr/0320): the local stack
 * serving the built web app (npm run build:web first), 50 products of the demo owner's business each with a
 * full-size JPEG (1600 x 1200, drawn and encoded by Chromium) and its small and medium previews made the way the
 * product page makes them (canvas, fitWithin, WebP), then real Chromium signed in as the owner opens the catalog,
 * searches the 50 and walks both pages. Every response is counted by CDP (Network.loadingFinished's
 * encodedDataLength: bytes on the wire) and classed by bucket. Printed: thumbnail bytes beside what the same
 * pages would have moved with full-size pictures; exits non-zero if any full-size file was requested.
 *
 *   npm run build:web && npm run bench -- storage-catalog
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from '../tests/helpers/browser';
import { createNodeSupabaseClient } from '../tests/helpers/node-supabase-client';
import { THUMBNAIL_SIZES } from '../shared/lib/product-images/thumbnail-size';
import { startSiteStack } from './lib/serve-site';

// The page functions below run in Chromium; this Node project has no DOM types, so they are declared loosely here.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
type HTMLCanvasElement = any;
type HTMLImageElement = any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const PRODUCTS = 50;
const root = fileURLToPath(new URL('..', import.meta.url));
const owner = { email: 'owner1@storewise.local', password: 'storewise-owner' };

// Up to 10 minutes: on a loaded 2-core machine the in-memory stack with the demo seed took over 4 minutes.
const stack = await startSiteStack({ webDir: join(root, 'dist/web'), waitSeconds: 600 });
const browser = await chromium.launch({ executablePath: chromiumExecutable(() => chromium.executablePath()), args: CHROMIUM_ARGS });
try {
  const client = createNodeSupabaseClient(stack.apiUrl, stack.config.anonKey);
  const signedIn = await client.auth.signInWithPassword(owner);
  if (signedIn.error) throw new Error(signedIn.error.message);
  const { data: business } = await client.from('businesses').select('id').eq('owner_id', signedIn.data.user.id).single();
  const businessId = business!.id;

  // The pictures, drawn and encoded by the browser as the product page would.
  const maker = await browser.newPage();
  // tsx compiles the functions below with esbuild's keepNames, which calls a __name helper the page lacks.
  await maker.evaluate('globalThis.__name = (fn) => fn');
  const files = await maker.evaluate(async (sizes) => {
    const canvas = document.createElement('canvas');
    canvas.width = 1600;
    canvas.height = 1200;
    const c = canvas.getContext('2d')!;
    const gradient = c.createLinearGradient(0, 0, 1600, 1200);
    gradient.addColorStop(0, '#d33');
    gradient.addColorStop(1, '#36c');
    c.fillStyle = gradient;
    c.fillRect(0, 0, 1600, 1200);
    for (let i = 0; i < 4000; i += 1) {
      c.fillStyle = `hsl(${i % 360} 70% ${30 + (i % 40)}%)`;
      c.fillRect((i * 7919) % 1600, (i * 104729) % 1200, 6 + (i % 30), 6 + (i % 20));
    }
    const blob = (source: HTMLCanvasElement, type: string, quality: number) =>
      new Promise<Blob>((resolve) => source.toBlob((b: Blob | null) => resolve(b!), type, quality));
    const scaled = (edge: number) => {
      const scale = Math.min(1, edge / 1600);
      const out = document.createElement('canvas');
      out.width = Math.round(1600 * scale);
      out.height = Math.round(1200 * scale);
      const o = out.getContext('2d')!;
      o.imageSmoothingQuality = 'high';
      o.drawImage(canvas, 0, 0, out.width, out.height);
      return out;
    };
    const b64 = async (b: Blob) => {
      const bytes = new Uint8Array(await b.arrayBuffer());
      let text = '';
      for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(text);
    };
    return { full: await b64(await blob(canvas, 'image/jpeg', 0.9)), small: await b64(await blob(scaled(sizes.small), 'image/webp', 0.75)),
      medium: await b64(await blob(scaled(sizes.medium), 'image/webp', 0.82)) };
  }, THUMBNAIL_SIZES);
  await maker.close();
  const full = Buffer.from(files.full, 'base64');
  const small = Buffer.from(files.small, 'base64');
  const medium = Buffer.from(files.medium, 'base64');

  for (let n = 0; n < PRODUCTS; n += 1) {
    const name = `Bench Picture ${String(n).padStart(2, '0')}`;
    const { data: product, error } = await client.from('products').insert({ business_id: businessId, name }).select('id').single();
    if (error) throw new Error(error.message);
    const variant = await client.from('variants').insert({ business_id: businessId, product_id: product.id, sku: `BENCH-PIC-${n}`, price: 999 });
    if (variant.error) throw new Error(variant.error.message);
    const folder = `${businessId}/${product.id}`;
    for (const [bucket, path, bytes, type] of [['product-images', `${folder}/p.jpg`, full, 'image/jpeg'],
      ['product-thumbnails', `${folder}/p.s.webp`, small, 'image/webp'], ['product-thumbnails', `${folder}/p.m.webp`, medium, 'image/webp']] as const) {
      const up = await client.storage.from(bucket).upload(path, new Blob([bytes], { type }), { contentType: type, cacheControl: '31536000' });
      if (up.error) throw new Error(up.error.message);
    }
    const row = await client.from('product_images').insert({ business_id: businessId, product_id: product.id, path: `${folder}/p.jpg`,
      small_path: `${folder}/p.s.webp`, medium_path: `${folder}/p.m.webp`, is_main: true });
    if (row.error) throw new Error(row.error.message);
  }

  const page = await browser.newPage({ baseURL: stack.url });
  await page.addInitScript('globalThis.__name = (fn) => fn');
  await page.goto('/auth');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByRole('textbox', { name: /^Email/ }).fill(owner.email);
  await form.getByLabel(/^Password/).fill(owner.password);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/');

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const urls = new Map<string, string>();
  const bytes = { thumbnails: 0, fullSize: 0, other: 0, thumbnailFiles: 0, fullSizeFiles: 0 };
  cdp.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url));
  cdp.on('Network.loadingFinished', (event) => {
    const url = urls.get(event.requestId) ?? '';
    if (url.includes('/object/public/product-thumbnails/')) {
      bytes.thumbnails += event.encodedDataLength;
      bytes.thumbnailFiles += 1;
    } else if (url.includes('/product-images/')) {
      bytes.fullSize += event.encodedDataLength;
      bytes.fullSizeFiles += 1;
    } else bytes.other += event.encodedDataLength;
  });

  const started = performance.now();
  await page.goto('/dashboard/catalog');
  await page.getByRole('searchbox', { name: 'Search products' }).fill('Bench Picture');
  const thumbs = page.getByTestId('catalog-thumb');
  const loaded = async (count: number) => {
    await page.waitForFunction((n) => ([...document.querySelectorAll('[data-testid=catalog-thumb]')] as HTMLImageElement[])
      .filter((img) => img.complete && img.naturalWidth > 0).length >= n, count, { timeout: 120_000 });
  };
  await thumbs.first().waitFor({ timeout: 120_000 });
  await loaded(25);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('row', { name: /Bench Picture 49/ }).waitFor({ timeout: 60_000 });
  await loaded(25);
  await page.waitForLoadState('networkidle');
  const seconds = (performance.now() - started) / 1000;

  const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
  const wouldBe = PRODUCTS * full.length;
  console.log(`Picture sizes: full-size JPEG ${kb(full.length)}, small preview ${kb(small.length)} (${THUMBNAIL_SIZES.small} px), ` +
    `medium ${kb(medium.length)} (${THUMBNAIL_SIZES.medium} px)`);
  console.log(`Catalog, ${PRODUCTS} pictured products over 2 pages (${seconds.toFixed(1)} s): thumbnails ${bytes.thumbnailFiles} files, ` +
    `${kb(bytes.thumbnails)} on the wire; full-size ${bytes.fullSizeFiles} files, ${kb(bytes.fullSize)}; rest of the page ${kb(bytes.other)}`);
  console.log(`With full-size pictures the same pages would move ${kb(wouldBe)}: ${(wouldBe / Math.max(1, bytes.thumbnails)).toFixed(0)} x the thumbnails`);
  if (bytes.fullSizeFiles > 0 || bytes.thumbnailFiles < PRODUCTS) {
    console.error('FAILED: the catalog must load every thumbnail and no full-size picture');
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  await stack.stop();
}
