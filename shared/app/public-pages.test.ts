import { describe, expect, it } from 'vitest';
import { canHydrate, notFoundPage, privatePrefixes, publicPages } from './public-pages';

describe('the prerendered public pages', () => {
  it('are written where the web server looks them up, once each, never under a private area', () => {
    const files = publicPages.map((page) => page.file);
    expect(new Set(files).size).toBe(files.length);
    for (const page of publicPages) {
      if (page === notFoundPage) expect(page.file).toBe('404.html');
      else expect(page.file).toBe(page.path === '/' ? 'index.html' : `${page.path.slice(1)}/index.html`);
      expect(privatePrefixes.some((prefix) => page.path.startsWith(prefix))).toBe(false);
      expect(page.description.length).toBeGreaterThan(40);
    }
  });

  it('only the legal pages go without the app\'s scripts: every other page has forms, buttons or a menu', () => {
    const withoutScripts = publicPages.filter((page) => !page.interactive).map((page) => page.path);
    expect(withoutScripts).toEqual(['/privacy-policy', '/terms-of-service', '/cookie-policy', '/gdpr-compliance', '/data-security-policy']);
  });

  it('hydrate only the HTML made for the path (or the 404 page), else render from scratch', () => {
    expect(canHydrate('/', '/')).toBe(true);
    expect(canHydrate('/privacy-policy', '/privacy-policy')).toBe(true);
    expect(canHydrate('/privacy-policy', '/privacy-policy/')).toBe(true);
    expect(canHydrate('/404', '/no/such/page')).toBe(true);
    // A server falling back to the landing's HTML for a client route.
    expect(canHydrate('/', '/dashboard')).toBe(false);
    expect(canHydrate('/auth', '/signup')).toBe(false);
    expect(canHydrate(undefined, '/')).toBe(false);
  });
});
