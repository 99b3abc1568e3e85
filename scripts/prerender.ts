import react from '@vitejs/plugin-react';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'vite';
import { appShellHtml } from './app-shell-head';
import { pruneStyleTags } from './prerender-css';

/**
 * Prerenders the public routes into real HTML after the browser build (docs/adr/0090). It builds
 * web/entry-server.tsx for Node with Vite, renders each page with React's prerender API and emotion's critical
 * CSS, and writes `<route>/index.html`, `404.html`, `robots.txt` and `sitemap.xml` into the web build. The
 * plain single-page shell is kept as `app.html` for the routes rendered in the browser.
 */

/** What web/entry-server.tsx exports (typed here: the Node project does not compile JSX). */
interface ServerEntry {
  publicPages: readonly { path: string; file: string; title: string; description: string; indexed: boolean; interactive: boolean; staticForVisitors?: boolean }[];
  renderPage: (path: string, withoutScripts: boolean, inert: boolean) => Promise<{ html: string; styleTags: string }>;
  isLightPath: (path: string) => boolean;
  headTags: (page: ServerEntry['publicPages'][number], siteUrl: string) => string;
  normalizeSiteUrl: (value: string | undefined) => string;
  robotsTxt: (siteUrl: string) => string;
  sitemapXml: (siteUrl: string) => string;
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}

/** The screen module of each prerendered route, so its chunk is preloaded instead of found after main.js ran. */
const screenModules: Record<string, string> = {
  '/': '../shared/features/landing/landing-page.tsx',
  '/auth': '../shared/features/auth/auth-page.tsx',
  '/signup': '../shared/features/auth/signup-page.tsx',
  '/forgot-password': '../shared/features/auth/forgot-password-page.tsx',
  '/404': '../shared/features/not-found/not-found-page.tsx',
};
const screenModuleFor = (path: string) => screenModules[path] ?? '../shared/features/legal/legal-page.tsx';

/**
 * A light auth page (docs/adr/0168) boots web/auth-entry.tsx instead of the app: its chunk and the steps it
 * imports (React's DOM renderer, the page) are the page's preloads; what it imports only when asked
 * (supabase-js, the app after signing in) is not.
 */
const lightEntrySteps = ['../node_modules/react-dom/client.js', '../shared/features/auth/auth-schema.ts', '../shared/features/auth/light-shell.tsx'];
/** A step's manifest key: its path, or `_<file name>-<hash>.js` when Vite put it in a chunk shared with others. */
const isStepKey = (step: string, key: string) => key === step || key.startsWith(`_${step.replace(/^.*\//, '').replace(/\.\w+$/, '')}-`);
function lightEntryFiles(manifest: Record<string, ManifestChunk>): string[] {
  const imported = manifest['auth-entry.tsx']?.dynamicImports ?? [];
  const steps = lightEntrySteps.map((step) => imported.find((key) => isStepKey(step, key)));
  if (steps.some((key) => !key)) throw new Error(`The Vite manifest lacks a step of auth-entry.tsx (${lightEntrySteps.join(', ')}) in ${imported.join(', ')}`);
  return [...chunkFiles(manifest, 'auth-entry.tsx'), ...steps.flatMap((key) => chunkFiles(manifest, key!))];
}

/**
 * Prerendered pages without forms: not inert until they hydrate (docs/adr/0160). The auth shells stay inert (a
 * form submitted natively would put the password in the URL); lifting inert from the landing's ~1000 elements
 * cost a full style recalculation, for buttons that do nothing before hydration either way.
 */
const withoutForms = new Set(['/']);

function chunkFiles(manifest: Record<string, ManifestChunk>, key: string, seen = new Set<string>()): string[] {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return [];
  seen.add(key);
  return [chunk.file, ...(chunk.imports ?? []).flatMap((imported) => chunkFiles(manifest, imported, seen))];
}

export interface PrerenderOptions {
  /** The Vite root of the web app (web/). */
  root: string;
  /** The finished browser build. */
  outDir: string;
  siteUrl: string | undefined;
  /** Leave .vite/manifest.json in place (the build asked for it, e.g. bench/landing-size.bench.ts). */
  keepManifest: boolean;
}

export async function prerenderSite({ root, outDir, siteUrl, keepManifest }: PrerenderOptions): Promise<void> {
  // Inside the project's node_modules, so the bundle's bare imports (react, @chakra-ui/react) resolve.
  const serverOut = join(root, '..', 'node_modules', '.cache', `storewise-prerender-${randomUUID()}`);
  try {
    await build({
      configFile: false,
      root,
      envDir: join(root, '..'),
      logLevel: 'warn',
      plugins: [react()],
      build: { ssr: 'entry-server.tsx', outDir: serverOut, emptyOutDir: true, sourcemap: false, copyPublicDir: false },
    });
    const entry = (await import(pathToFileURL(join(serverOut, 'entry-server.js')).href)) as ServerEntry;
    await writePages(entry, outDir, entry.normalizeSiteUrl(siteUrl));
    // The manifest only served the preload links; it is not part of the site.
    if (!keepManifest) await rm(join(outDir, '.vite'), { recursive: true, force: true });
  } finally {
    await rm(serverOut, { recursive: true, force: true });
  }
}

