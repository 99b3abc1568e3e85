/**
 * The landing page's JavaScript budget (issue 4): the entry chunk, the landing route's chunk and every
 * chunk they import statically, gzip-compressed, must stay at or under 160 KB. That is all the JavaScript
 * the landing needs to render (web/main.tsx, the app it starts after the prerendered page's first paint, the
 * landing route). Also reported, not budgeted: what the entry and the landing load in the
 * background with dynamic imports (supabase-js, the toaster, the trial offer), which the page does not wait
 * for (docs/adr/0044). Builds the web app into a temporary directory with a Vite manifest (or reads an
 * existing build: `-- --dir dist/web` built with `vite build --manifest`), prints the figures per chunk and
 * exits non-zero above budget.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';

const BUDGET_KB = 160;
const LANDING_MODULE = 'shared/features/landing/landing-page.tsx';
/** The app itself (web/start.tsx; manifest keys are relative to web/): web/main.tsx imports it after the prerendered page's first paint (docs/adr/0090), and it imports its parts in steps (0091). */
const APP_MODULE = 'start.tsx';
/** A route's screen module: loaded when its route is visited, so not part of another route's figure. */
const isScreenModule = (src: string) => /shared\/features\/[^/]+\/[^/]+-(page|app)\.tsx$/.test(src);

const manifestSchema = z.record(
  z.string(),
  z.object({
    file: z.string(),
    src: z.string().optional(),
    isEntry: z.boolean().optional(),
    imports: z.array(z.string()).optional(),
    dynamicImports: z.array(z.string()).optional(),
  }),
);
type Manifest = z.infer<typeof manifestSchema>;

async function buildInto(): Promise<{ dir: string; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'storewise-landing-size-'));
  const { build } = await import('vite');
  await build({
    configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
    logLevel: 'warn',
    build: { outDir: dir, emptyOutDir: true, manifest: true, sourcemap: false },
  });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The chunk keys loaded to show a module: itself and its static imports, transitively. */
function withStaticImports(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) withStaticImports(manifest, imported, seen);
  return seen;
}

async function main() {
  const dirArg = process.argv.indexOf('--dir');
  const existing = dirArg > 0 ? process.argv[dirArg + 1] : undefined;
  const { dir, cleanup } = existing ? { dir: existing, cleanup: () => undefined } : await buildInto();
  try {
    const manifest = manifestSchema.parse(JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8')));
    const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
    const keyOf = (module: string) => Object.keys(manifest).find((key) => key === module || key.endsWith(`/${module}`));
    const landingKey = keyOf(LANDING_MODULE);
    const appKey = keyOf(APP_MODULE);
    if (!entryKey || !landingKey || !appKey) throw new Error(`manifest lacks the entry, ${APP_MODULE} or ${LANDING_MODULE}`);

    // The entry, the app it starts (a dynamic import only to let the prerendered HTML paint first: still
    // needed before the landing is interactive), the landing route and all their static imports. start.tsx
    // loads React, the theme and the app with dynamic imports of its own, evaluated one per task
    // (docs/adr/0091): needed all the same, so counted (supabase-js is not among them: it loads apart).
    const critical = withStaticImports(manifest, landingKey, withStaticImports(manifest, appKey, withStaticImports(manifest, entryKey)));
    for (const key of manifest[appKey]?.dynamicImports ?? []) withStaticImports(manifest, key, critical);
    // Loaded in the background by those chunks (not the other routes' screens: those load on visit).
    const deferred = new Set<string>();
    for (const key of critical) {
      for (const dynamic of manifest[key]?.dynamicImports ?? []) {
        if (!isScreenModule(manifest[dynamic]?.src ?? dynamic)) withStaticImports(manifest, dynamic, deferred);
      }
    }
    for (const key of critical) deferred.delete(key);

    const measure = (keys: Set<string>) => {
      let bytes = 0;
      const rows = [...keys].map((key) => {
        const file = manifest[key]!.file;
        const gzip = gzipSync(readFileSync(join(dir, file))).length;
        bytes += gzip;
        return { chunk: file, 'gzip KB': +(gzip / 1024).toFixed(1) };
      });
      return { kb: bytes / 1024, rows: rows.sort((a, b) => b['gzip KB'] - a['gzip KB']) };
    };
    const needed = measure(critical);
    const background = measure(deferred);
    console.log('Needed to render the landing (entry, landing route and their static imports):');
    console.table(needed.rows);
    console.log('Loaded in the background, not awaited by the first paint:');
    console.table(background.rows);
    console.log(`deferred JavaScript: ${background.kb.toFixed(1)} KB gzip (not budgeted)`);
    console.log(`landing route JavaScript: ${needed.kb.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB)`);
    if (needed.kb > BUDGET_KB) {
      console.error(`over budget by ${(needed.kb - BUDGET_KB).toFixed(1)} KB`);
      process.exitCode = 1;
    }
  } finally {
    cleanup();
  }
}

await main();
