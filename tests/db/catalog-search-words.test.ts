/**
 * The catalog's word dictionary (20261124120000_catalog_search_words.sql, ADR 0152): private.catalog_words is kept
 * by the products' statement triggers (insert, rename, brand change, delete, several rows at once) exactly as a
 * rebuild from the products would make it, and search_catalog's typo step corrects each typed word against it
 * (over HTTP with supabase-js, as a cashier: row level security on).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;

beforeAll(async () => {
  w = await startCatalogWorld();
}, 180_000);

afterAll(async () => {
  await w?.stack.stop();
});

const words = async (business: string) =>
  w.rows<{ word: string; products: number }>(
    'select word, products from private.catalog_words where business_id = $1 order by word', [business]);
const countOf = async (word: string) => (await words(w.businessA)).find((r) => r.word === word)?.products ?? 0;

/** The dictionary as triggers left it equals a rebuild from the products. */
async function expectDictionaryExact(business: string) {
  const kept = await words(business);
  await w.rows('select private.refresh_catalog_words($1)', [business]);
  expect(await words(business)).toEqual(kept);
}

const search = async (q: string) => {
  const { data, error } = await w.clients.cashier.rpc('search_catalog', { _business_id: w.businessA, _query: q });
  expect(error).toBeNull();
  return (data as { sku: string; product_name: string }[]).map((r) => r.sku);
};

async function addProduct(name: string, brand: string | null, sku: string): Promise<string> {
  const [p] = await w.rows<{ id: string }>(
    'insert into public.products (business_id, name, brand) values ($1, $2, $3) returning id', [w.businessA, name, brand]);
  await w.rows('insert into public.variants (business_id, product_id, sku, price) values ($1, $2, $3, 500)',
    [w.businessA, p?.id, sku]);
  return p?.id ?? '';
}

describe('the dictionary follows the products', () => {
  it('holds the demo catalog\'s words from the migration and the seed, each counted once per product', async () => {
    const demo = await words(w.businessA);
    expect(demo.length).toBeGreaterThan(20);
    expect(demo.every((r) => r.products > 0 && /^[a-z0-9]{2,40}$/.test(r.word))).toBe(true);
    await expectDictionaryExact(w.businessA);
  });

  it('adds the words of a new product (name and brand), renames and deletes them', async () => {
    const id = await addProduct('Zesty Quinoa Crunch 500 g', 'Hillside', 'ZQC-1');
    expect(await countOf('zesty')).toBe(1);
    expect(await countOf('hillside')).toBe(1);
    expect(await countOf('500')).toBeGreaterThanOrEqual(1);
    await w.rows(`update public.products set name = 'Zesty Millet Crunch' where id = $1`, [id]);
    expect(await countOf('quinoa')).toBe(0);
    expect(await countOf('millet')).toBe(1);
    await w.rows(`update public.products set brand = 'Lakeside' where id = $1`, [id]);
    expect(await countOf('hillside')).toBe(0);
    expect(await countOf('lakeside')).toBe(1);
    // An archive touches no word.
    await w.rows('update public.products set archived_at = now() where id = $1', [id]);
    expect(await countOf('millet')).toBe(1);
    await expectDictionaryExact(w.businessA);
    await w.rows('delete from public.products where id = $1', [id]);
    expect(await countOf('millet')).toBe(0);
    expect(await countOf('lakeside')).toBe(0);
    await expectDictionaryExact(w.businessA);
  });

  it('counts a statement of many products once per product and word', async () => {
    await w.rows(
      `insert into public.products (business_id, name, brand)
       select $1, 'Bulkword Item ' || n, 'Bulkbrand' from generate_series(1, 20) n`, [w.businessA]);
    expect(await countOf('bulkword')).toBe(20);
    expect(await countOf('bulkbrand')).toBe(20);
    await w.rows(`update public.products set brand = null where business_id = $1 and brand = 'Bulkbrand'`, [w.businessA]);
    expect(await countOf('bulkbrand')).toBe(0);
    await w.rows(`delete from public.products where business_id = $1 and name like 'Bulkword Item %'`, [w.businessA]);
    expect(await countOf('bulkword')).toBe(0);
    await expectDictionaryExact(w.businessA);
  });
});

