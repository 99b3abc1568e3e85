import { StrictMode, startTransition, type ComponentType, type ReactNode } from 'react';
import { canHydrate } from '../shared/app/public-pages';
import type { Platform, SupabaseConfig } from '../shared/platform/platform';
import type { createRoot as CreateRoot, hydrateRoot as HydrateRoot } from 'react-dom/client';
import type { CacheProvider as CacheProviderType } from '@emotion/react';
import { createWebPlatform } from './platform';
import { preloadScreens } from '../shared/app/screen-modules';
import type { serverStylesCache as ServerStylesCache } from './server-styles-cache';
import type { InertUntilHydrated as InertUntilHydratedType } from '../shared/app/hydration-gate';

interface AppModules {
  createRoot: typeof CreateRoot;
  hydrateRoot: typeof HydrateRoot;
  App: ComponentType<{ platform: Platform; Router: ComponentType<{ children?: ReactNode }> }>;
  BrowserRouter: ComponentType<{ children?: ReactNode }>;
  CacheProvider: typeof CacheProviderType;
  serverStylesCache: typeof ServerStylesCache;
  InertUntilHydrated: typeof InertUntilHydratedType;
}

/** A turn for the browser (input, paint) before the next piece of work. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The app's modules. On a prerendered page they are evaluated one group per task (docs/adr/0091): React,
 * then Chakra with the theme's configuration, then createSystem (the largest single piece), then the app, so no evaluation blocks
 * the main thread for long while the visitor is already reading the page. Their files were preloaded by
 * web/main.tsx, so the steps do not wait for the network. Pages rendered in the browser load them at once.
 */
async function loadApp(stepwise: boolean): Promise<AppModules> {
  if (stepwise) {
    await import('react-dom/client');
    await nextTask();
    // Chakra's modules and the app's configuration, then createSystem on its own (docs/adr/0153).
    await import('../shared/app/theme-config');
    await nextTask();
    await import('../shared/app/theme');
    await nextTask();
  }
  const [dom, app] = await Promise.all([import('react-dom/client'), import('./browser-app')]);
  if (stepwise) await nextTask();
  return { createRoot: dom.createRoot, hydrateRoot: dom.hydrateRoot, ...app };
}

/** Renders the product into #root, adopting the prerendered HTML when it was made for this path. */
export function start(container: HTMLElement, configLater: Promise<SupabaseConfig>) {
  // Public pages arrive prerendered (docs/adr/0090): adopt that HTML instead of painting it again.
  const hydrate = canHydrate(container.dataset.prerendered, window.location.pathname);
  const modulesLater = loadApp(hydrate);
  // A deep link into the dashboard: its screens' chunks alongside the app's, not one after another (ADR 0418),
  // and the first render waits for them, so no screen suspends on its way to the page (ADR 0436).
  const screensLater = hydrate ? undefined : preloadScreens(window.location.pathname);
  Promise.all([configLater, modulesLater, screensLater]).then(
    ([config, { createRoot, hydrateRoot, App, BrowserRouter, CacheProvider, serverStylesCache, InertUntilHydrated }]) => {
      const app = <App platform={createWebPlatform(config)} Router={BrowserRouter} />;
      // As a transition, hydration yields to the browser every few milliseconds instead of adopting the whole
      // page in one task (docs/adr/0091); the page is already painted, so there is no hurry. Its emotion cache
      // knows the server's styles without moving their tag, and a page without forms was never inert (docs/adr/0160).
      if (hydrate) {
        const adopted = (
          <StrictMode>
            <CacheProvider value={serverStylesCache()}>
              <InertUntilHydrated.Provider value={container.dataset.inert !== 'none'}>{app}</InertUntilHydrated.Provider>
            </CacheProvider>
          </StrictMode>
        );
        startTransition(() => void hydrateRoot(container, adopted));
      } else createRoot(container).render(<StrictMode>{app}</StrictMode>);
    },
    async (error: unknown) => {
      const { createRoot } = await modulesLater;
      createRoot(container).render(<p role="alert">{error instanceof Error ? error.message : 'Storewise could not start.'}</p>);
    },
  );
}
