import { expect, test, type APIRequestContext } from '@playwright/test';

// What crawlers read (docs/adr/0090): robots.txt, sitemap.xml, per-page head tags and the landing's JSON-LD.

const publicPaths = ['/', '/privacy-policy', '/terms-of-service', '/cookie-policy', '/gdpr-compliance', '/data-security-policy', '/auth', '/signup'];
const privatePrefixes = ['/dashboard', '/admin'];

const isPrivate = (path: string) => privatePrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

async function text(request: APIRequestContext, path: string) {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  return { body: await response.text(), type: response.headers()['content-type'] ?? '' };
}

/** The attribute of the first tag matching `tag` in some HTML (the tags are written by scripts/prerender.ts). */
function headValue(html: string, pattern: RegExp): string | undefined {
  return pattern.exec(html)?.[1];
}

test.describe('findable', () => {
  test('robots.txt allows the public site, disallows dashboard and admin, and names the sitemap', async ({ request }) => {
    const { body, type } = await text(request, '/robots.txt');
    expect(type).toContain('text/plain');
    const rules = body.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
    for (const rule of rules) expect(rule).toMatch(/^(User-agent|Allow|Disallow|Sitemap): \S+$/);
    expect(rules).toContain('User-agent: *');
    expect(rules).toContain('Disallow: /dashboard');
    expect(rules).toContain('Disallow: /admin');
    const disallowed = rules.filter((rule) => rule.startsWith('Disallow: ')).map((rule) => rule.slice('Disallow: '.length));
    for (const path of publicPaths) expect(disallowed.some((prefix) => path.startsWith(prefix)), path).toBe(false);
    const sitemap = rules.find((rule) => rule.startsWith('Sitemap: '))?.slice('Sitemap: '.length);
    expect(new URL(sitemap!).pathname).toBe('/sitemap.xml');
  });

  test('sitemap.xml parses and lists exactly the indexable public pages, each canonical to itself', async ({ page, request }) => {
    const { body } = await text(request, '/sitemap.xml');
    // Parsed by the browser's XML parser: a malformed sitemap has a <parsererror>.
    await page.goto('/robots.txt');
    const parsed = await page.evaluate<{ error: boolean; root: string; namespace: string | null; locs: string[] }>(`(() => {
      const doc = new DOMParser().parseFromString(${JSON.stringify(body)}, 'application/xml');
      return {
        error: doc.getElementsByTagName('parsererror').length > 0,
        root: doc.documentElement.localName,
        namespace: doc.documentElement.namespaceURI,
        locs: [...doc.getElementsByTagName('loc')].map((node) => node.textContent.trim()),
      };
    })()`);
    expect(parsed.error).toBe(false);
    expect(parsed.root).toBe('urlset');
    expect(parsed.namespace).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const paths = parsed.locs.map((loc) => new URL(loc).pathname);
    expect(paths.toSorted()).toEqual(publicPaths.toSorted());
    expect(new Set(parsed.locs.map((loc) => new URL(loc).origin)).size).toBe(1);
    for (const loc of parsed.locs) {
      const path = new URL(loc).pathname;
      expect(isPrivate(path)).toBe(false);
      const { body: html } = await text(request, path);
      expect(headValue(html, /<link rel="canonical" href="([^"]+)"/), path).toBe(loc);
      expect(headValue(html, /<title>([^<]+)<\/title>/), path).toContain('Storewise');
      expect(headValue(html, /<meta name="description" content="([^"]{40,})"/), path).toBeDefined();
      expect(headValue(html, /<meta property="og:title" content="([^"]+)"/), path).toBeDefined();
      expect(headValue(html, /<meta name="twitter:card" content="([^"]+)"/), path).toBe('summary_large_image');
      expect(html, path).not.toContain('noindex');
    }
  });

  test('pages have their own titles and descriptions', async ({ request }) => {
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    for (const path of publicPaths) {
      const { body } = await text(request, path);
      titles.add(headValue(body, /<title>([^<]+)<\/title>/) ?? '');
      descriptions.add(headValue(body, /<meta name="description" content="([^"]+)"/) ?? '');
      expect(body.match(/<title>/g), path).toHaveLength(1);
      expect(body.match(/<meta name="description"/g), path).toHaveLength(1);
    }
    expect(titles.size).toBe(publicPaths.length);
    expect(descriptions.size).toBe(publicPaths.length);
  });

  test('the og:image is a 1200x630 PNG', async ({ request }) => {
    const { body: html } = await text(request, '/');
    const image = new URL(headValue(html, /<meta property="og:image" content="([^"]+)"/)!);
    const response = await request.get(image.pathname);
    expect(response.status()).toBe(200);
    const png = await response.body();
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  });

  test('JSON-LD: the organisation and the product with its four plans at the prices the pricing section shows', async ({ page, request }) => {
    const { body: html } = await text(request, '/');
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map((match) => JSON.parse(match[1]!));
    const organization = blocks.find((block) => block['@type'] === 'Organization');
    const product = blocks.find((block) => block['@type'] === 'Product');
    expect(organization).toMatchObject({ '@context': 'https://schema.org', name: 'Storewise' });
    expect(product).toMatchObject({ '@context': 'https://schema.org', name: 'Storewise', brand: { '@id': organization['@id'] } });

    await page.goto('/#pricing');
    const offers = product.offers as { name: string; price?: string; priceCurrency?: string }[];
    expect(offers.map((offer) => offer.name)).toEqual(['Starter plan', 'Growth plan', 'Pro plan', 'Enterprise plan']);
    for (const offer of offers) {
      const plan = offer.name.replace(/ plan$/, '');
      const card = page.getByTestId(`plan-${plan}`);
      if (offer.price === undefined) {
        await expect(card).toContainText('Custom');
      } else {
        expect(offer.priceCurrency).toBe('USD');
        await expect(card).toContainText(`$${offer.price}/month`);
      }
    }

    // Every URL it names is on the site's origin and a public page.
    const canonical = new URL(headValue(html, /<link rel="canonical" href="([^"]+)"/)!);
    const urls = JSON.stringify(blocks).match(/https?:\/\/[^"]+/g)!.filter((url) => !url.startsWith('https://schema.org'));
    expect(urls.length).toBeGreaterThan(3);
    for (const url of urls) {
      const parsed = new URL(url);
      expect(parsed.origin).toBe(canonical.origin);
      expect(isPrivate(parsed.pathname)).toBe(false);
      expect(parsed.pathname === '/' || parsed.pathname.includes('.'), url).toBe(true);
    }
  });

  test('the 404 page is not indexed', async ({ request }) => {
    const response = await request.get('/no-such-page');
    const html = await response.text();
    expect(html).toContain('Oops! Page not found');
    expect(html).toContain('<meta name="robots" content="noindex" />');
    expect(html).not.toContain('rel="canonical"');
  });
});
