/**
 * The money rules as a property with a fixed seed (tests/db/support/money-property.ts; ADR 0171). The bench runs
 * the same property with a random seed: `npm run bench -- money-property`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCatalogWorld, type CatalogWorld } from './support/catalog-world';
import { runMoneyProperty } from './support/money-property';

let w: CatalogWorld;

beforeAll(async () => {
  w = await startCatalogWorld();
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

describe('random sales, refunds, cash and closes keep the money rules', () => {
  it('holds for the fixed seed', async () => {
    const result = await runMoneyProperty(w, { seed: 20261127, numRuns: 8, maxCommands: 25 });
    // The run is not vacuous: it sold, refunded and closed.
    expect(result.sales).toBeGreaterThan(5);
    expect(result.refunds).toBeGreaterThan(0);
    expect(result.closes).toBeGreaterThan(0);
  }, 300_000);
});
