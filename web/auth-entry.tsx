import { StrictMode, startTransition } from 'react';
import type { Root } from 'react-dom/client';
import { canHydrate } from '../shared/app/public-pages';
import type { Navigation } from '../shared/components/light/navigation';
import type { AuthServices } from '../shared/features/auth/auth-services';
import type { StorewiseClient } from '../shared/lib/supabase-client';
import type { SupabaseConfig } from '../shared/platform/platform';
import { createWebPlatform } from './platform';

let appPrefetched = false;
/**
 * Fetches (does not run) the app's files the prerender listed in `#root[data-app]`: signing in hands the window
 * to the app, which then starts without waiting for the network.
 */
function prefetchApp(container: HTMLElement) {
  if (appPrefetched) return;
  appPrefetched = true;
  for (const href of container.dataset.app?.split(' ') ?? []) {
    if (!href) continue;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
}

/** A turn for the browser (input, paint) before the next piece of work. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Boots a prerendered light auth page (docs/adr/0168): React and the page's own components hydrate the HTML,
 * without Chakra, emotion, react-router or the app. supabase-js loads when the visitor starts on the form.
 * Links are plain links to other prerendered pages; moving on after signing in hands the window to the app
 * (web/start.tsx) at the new path, with the toasts still showing.
 */
export async function startLight(container: HTMLElement, configLater: Promise<SupabaseConfig>): Promise<void> {
  const path = container.dataset.prerendered;
  // React, zod with the form's schema, then the rest of the page (form library, screen): each module
  // evaluation its own task (docs/adr/0091); together they made one task over 50 ms at 4x CPU.
  const { hydrateRoot } = await import('react-dom/client');
  await nextTask();
  await import('../shared/features/auth/auth-schema');
  await nextTask();
  const { LightShell, isLightPath, lightNotify, showingToasts, plainNavigation } = await import('../shared/features/auth/light-shell');
  await nextTask();
  // HTML made for another path (a server falling back to this file): the app renders that path instead.
  if (!isLightPath(path) || !canHydrate(path, window.location.pathname)) {
    const { start } = await import('./start');
    return start(container, configLater);
  }

  const platformLater = configLater.then((config) => createWebPlatform(config));
  let client: Promise<StorewiseClient> | undefined;
  const services: AuthServices = {
    supabase: () =>
      (client ??= Promise.all([platformLater, import('../shared/lib/supabase-client')]).then(([platform, module]) =>
        module.createStorewiseClient(platform),
      )),
    platform: () => platformLater,
    notify: lightNotify,
    prepare: () => {
      void services.supabase();
      prefetchApp(container);
    },
  };

  let root: Root | undefined;
  async function openInApp(to: string) {
    const [{ start }, { notify }] = await Promise.all([import('./start'), import('../shared/components/toaster')]);
    // The app makes its own client from the session this one stored; this one stops refreshing it.
    if (client) await client.then((supabase) => supabase.auth.stopAutoRefresh()).catch(() => undefined);
    const toasts = showingToasts();
    window.history.pushState(null, '', to);
    root?.unmount();
    start(container, configLater);
    for (const toast of toasts) notify[toast.type](toast.title, toast.description);
  }
  const navigation: Navigation = { Link: plainNavigation.Link, navigate: (to) => void openInApp(to) };

  // As a transition, hydration yields to the browser instead of adopting the page in one task (docs/adr/0091).
  startTransition(() => {
    root = hydrateRoot(
      container,
      <StrictMode>
        <LightShell path={path} services={services} navigation={navigation} />
      </StrictMode>,
    );
  });
}