/** web/server-styles-cache.ts's attribute for the component styles tag (the Node project does not compile web/). */
const SERVER_STYLES_ATTRIBUTE = 'data-server-styles';

/**
 * Keeps the server's `<style data-emotion>` tags where they are (docs/adr/0153, 0160). Emotion's browser cache
 * moves every server style tag to the end of <head> when it is created and again when it adopts it, although
 * they are there already: each move removes and re-adds a style sheet, and the browser recalculates the whole
 * page's style. The global tags are marked as placed (`data-s`); the component styles tag (`css <names>`) is
 * renamed, so no emotion cache adopts it, and the page's own cache (web/server-styles-cache.ts) reads the names
 * from it: nothing is moved, nothing inserted twice.
 */
export function adoptInPlace(styleTags: string): string {
  const marked = styleTags
    .replace(/<style data-emotion="css /g, `<style ${SERVER_STYLES_ATTRIBUTE}="css `)
    .replace(/<style data-emotion="/g, '<style data-s="" data-emotion="');
  if (styleTags.includes('<style') && !marked.includes('data-s=""') && !marked.includes(SERVER_STYLES_ATTRIBUTE)) {
    throw new Error('emotion wrote style tags in an unknown form');
  }
  return marked;
}

/**
 * Emotion's global style tags of a page (`css-global <names>`: the layer order, the preflight, global CSS and
 * token variables), complete and marked to be adopted in place. The same for every page, so the app shell
 * (app.html) takes them from the first page rendered (docs/adr/0435).
 */
export function globalStyleTags(styleTags: string): string {
  return adoptInPlace((styleTags.match(/<style data-emotion="css-global [^"]*">[\s\S]*?<\/style>/g) ?? []).join(''));
}

/** The attribute of a landing global style tag whose CSS was pruned: emotion and shared/app/theme.ts ignore it. */
const PRUNED_GLOBAL_ATTRIBUTE = 'data-pruned-global';

/**
 * The page's style tags. Pages that hydrate keep the full global sheet and have emotion adopt it in place; pages
 * without scripts get it pruned to what they use (scripts/prerender-css.ts). A page that is static for visitors
 * (the landing, docs/adr/0167) is pruned too, since a visitor never renders anything else; its global tags are
 * renamed, so a signed-in browser that starts the app there does not take them for the full sheet
 * (shared/app/theme.ts looks for `data-emotion="css-global ..."`) and the app inserts its own.
 */
function pageStyles(page: ServerEntry['publicPages'][number], styleTags: string, html: string): string {
  if (!page.interactive) return pruneStyleTags(styleTags, html);
  if (!page.staticForVisitors) return adoptInPlace(styleTags);
  const pruned = adoptInPlace(pruneStyleTags(styleTags, html)).replace(/<style data-s="" data-emotion="css-global /g, `<style ${PRUNED_GLOBAL_ATTRIBUTE}="css-global `);
  if (pruned.includes('data-emotion="css-global ')) throw new Error('prerender: a global style tag of the landing was not renamed');
  return pruned;
}

async function writePages(entry: ServerEntry, outDir: string, siteUrl: string) {
  const template = await readFile(join(outDir, 'index.html'), 'utf8');
  const manifestPath = join(outDir, '.vite', 'manifest.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const entryFiles = new Set(chunkFiles(manifest, 'index.html'));
  // web/start.tsx evaluates the app in steps, one dynamic import each (docs/adr/0091): their files are
  // preloaded with the page's, so the steps never wait for the network. (Not supabase-js: it loads apart.)
  const appFiles = (manifest['start.tsx']?.dynamicImports ?? []).flatMap((key) => chunkFiles(manifest, key));
  if (appFiles.length === 0) throw new Error('The Vite manifest has no dynamic imports for start.tsx');
  const lightFiles = lightEntryFiles(manifest);
  // What the app needs to show the landing after signing in on a light page: fetched (not run) when the visitor
  // starts on the form (web/auth-entry.tsx), so the hand-over does not wait for the network.
  const appAfterSignIn = [...new Set([...chunkFiles(manifest, 'start.tsx'), ...appFiles, ...chunkFiles(manifest, screenModuleFor('/'))])]
    .filter((file) => !entryFiles.has(file) && !lightFiles.includes(file))
    .map((file) => `/${file}`);

  // The live part of the landing and the legal pages (web/live.ts, docs/adr/0261): the banner, the announcement,
  // the real status and the legal version in force, read after the first paint so a change needs no rebuild.
  const liveScript = (key: string) => {
    const file = manifest[key]?.file;
    if (!file) throw new Error(`The Vite manifest has no ${key} entry`);
    return `<script type="module" crossorigin fetchpriority="low" src="/${file}"></script>`;
  };
  const landingLive = liveScript('live.ts');
  const legalLive = liveScript('live-legal.ts');

  let shellGlobalStyles = '';
  for (const page of entry.publicPages) {
    const inert = !withoutForms.has(page.path);
    const { html, styleTags } = await entry.renderPage(page.path, !page.interactive, inert);
    if (!shellGlobalStyles) shellGlobalStyles = globalStyleTags(styleTags);
    // The page's chunks are preloaded by web/main.tsx once the HTML has painted (docs/adr/0091): requested
    // from the head they would share the slow network with the first paint (and Lighthouse counts every
    // request started before the largest paint into it).
    const light = entry.isLightPath(page.path);
    const preloads = [...new Set(light ? lightFiles : [...appFiles, ...chunkFiles(manifest, screenModuleFor(page.path))])]
      .filter((file) => !entryFiles.has(file))
      .map((file) => `/${file}`);
    // The page is complete without its scripts: fetched at low priority they never compete with the HTML
    // for the first paint (Chrome would fetch module scripts and preloads at high priority).
    // A page without behaviour (the legal pages) is sent without the app's scripts: nothing to hydrate.
    const scripts = page.interactive
      ? template
      : template.replace(/\s*<script type="module"[^>]*><\/script>/, '').replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
    if (!page.interactive && scripts.includes('<script type="module"')) throw new Error('web/index.html: the entry script was not removed');
    const document = scripts
      .replace('<script type="module" crossorigin', '<script type="module" crossorigin fetchpriority="low"')
      .replace(/<link rel="modulepreload" crossorigin href=/g, '<link rel="modulepreload" crossorigin fetchpriority="low" href=')
      .replace(/<title>[^<]*<\/title>\s*/, '')
      .replace(/<meta name="description"[^>]*>\s*/, '')
      // The style tags end <head>, with nothing after them: emotion's browser cache appends the server's
      // component styles tag to <head> when it adopts it, which leaves the last child where it is (docs/adr/0153).
      .replace('</head>', `  ${entry.headTags(page, siteUrl)}\n    ${pageStyles(page, styleTags, html)}</head>`)
      .replace(
        '<div id="root"></div>',
        page.interactive
          ? `<div id="root" data-prerendered="${page.path}"${light ? ` data-light="" data-app="${appAfterSignIn.join(' ')}"` : ''}${inert ? '' : ' data-inert="none"'}${page.staticForVisitors ? ' data-start="signed-in"' : ''} data-preload="${preloads.join(' ')}">${html}</div>`
          : `<div id="root">${html}</div>`,
      );
    const live = page.path === '/' ? landingLive : page.interactive ? '' : legalLive;
    const withLive = live ? document.replace('</body>', `  ${live}\n  </body>`) : document;
    if (document.includes('<div id="root"></div>') || !template.includes('<div id="root"></div>')) {
      throw new Error('web/index.html has no <div id="root"></div> to fill');
    }
    const file = join(outDir, page.file);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, withLive);
  }
  // The shell alone links the web app manifest (docs/adr/0200) and carries Chakra's global styles (docs/adr/0435).
  if (!shellGlobalStyles) throw new Error('prerender: no page wrote Chakra\'s global styles for the app shell');
  await writeFile(join(outDir, 'app.html'), appShellHtml(template, shellGlobalStyles));
  await writeFile(join(outDir, 'robots.txt'), entry.robotsTxt(siteUrl));
  await writeFile(join(outDir, 'sitemap.xml'), entry.sitemapXml(siteUrl));
}

/** The Vite plugin: runs after the browser build of vite.config.ts (not for its own Node build). */
export function prerender({ siteUrl }: { siteUrl: string | undefined }): Plugin {
  let root = '';
  let outDir = '';
  let keepManifest = false;
  return {
    name: 'storewise-prerender',
    apply: 'build',
    config(config) {
      keepManifest = Boolean(config.build?.manifest);
      return { build: { manifest: true } };
    },
    configResolved(config) {
      root = config.root;
      outDir = config.build.outDir;
    },
    async closeBundle() {
      await prerenderSite({ root, outDir, siteUrl, keepManifest });
    },
  };
}
