/**
 * `npm run bench`: runs every bench/*.bench.ts in its own process, one after another (they start their own
 * stacks and must not compete for the 2 cores), and prints what each reports.
 */
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv[2];
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => !only || name.includes(only))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  // Arguments after the name go to the bench (e.g. `npm run bench -- register-browser --variants 1000000`).
  // --expose-gc: a bench that reports peak memory collects first, so its baseline holds no garbage of earlier steps.
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', `${dir}${file}`, ...process.argv.slice(3)], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
if (failed) {
  console.error(`${failed} benchmark(s) failed`);
  process.exit(1);
}
