import { describe, expect, it } from 'vitest';
import type { StorewiseClient } from '../../lib/supabase-client';
import { CHECK_PART_ROWS, WRITE_PART_ROWS, checkCatalogFile, writeCatalogFile, writtenBefore, type ImportProgress } from './catalog-import';

interface Call { rows: number; first: number; dry: boolean; importId: string }

/** A fake client answering import_catalog from a script: each call gets the next answer (default: no errors). */
function fakeClient(answers: { status: number; data?: unknown; error?: { message: string } }[] = []) {
  const calls: Call[] = [];
  const client = {
    rpc: async (_fn: string, args: { _rows: unknown[]; _first_row: number; _dry_run: boolean; _import_id: string }) => {
      calls.push({ rows: args._rows.length, first: args._first_row, dry: args._dry_run, importId: args._import_id });
      const answer = answers.shift() ?? { status: 200, data: [] };
      return { data: answer.data ?? null, error: answer.error ?? null, status: answer.status };
    },
  };
  return { client: client as unknown as StorewiseClient, calls };
}

const file = (n: number) => Array.from({ length: n }, (_, i) => ({ product_name: `P${i}`, price: '1' }));

describe('a catalog file in parts', () => {
  it('checks 500 rows a call and writes 25 a call, numbered as the file, under one import id, reporting progress', async () => {
    expect([CHECK_PART_ROWS, WRITE_PART_ROWS]).toEqual([500, 25]);
    const { client, calls } = fakeClient();
    const progress: ImportProgress[] = [];
    const target = { businessId: 'b', importId: 'imp-1', onProgress: (p: ImportProgress) => progress.push(p) };
    expect(await checkCatalogFile(client, target, file(1_120))).toEqual([]);
    expect(calls.map((c) => [c.rows, c.first, c.dry])).toEqual([[500, 1, true], [500, 501, true], [120, 1001, true]]);
    expect(progress.map((p) => p.done)).toEqual([0, 500, 1000, 1120]);
    calls.length = 0;
    expect(await writeCatalogFile(client, target, file(60))).toEqual({ written: 60, errors: [] });
    expect(calls.map((c) => [c.rows, c.first, c.dry, c.importId])).toEqual([[25, 1, false, 'imp-1'], [25, 26, false, 'imp-1'], [10, 51, false, 'imp-1']]);
  });

  it('lists the errors of every part of the check', async () => {
    const { client } = fakeClient([
      { status: 200, data: [{ row_index: 7, message: 'the product name is missing' }] },
      { status: 200, data: [{ row_index: 612, message: 'this SKU is also on row 3' }] },
    ]);
    expect(await checkCatalogFile(client, { businessId: 'b', importId: 'i' }, file(700))).toEqual([
      { row_index: 7, message: 'the product name is missing' }, { row_index: 612, message: 'this SKU is also on row 3' }]);
  });

  it('sends a part again after a 429, and stops the writes at the first failing part, saying what was written', async () => {
    const pauses: number[] = [];
    const { client, calls } = fakeClient([
      { status: 200, data: [] },
      { status: 429, error: { message: 'Too many requests at once from this account: wait a moment and try again.' } },
      { status: 200, data: [] },
      { status: 200, data: [{ row_index: 63, message: 'this SKU is already used in the business' }] },
    ]);
    const target = { businessId: 'b', importId: 'i', pause: async (ms: number) => { pauses.push(ms); } };
    expect(await writeCatalogFile(client, target, file(100))).toEqual({ written: 50, errors: [{ row_index: 63, message: 'this SKU is already used in the business' }] });
    expect(pauses).toEqual([1000]);
    expect(calls.map((c) => c.first)).toEqual([1, 26, 26, 51]);
    // Resumed from row 51: only the rest is sent.
    calls.length = 0;
    expect(await writeCatalogFile(client, target, file(100), 50)).toEqual({ written: 100, errors: [] });
    expect(calls.map((c) => c.first)).toEqual([51, 76]);
  });

  it('a refused call (not 429) throws with the rows written before it', async () => {
    const { client } = fakeClient([{ status: 200, data: [] }, { status: 400, error: { message: 'the store belongs to another business' } }]);
    const failed = await writeCatalogFile(client, { businessId: 'b', importId: 'i' }, file(40)).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toBe('the store belongs to another business');
    expect(writtenBefore(failed, 0)).toBe(25);
  });
});
