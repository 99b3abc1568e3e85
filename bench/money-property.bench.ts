/**
 * `npm run bench -- money-property`: the money rules' property (tests/db/support/money-property.ts, ADR 0171) with a
 * random seed and longer runs than npm test's fixed one. Prints the seed, so a failure is replayed with
 * STOREWISE_PROPERTY_SEED=<seed>.
 */
import { startCatalogWorld } from '../tests/db/support/catalog-world';
import { runMoneyProperty } from '../tests/db/support/money-property';

const seed = Number(process.env.STOREWISE_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const numRuns = Number(process.env.STOREWISE_PROPERTY_RUNS ?? 10);
const world = await startCatalogWorld();
const started = performance.now();
try {
  const result = await runMoneyProperty(world, { seed, numRuns, maxCommands: 40, size: 'large' });
  const seconds = (performance.now() - started) / 1000;
  console.log(`money property: seed ${seed}, ${numRuns} runs, ${result.steps} steps (${result.sales} sales, ` +
    `${result.refunds} refunds, ${result.closes} closes) in ${seconds.toFixed(1)} s: every invariant held`);
} catch (error) {
  console.error(`money property FAILED with seed ${seed}: replay with STOREWISE_PROPERTY_SEED=${seed}`);
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await world.stack.stop();
}
