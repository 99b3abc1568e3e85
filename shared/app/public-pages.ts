import { legalSlugs, legalTitles, type LegalSlug } from '../features/legal/legal-document';

/**
 * The routes that are prerendered at build time into real HTML (docs/adr/0090): the landing, the five legal
 * pages, the static shells of the auth forms and the 404. The prerender, the sitemap, robots.txt and the
 * browser entry (hydrate or render) all read this one list. Everything else (dashboard, admin, reset links)
 * is rendered in the browser.
 */
export interface PublicPage {
  /** The route path rendered. */
  path: string;
  /** Where the HTML goes inside the web build, in the layout the web server looks up (`<route>/index.html`). */
  file: string;
  title: string;
  description: string;
  /** Listed in sitemap.xml and indexable; false for the 404 and the password-reset request form. */
  indexed: boolean;
  /**
   * Whether the page has anything that needs JavaScript. The legal pages have not (text and plain links):
   * they are sent without the app's scripts, so nothing runs after their first paint (docs/adr/0091).
   */
  interactive: boolean;
  /**
   * A visitor's copy needs no JavaScript either (the landing: links, anchors, a native popover menu): the app
   * starts on it only in a browser with a stored session, or with an auth server's answer in its address, and
   * then hydrates it (docs/adr/0167). The prerender marks its root `data-start="signed-in"` for web/main.tsx.
   */
  staticForVisitors?: boolean;
}

export const siteName = 'Storewise';

const legalDescriptions: Record<LegalSlug, string> = {
  'privacy-policy': 'What personal information Storewise collects, why, how long it is kept and the choices you have.',
  'terms-of-service': 'The terms for using Storewise: accounts, plans and billing, acceptable use and liability.',
  'cookie-policy': 'The cookies and local storage Storewise uses, what each is for and how to control them.',
  'gdpr-compliance': 'How Storewise meets the GDPR: legal bases, your rights, processors and international transfers.',
  'data-security-policy': 'How Storewise protects your data: encryption, access control, backups and incident response.',
};

export const landingPage: PublicPage = {
  path: '/',
  file: 'index.html',
  title: 'Storewise | Retail management for every store',
  description:
    'Inventory, point of sale, customers, teams and AI analytics for grocery, clothing, pharmacy, electronics and specialty shops. Plans from $9.99 a month with a 7-day free trial.',
  indexed: true,
  interactive: true,
  staticForVisitors: true,
};

export const notFoundPage: PublicPage = {
  path: '/404',
  file: '404.html',
  title: 'Page not found | Storewise',
  description: "The page you're looking for doesn't exist or has been moved.",
  indexed: false,
  interactive: true,
};

export const publicPages: readonly PublicPage[] = [
  landingPage,
  ...legalSlugs.map((slug) => ({
    path: `/${slug}`,
    file: `${slug}/index.html`,
    title: `${legalTitles[slug]} | Storewise`,
    description: legalDescriptions[slug],
    indexed: true,
    interactive: false,
  })),
  {
    path: '/auth',
    file: 'auth/index.html',
    title: 'Sign in | Storewise',
    description: 'Sign in to your Storewise account, or create one, with email or Google.',
    indexed: true,
    interactive: true,
  },
  {
    path: '/signup',
    file: 'signup/index.html',
    title: 'Create your account | Storewise',
    description: 'Create a Storewise account for your shop and start a 7-day free trial of any annual plan.',
    indexed: true,
    interactive: true,
  },
  {
    path: '/forgot-password',
    file: 'forgot-password/index.html',
    title: 'Reset your password | Storewise',
    description: 'Get a link to choose a new Storewise password.',
    indexed: false,
    interactive: true,
  },
  notFoundPage,
];

/** Private areas: never prerendered, disallowed in robots.txt. */
export const privatePrefixes = ['/dashboard', '/admin'] as const;

/**
 * Whether the HTML the server sent for `pathname` was prerendered for it and can be hydrated: its own page, or
 * the 404 page (the server sends 404.html only where no route matches). A single-page-app fallback (the
 * landing's HTML for /dashboard, say) is rendered from scratch instead of hydrated into a mismatch.
 */
export function canHydrate(prerenderedPath: string | undefined, pathname: string): boolean {
  if (!prerenderedPath) return false;
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return prerenderedPath === path || prerenderedPath === notFoundPage.path;
}
