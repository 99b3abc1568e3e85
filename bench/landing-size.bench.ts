/**
 * The landing page's JavaScript budget (issue 4): the entry chunk, the landing route's chunk and every
 * chunk they import statically, gzip-compressed, must stay at or under 160 KB. That is all the JavaScript
 * the landing needs to render. Also reported, not budgeted: what the entry and the landing load in the
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
    const landingKey = Object.keys(manifest).find((key) => manifest[key]?.src?.endsWith(LANDING_MODULE) || key.endsWith(LANDING_MODULE));
    if (!entryKey || !landingKey) throw new Error(`manifest lacks the entry or ${LANDING_MODULE}`);

    const critical = withStaticImports(manifest, landingKey, withStaticImports(manifest, entryKey));
    // Loaded in the background by the entry and the landing chunk (not by the routes: those load on visit).
    const deferred = new Set<string>();
    for (const key of [entryKey, landingKey, ...critical]) {
      for (const dynamic of manifest[key]?.dynamicImports ?? []) {
        const isRoute = key === entryKey && (manifest[dynamic]?.src ?? dynamic).includes('shared/features/');
        if (!isRoute) withStaticImports(manifest, dynamic, deferred);
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
