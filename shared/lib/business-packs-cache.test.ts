import { describe, expect, it, vi } from 'vitest';
import { businessPacksChanged, loadBusinessPacks, onBusinessPacksChanged, peekBusinessPacks } from './business-packs-cache';
import type { StorewiseClient } from './supabase-client';

/** A client answering `businesses.packs` reads in turn with `answers`, counting the reads. */
function fakeClient(answers: { data: { packs: string[] } | null; error: { message: string } | null }[]) {
  const reads: string[] = [];
  const client = {
    from: vi.fn(() => ({
      select: () => ({
        eq: (_column: string, id: string) => ({
          maybeSingle: async () => {
            reads.push(id);
            return answers.shift() ?? { data: null, error: { message: 'no more answers' } };
          },
        }),
      }),
    })),
  };
  return { client: client as unknown as StorewiseClient, reads };
}

describe('the business packs cache', () => {
  it('reads a business once for every screen that asks, each business on its own', async () => {
    const fake = fakeClient([{ data: { packs: ['size_grid'] }, error: null }, { data: { packs: [] }, error: null }]);
    const [a, b] = await Promise.all([loadBusinessPacks(fake.client, 'biz-1'), loadBusinessPacks(fake.client, 'biz-1')]);
    expect([a, b]).toEqual([['size_grid'], ['size_grid']]);
    expect(await loadBusinessPacks(fake.client, 'biz-1')).toEqual(['size_grid']);
    expect(peekBusinessPacks(fake.client, 'biz-1')).toEqual(['size_grid']);
    expect(await loadBusinessPacks(fake.client, 'biz-2')).toEqual([]);
    expect(fake.reads).toEqual(['biz-1', 'biz-2']);
  });

  it('does not keep a failed read: it reads as no packs, and the next screen asks again', async () => {
    const fake = fakeClient([{ data: null, error: { message: 'offline' } }, { data: { packs: ['serials'] }, error: null }]);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await loadBusinessPacks(fake.client, 'biz-1')).toEqual([]);
    expect(peekBusinessPacks(fake.client, 'biz-1')).toBeUndefined();
    expect(await loadBusinessPacks(fake.client, 'biz-1')).toEqual(['serials']);
    expect(fake.reads).toEqual(['biz-1', 'biz-1']);
    error.mockRestore();
  });

  it('takes a switched pack without reading again and tells the screens which business changed', async () => {
    const fake = fakeClient([{ data: { packs: [] }, error: null }]);
    await loadBusinessPacks(fake.client, 'biz-1');
    const told: string[] = [];
    const stop = onBusinessPacksChanged((id) => told.push(id));
    businessPacksChanged(fake.client, 'biz-1', ['size_grid']);
    stop();
    businessPacksChanged(fake.client, 'biz-1', ['size_grid', 'serials']);
    expect(told).toEqual(['biz-1']);
    expect(await loadBusinessPacks(fake.client, 'biz-1')).toEqual(['size_grid', 'serials']);
    expect(fake.reads).toEqual(['biz-1']);
  });

  it('keeps sessions apart: another client reads for itself', async () => {
    const first = fakeClient([{ data: { packs: ['size_grid'] }, error: null }]);
    const second = fakeClient([{ data: { packs: [] }, error: null }]);
    expect(await loadBusinessPacks(first.client, 'biz-1')).toEqual(['size_grid']);
    expect(await loadBusinessPacks(second.client, 'biz-1')).toEqual([]);
  });
});
