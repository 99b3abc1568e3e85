import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { countWaitingSales, POS_DB_NAME } from './waiting-sales';

describe('countWaitingSales', () => {
  it('answers 0 without creating the register database when it does not exist', async () => {
    const factory = new IDBFactory();
    expect(await countWaitingSales(factory)).toBe(0);
    expect((await factory.databases()).map((d) => d.name)).not.toContain(POS_DB_NAME);
  });

  it('answers null when the browser cannot list its databases', async () => {
    expect(await countWaitingSales({ open: () => { throw new Error('no'); } } as unknown as IDBFactory)).toBeNull();
  });
});
