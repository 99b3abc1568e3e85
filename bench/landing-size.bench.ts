/**
 * The landing page's JavaScript budget (issue 4): the entry chunk, the landing route's chunk and every
 * chunk they import statically, gzip-compressed, must stay at or under 160 KB. Builds the web app into a
 * temporary directory with a Vite manifest (or reads an existing build: `-- --dir dist/web` built with
 * `vite build --manifest`), prints the figure per chunk and fails above budget.
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
  z.object({ file: z.string(), src: z.string().optional(), isEntry: z.boolean().optional(), imports: z.array(z.string()).optional() }),
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

    const keys = withStaticImports(manifest, landingKey, withStaticImports(manifest, entryKey));
    let totalBytes = 0;
    const rows = [...keys].map((key) => {
      const file = manifest[key]!.file;
      const gzip = gzipSync(readFileSync(join(dir, file))).length;
      totalBytes += gzip;
      return { chunk: file, 'gzip KB': +(gzip / 1024).toFixed(1) };
    });
    console.table(rows.sort((a, b) => b['gzip KB'] - a['gzip KB']));
    const totalKb = totalBytes / 1024;
    console.log(`landing route JavaScript: ${totalKb.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB)`);
    if (totalKb > BUDGET_KB) {
      console.error(`over budget by ${(totalKb - BUDGET_KB).toFixed(1)} KB`);
      process.exitCode = 1;
    }
  } finally {
    cleanup();
  }
}

await main();
