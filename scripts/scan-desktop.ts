/**
 * `npm run scan:desktop`: Doyensec's Electronegativity over the built main + preload bundles and over the
 * main/preload sources. Prints every finding and fails on HIGH (or worse) ones, on files the scanner
 * could not parse (unscanned code is not clean code), and when the build output is missing.
 *
 * Main and preload are scanned TOGETHER (global checks such as "navigation is limited" look across files),
 * and copied with a .js extension because the scanner silently skips .cjs/.mjs files.
 */
import { createRequire } from 'node:module';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface Finding {
  id: string;
  file: string;
  location: { line: number; column: number };
  severity: { name: string; value: number };
  confidence: { name: string };
  manualReview: boolean;
  description: string;
}

interface ScanOptions {
  input: string;
  electronVersionOverride: string;
  isRelative: boolean;
  parserPlugins: string[];
}
interface ScanResult {
  errors: Array<{ file: string; message?: string }>;
  issues: Finding[];
}
// The package ships no type declarations: its programmatic entry is typed here from its README.
const run = createRequire(import.meta.url)('@doyensec/electronegativity') as (options: ScanOptions) => Promise<ScanResult>;

const root = fileURLToPath(new URL('..', import.meta.url));
const HIGH = 3; // electronegativity severity values: INFORMATIONAL 0, LOW 1, MEDIUM 2, HIGH 3, CRITICAL 4

/**
 * Findings we accept, each with the reason. Keep this list short and specific (id + file pattern).
 * Currently empty: every HIGH check passes on its own (createMainWindow in src/main/window.ts passes an
 * object literal to the constructor precisely so the scanner can verify contextIsolation and sandbox).
 */
const SUPPRESSIONS: Array<{ id: string; file: RegExp; reason: string }> = [];

function electronVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(path.join(root, 'node_modules/electron/package.json'), 'utf8'));
  if (typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string') return pkg.version;
  throw new Error('cannot read the installed Electron version');
}

function stage(target: string, files: Array<[from: string, to: string]>): string {
  mkdirSync(target, { recursive: true });
  for (const [from, to] of files) {
    mkdirSync(path.dirname(path.join(target, to)), { recursive: true });
    copyFileSync(from, path.join(target, to));
  }
  return target;
}

function sourceFiles(dir: string): Array<[string, string]> {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))
    .map((name) => [path.join(root, dir, name), path.join(dir, name)]);
}

async function scan(label: string, input: string, version: string): Promise<Finding[]> {
  const result = await run({ input, electronVersionOverride: version, isRelative: true, parserPlugins: [] });
  if (result.errors.length > 0) {
    for (const error of result.errors) console.error(`  ${label}: could not parse ${error.file}: ${error.message ?? 'unknown error'}`);
    throw new Error(`${label}: ${result.errors.length} file(s) could not be scanned`);
  }
  return result.issues.map((issue) => ({ ...issue, file: issue.file === 'N/A' ? `${label} (global check)` : issue.file }));
}

async function main(): Promise<number> {
  const mainBundle = path.join(root, 'out/main/index.js');
  const preloadBundle = path.join(root, 'out/preload/index.cjs');
  for (const file of [mainBundle, preloadBundle]) {
    if (!existsSync(file)) {
      console.error(`scan:desktop: ${path.relative(root, file)} is missing; run \`npm run build:desktop\` first.`);
      return 1;
    }
  }
  const version = electronVersion();
  const work = mkdtempSync(path.join(tmpdir(), 'storewise-scan-'));
  try {
    const built = stage(path.join(work, 'built'), [
      [mainBundle, 'out/main/index.js'],
      [preloadBundle, 'out/preload/index.js'],
    ]);
    const sources = stage(path.join(work, 'sources'), [
      ...sourceFiles('src/main'),
      ...sourceFiles('src/preload'),
      [path.join(root, 'src/ipc-contract.ts'), 'src/ipc-contract.ts'],
    ]);
    const findings = [...(await scan('built bundles', built, version)), ...(await scan('sources', sources, version))];

    let failures = 0;
    console.log(`Electronegativity (Electron ${version}) findings:`);
    for (const finding of findings) {
      const suppression = SUPPRESSIONS.find((s) => s.id === finding.id && s.file.test(finding.file));
      const blocking = finding.severity.value >= HIGH && !suppression;
      if (blocking) failures += 1;
      console.log(
        `  ${blocking ? 'FAIL' : suppression ? 'ACCEPTED' : 'note'} ${finding.severity.name}/${finding.confidence.name} ${finding.id} ` +
          `${finding.file}:${finding.location.line}:${finding.location.column}${finding.manualReview ? ' (manual review)' : ''}` +
          (suppression ? `\n      accepted because: ${suppression.reason}` : ''),
      );
    }
    if (findings.length === 0) console.log('  none');
    console.log(failures === 0 ? 'scan:desktop: no HIGH findings.' : `scan:desktop: ${failures} HIGH finding(s).`);
    return failures === 0 ? 0 : 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = await main();
