import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { StrictMode, type ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { ChakraProvider } from '@chakra-ui/react';
import { App } from '../shared/app/app';
import { system } from '../shared/app/theme';
import { lightStyleTag } from '../shared/components/light/styles';
import { plainNavigation } from '../shared/components/light/navigation';
import { lightNotify } from '../shared/components/light/toaster';
import { isLightPath, LightShell } from '../shared/features/auth/light-shell';
import { InertUntilHydrated, PrerenderedWithoutScripts } from '../shared/app/hydration-gate';
import { Prerendering } from '../shared/components/prerendered-parts';
import type { StorewiseClient } from '../shared/lib/supabase-client';
import type { Platform } from '../shared/platform/platform';

export { publicPages } from '../shared/app/public-pages';
export { isLightPath } from '../shared/features/auth/light-shell';
export { headTags, normalizeSiteUrl, robotsTxt, sitemapXml } from './seo';

/**
 * The build-time renderer of the public pages (docs/adr/0090). Runs in Node, once per page, from the Vite
 * plugin in scripts/prerender.ts. Nobody is signed in at build time: the auth state stays "loading", which is
 * also what the browser's first (hydrating) render sees, so the signed-in variants appear after hydration.
 */

// A stand-in for supabase-js: screens that hold the client (the auth forms) render their static shell; the
// client is only used in event handlers and effects, which never run here. Marked fulfilled so React's use()
// reads it without suspending; onAuthStateChange is never called back, so nobody is ever signed in.
const serverClient = {
  auth: { onAuthStateChange: () => ({ data: { subscription: { unsubscribe: () => undefined } } }) },
} as unknown as StorewiseClient;
const resolvedClient = Object.assign(Promise.resolve(serverClient), { status: 'fulfilled', value: serverClient });

// The light shell's services are only called from event handlers, which never run here.
const lightServerServices = {
  supabase: () => resolvedClient,
  platform: () => Promise.resolve(serverPlatform),
  notify: lightNotify,
  prepare: () => undefined,
};

const serverPlatform: Platform = {
  kind: 'web',
  supabase: { url: 'http://prerender.invalid', anonKey: 'prerender' },
  sessionStorage: { getItem: () => null, setItem: () => undefined, removeItem: () => undefined },
  authFlow: 'implicit',
  redirects: { signIn: '/', signUpConfirmed: '/#pricing', passwordReset: '/reset-password' },
  openOAuthUrl: () => undefined,
  openExternal: () => undefined,
  onAuthDeepLink: () => () => undefined,
};

async function streamToString(stream: NodeJS.ReadableStream): Promise<string> {
  let html = '';
  for await (const chunk of stream) html += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
  return html;
}

/**
 * The body HTML of one route and the <style> tags of exactly the CSS it uses (emotion's critical CSS).
 * `withoutScripts`: the page is sent without the app's scripts (docs/adr/0091), so it is not made inert.
 * `inert`: false for a page without forms, which stays usable until it hydrates (docs/adr/0160); the browser
 * learns it from `#root[data-inert]`.
 */
export async function renderPage(path: string, withoutScripts = false, inert = true): Promise<{ html: string; styleTags: string }> {
  // A fresh cache per page, with the key of emotion's default browser cache ('css'), so the browser adopts
  // these <style> tags on hydration instead of inserting the same rules again.
  const cache = createCache({ key: 'css' });
  const emotionServer = createEmotionServer(cache);
  const Router = ({ children }: { children?: ReactNode }) => <StaticRouter location={path}>{children}</StaticRouter>;
  // prerender (not renderToString) waits for the lazily imported route screens to load before it writes.
  // An error would otherwise only turn its boundary into a client-rendered hole: fail the build instead.
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    isLightPath(path) ? (
      // A light auth page (docs/adr/0168): its own components, hydrated by web/auth-entry.tsx. ChakraProvider
      // adds nothing to the markup; it only writes the token and reset CSS the light stylesheet reads.
      <StrictMode>
        <CacheProvider value={cache}>
          <ChakraProvider value={system}>
            <LightShell path={path} services={lightServerServices} navigation={plainNavigation} />
          </ChakraProvider>
        </CacheProvider>
      </StrictMode>
    ) : (
    <StrictMode>
      <CacheProvider value={cache}>
        <Prerendering.Provider value>
          <PrerenderedWithoutScripts.Provider value={withoutScripts}>
            <InertUntilHydrated.Provider value={inert}>
              <App platform={serverPlatform} Router={Router} supabase={resolvedClient} />
            </InertUntilHydrated.Provider>
          </PrerenderedWithoutScripts.Provider>
        </Prerendering.Provider>
      </CacheProvider>
    </StrictMode>
    ),
    // Suspense boundaries (HydrateApart, docs/adr/0091) stay in place whatever their size: React would move a
    // large one to the end of the document behind an inline script, which the CSP refuses.
    { onError: (error) => void errors.push(error), progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const html = await streamToString(prelude);
  if (errors.length > 0) throw new AggregateError(errors, `Prerendering ${path} failed`);
  const emotionTags = emotionServer.constructStyleTagsFromChunks(emotionServer.extractCriticalToChunks(html));
  // Pages drawn with light components (the auth shells, docs/adr/0168) carry light.css in their head.
  const styleTags = html.includes('class="lt-') ? `${emotionTags}${lightStyleTag}` : emotionTags;
  return { html, styleTags };
}
