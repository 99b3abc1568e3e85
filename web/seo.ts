import { pricingPlans } from '../shared/features/landing/pricing-plans';
import { landingPage, publicPages, privatePrefixes, siteName, type PublicPage } from '../shared/app/public-pages';

/**
 * What search engines and link previews read from a prerendered page (docs/adr/0090): title, description,
 * canonical URL from the configured site URL, Open Graph and Twitter cards, and on the landing the JSON-LD of
 * the organisation and the product with its plans at the prices of the pricing section (pricing-plans.ts).
 */

/** The og:image, a 1200x630 PNG in web/public. */
export const ogImage = { path: '/og-image.png', width: 1200, height: 630, alt: 'Storewise: retail management for every store' };

/** The site's public origin without a trailing slash; `VITE_SITE_URL` at build time. */
export function normalizeSiteUrl(value: string | undefined): string {
  const url = new URL(value && value.trim() !== '' ? value.trim() : 'http://127.0.0.1:5173');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`VITE_SITE_URL must be http(s): ${value}`);
  return url.origin + url.pathname.replace(/\/+$/, '');
}

export const absoluteUrl = (siteUrl: string, path: string) => `${siteUrl}${path === '/' ? '/' : path}`;

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON inside <script>: "</script>" or "<!--" in a string cannot end the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export function structuredData(siteUrl: string): object[] {
  const organization = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': `${siteUrl}/#organization`,
    name: siteName,
    url: absoluteUrl(siteUrl, '/'),
    logo: absoluteUrl(siteUrl, '/favicon.svg'),
  };
  const product = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: siteName,
    description: landingPage.description,
    image: absoluteUrl(siteUrl, ogImage.path),
    brand: { '@id': organization['@id'] },
    offers: pricingPlans.map((plan) => ({
      '@type': 'Offer',
      name: `${plan.name} plan`,
      description: plan.description,
      url: `${absoluteUrl(siteUrl, '/')}#pricing`,
      availability: 'https://schema.org/InStock',
      ...(plan.price === null
        ? {}
        : {
            price: plan.price.toFixed(2),
            priceCurrency: 'USD',
            priceSpecification: {
              '@type': 'UnitPriceSpecification',
              price: plan.price.toFixed(2),
              priceCurrency: 'USD',
              unitCode: 'MON',
              billingDuration: 'P1Y',
            },
          }),
    })),
  };
  return [organization, product];
}

/** The <head> tags of one prerendered page; the template's own title and description are replaced. */
export function headTags(page: PublicPage, siteUrl: string): string {
  const url = absoluteUrl(siteUrl, page.path);
  const image = absoluteUrl(siteUrl, ogImage.path);
  const tags = [
    `<title>${escapeHtml(page.title)}</title>`,
    `<meta name="description" content="${escapeHtml(page.description)}" />`,
    page.indexed ? '' : '<meta name="robots" content="noindex" />',
    page.indexed ? `<link rel="canonical" href="${escapeHtml(url)}" />` : '',
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${siteName}" />`,
    `<meta property="og:title" content="${escapeHtml(page.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(page.description)}" />`,
    page.indexed ? `<meta property="og:url" content="${escapeHtml(url)}" />` : '',
    `<meta property="og:image" content="${escapeHtml(image)}" />`,
    `<meta property="og:image:width" content="${ogImage.width}" />`,
    `<meta property="og:image:height" content="${ogImage.height}" />`,
    `<meta property="og:image:alt" content="${escapeHtml(ogImage.alt)}" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<meta name="twitter:title" content="${escapeHtml(page.title)}" />`,
    `<meta name="twitter:description" content="${escapeHtml(page.description)}" />`,
    `<meta name="twitter:image" content="${escapeHtml(image)}" />`,
    ...(page === landingPage
      ? structuredData(siteUrl).map((data) => `<script type="application/ld+json">${scriptJson(data)}</script>`)
      : []),
  ];
  return tags.filter(Boolean).join('\n    ');
}

export function robotsTxt(siteUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...privatePrefixes.map((prefix) => `Disallow: ${prefix}`),
    '',
    `Sitemap: ${siteUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

export function sitemapXml(siteUrl: string): string {
  const urls = publicPages
    .filter((page) => page.indexed)
    .map((page) => `  <url><loc>${escapeHtml(absoluteUrl(siteUrl, page.path))}</loc></url>`);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
}
