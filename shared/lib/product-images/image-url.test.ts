import { describe, expect, it } from 'vitest';
import { createClient, type SupabaseClientOptions } from '@supabase/supabase-js';
import { productImagePath } from './image-url';

const business = '11111111-2222-4333-8444-555555555555';
const other = '99999999-2222-4333-8444-555555555555';
const context = { supabaseUrl: 'https://abc.supabase.co', businessId: business };
const ok = (path: string) => ({ ok: true, path });

// supabase-js builds a realtime client eagerly and Node 20 has no WebSocket: a transport that is never used.
type Transport = NonNullable<NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']>;
const noSocket = function noSocket() {
  throw new Error('no realtime in this test');
} as unknown as Transport;

describe('productImagePath', () => {
  it('reads the public URL, the authenticated URL and the path form of a picture in the business\'s folder', () => {
    expect(productImagePath(`https://abc.supabase.co/storage/v1/object/public/product-images/${business}/p1/a.png`, context)).toEqual(ok(`${business}/p1/a.png`));
    expect(productImagePath(`https://abc.supabase.co/storage/v1/object/authenticated/product-images/${business}/a.jpg?t=1#x`, context)).toEqual(ok(`${business}/a.jpg`));
    expect(productImagePath(`https://abc.supabase.co/storage/v1/object/product-images/${business}/a.jpg`, context)).toEqual(ok(`${business}/a.jpg`));
    expect(productImagePath(`  product-images/${business}/shelf/a b.webp `, context)).toEqual(ok(`${business}/shelf/a b.webp`));
    expect(productImagePath(`https://abc.supabase.co/storage/v1/object/public/product-images/${business}/a%20b.webp`, context)).toEqual(ok(`${business}/a b.webp`));
    // A project behind a path prefix (the local stack's proxy, say).
    expect(productImagePath(`http://127.0.0.1:8080/api/storage/v1/object/public/product-images/${business}/a.png`,
      { supabaseUrl: 'http://127.0.0.1:8080/api/', businessId: business })).toEqual(ok(`${business}/a.png`));
  });

  it('reads back the public URL storage-js builds (what the catalog\'s export writes)', () => {
    const { storage } = createClient(context.supabaseUrl, 'anon-key', { realtime: { transport: noSocket }, auth: { persistSession: false } });
    for (const path of [`${business}/p1/pic one é.png`, `${business}/p1/7f3c.s.webp`]) {
      const url = storage.from('product-images').getPublicUrl(path).data.publicUrl;
      expect(url).toMatch(/^https:\/\/abc\.supabase\.co\/storage\/v1\/object\/public\/product-images\//);
      expect(productImagePath(url, context)).toEqual(ok(path));
    }
  });

  it('refuses another site, another bucket, another business and paths that climb out, each with its own sentence', () => {
    const refused = (cell: string) => {
      const result = productImagePath(cell, context);
      expect(result.ok).toBe(false);
      return result.ok ? '' : result.message;
    };
    expect(refused(`https://evil.example/storage/v1/object/public/product-images/${business}/a.png`)).toMatch(/another site \(evil\.example\)/);
    expect(refused(`http://abc.supabase.co/storage/v1/object/public/product-images/${business}/a.png`)).toMatch(/another site/);
    expect(refused(`https://abc.supabase.co/storage/v1/object/public/product-thumbnails/${business}/a.s.webp`)).toMatch(/"product-thumbnails" bucket/);
    expect(refused(`business-logos/${business}/logo.png`)).toMatch(/"business-logos" bucket/);
    expect(refused(`https://abc.supabase.co/storage/v1/object/public/product-images/${other}/a.png`)).toMatch(/another business's folder/);
    expect(refused(`product-images/${business}/../${other}/a.png`)).toMatch(/"\." or "\.\." part/);
    expect(refused(`product-images/${business}/%2e%2e/${other}/a.png`)).toMatch(/"\." or "\.\." part/);
    expect(refused(`product-images/${business}//a.png`)).toMatch(/empty/);
    expect(refused(`product-images/${business}`)).toMatch(/names a folder/);
    expect(refused(`https://abc.supabase.co/storage/v1/render/image/public/product-images/${business}/a.png`)).toMatch(/not the address of a stored picture/);
    expect(refused('product-images/%E0%A4%A/a.png')).toMatch(/broken %-escape/);
    expect(refused('javascript:alert(1)')).toMatch(/another site|not a web address/);
  });
});
