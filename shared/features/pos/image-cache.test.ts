import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { cachedImage, openImageDb, readImage, readImageMap, saveImageMap, storeImage } from './image-cache';

const picture = (size: number, fill = 1) => new Blob([new Uint8Array(size).fill(fill)], { type: 'image/webp' });
let n = 0;
const freshDb = () => openImageDb(`images-test-${(n += 1)}`);

describe('the register picture cache', () => {
  it('gives back what it keeps, with its type', async () => {
    const db = await freshDb();
    await storeImage(db, 'https://x/a.webp', picture(10, 7));
    const blob = await readImage(db, 'https://x/a.webp');
    expect(blob?.type).toBe('image/webp');
    expect([...new Uint8Array(await blob!.arrayBuffer())]).toEqual(new Array(10).fill(7));
    expect(await readImage(db, 'https://x/other.webp')).toBeNull();
  });

  it('drops the least recently shown pictures past its budget', async () => {
    const db = await freshDb();
    await storeImage(db, 'a', picture(400), 1000, 1);
    await storeImage(db, 'b', picture(400), 1000, 2);
    // a is shown again: b is now the oldest
    await readImage(db, 'a', 3);
    await storeImage(db, 'c', picture(400), 1000, 4);
    expect(await readImage(db, 'b')).toBeNull();
    expect(await readImage(db, 'a')).not.toBeNull();
    expect(await readImage(db, 'c')).not.toBeNull();
  });

  it('never keeps a picture larger than the whole budget', async () => {
    const db = await freshDb();
    await storeImage(db, 'big', picture(2000), 1000);
    expect(await readImage(db, 'big')).toBeNull();
  });

  it('fetches once, then answers from the device (offline too)', async () => {
    const db = await freshDb();
    let calls = 0;
    const online = (async () => {
      calls += 1;
      return new Response(picture(5), { headers: { 'content-type': 'image/webp' } });
    }) as unknown as typeof fetch;
    const offline = (async () => {
      calls += 1;
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    expect((await cachedImage(db, 'u', online))?.size).toBe(5);
    expect((await cachedImage(db, 'u', offline))?.size).toBe(5);
    expect(calls).toBe(1);
    expect(await cachedImage(db, 'never-seen', offline)).toBeNull();
  });

  it('keeps the variant-to-picture map per business', async () => {
    const db = await freshDb();
    expect(await readImageMap(db, 'b1')).toBeNull();
    await saveImageMap(db, 'b1', [['v1', 'b1/p1/x.s.webp']]);
    expect((await readImageMap(db, 'b1'))?.get('v1')).toBe('b1/p1/x.s.webp');
  });
});