describe('the dictionary is out of the API\'s reach', () => {
  it('the private schema is not exposed, and its functions are not callable', async () => {
    for (const name of ['owner', 'cashier', 'anon'] as const) {
      const { data, error } = await w.clients[name].schema('private').from('catalog_words').select('*');
      expect(error).not.toBeNull();
      expect(data).toBeNull();
    }
    const rpc = await w.clients.owner.rpc('catalog_typo_page', { _business_id: w.businessA, _query: 'Velvt', _offset: 0,
      _limit: 25, _include_archived: false });
    expect(rpc.error).not.toBeNull();
    expect(rpc.data).toBeNull();
  });
});

describe('typo-tolerant search through the dictionary', () => {
  beforeAll(async () => {
    await addProduct('Velvet Quinoa Porridge', 'Hillcrest', 'VQP-1');
    await addProduct('Velvet Barley Porridge', 'Hillcrest', 'VBP-1');
  });

  it('corrects every typed word, in the name and in the brand', async () => {
    expect(await search('Velvt Quinao')).toEqual(['VQP-1']);
    expect(await search('Velvett Porrige')).toEqual(expect.arrayContaining(['VQP-1', 'VBP-1']));
    expect(await search('Hilcrest Barly')).toEqual(['VBP-1']);
    // The older fixture of catalog-stock.test.ts: still found.
    expect(await search('Matrx Drops')).toContain('MTX-DROPS');
  });

  it('finds nothing when a typed word is like no word of the catalog', async () => {
    expect(await search('Velvt Qxzwv')).toEqual([]);
  });

  it('keeps exact matches first and alone: a word typed right is not widened by the typo step', async () => {
    expect(await search('Velvet Quinoa')).toEqual(['VQP-1']);
    expect(await search('VBP-')).toEqual(['VBP-1']);
  });

  it('answers nothing for another business\'s catalog', async () => {
    const { data } = await w.clients.other.rpc('search_catalog', { _business_id: w.businessA, _query: 'Velvt Quinao' });
    expect(data).toEqual([]);
  });
});

describe('the typo step stops after the page (20261125120000, ADR 0164)', () => {
  const two = (n: number) => String(n).padStart(2, '0');
  const expected: string[] = [];
  beforeAll(async () => {
    // "Marlim" is corrected to "marlin" (similarity 0.56) and "marlen" (0.40): the closer word's products first.
    for (let n = 1; n <= 12; n += 1) {
      const id = await addProduct(`Marlin Tin ${two(n)}`, null, `MLT-${two(n)}`);
      expected.push(`MLT-${two(n)}`);
      if (n === 3 || n === 5) {
        await w.rows(`insert into public.variants (business_id, product_id, sku, price, archived_at)
                      values ($1, $2, $3, 500, $4)`, [w.businessA, id, `MLT-${two(n)}B`, n === 5 ? new Date().toISOString() : null]);
        if (n === 3) expected.push('MLT-03B'); // the archived one (05B) is not listed
      }
    }
    // Added in reverse name order, so the page's order is the ranking's, not the insertion's.
    for (let n = 12; n >= 1; n -= 1) await addProduct(`Marlen Jar ${two(n)}`, null, `MLJ-${two(n)}`);
    for (let n = 1; n <= 12; n += 1) expected.push(`MLJ-${two(n)}`);
  });

  const page = async (q: string, limit: number, offset: number) => {
    const { data, error } = await w.clients.cashier.rpc('search_catalog', {
      _business_id: w.businessA, _query: q, _limit: limit, _offset: offset });
    expect(error).toBeNull();
    return data as { sku: string; total_count: number }[];
  };

  it('ranks by the closeness of the corrected word, then by name and SKU, and counts every match', async () => {
    const all = await page('Marlim', 200, 0);
    expect(all.map((r) => r.sku)).toEqual(expected);
    expect(all.every((r) => Number(r.total_count) === expected.length)).toBe(true);
  });

  it('every page is the same best matches the whole ranking has at its place, with the same total', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < expected.length + 4; offset += 4) {
      const rows = await page('Marlim', 4, offset);
      expect(rows.map((r) => r.sku)).toEqual(expected.slice(offset, offset + 4));
      for (const r of rows) expect(Number(r.total_count)).toBe(expected.length);
      seen.push(...rows.map((r) => r.sku));
    }
    expect(seen).toEqual(expected);
    // A page that is neither the first nor ends at a product boundary: the two variants of product 03 split.
    expect((await page('Marlim', 3, 2)).map((r) => r.sku)).toEqual(expected.slice(2, 5));
  });

  it('a page past the end of the typo matches is empty (not the exact step\'s, not another typo page)', async () => {
    expect(await page('Marlim', 25, 100)).toEqual([]);
  });
});
