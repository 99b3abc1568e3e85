import { ChakraProvider } from '@chakra-ui/react';
import { useState, type ComponentType, type ReactNode } from 'react';
import { createAuthStore } from '../lib/auth-store';
import { PlatformProvider } from '../lib/platform-context';
import type { StorewiseClient } from '../lib/supabase-client';
import { AppRoutes } from './routes';
import { loadedScreenModule, loadScreenModule } from './screen-modules';
import { settledForUse, settledValue } from './settled-for-use';
import { system } from './theme';
import type { Platform } from '../platform/platform';

interface AppProps {
  platform: Platform;
  /** web/ passes BrowserRouter, renderer/ HashRouter (docs/adr/0070), the prerender a StaticRouter (docs/adr/0090). */
  Router: ComponentType<{ children?: ReactNode }>;
  /** Only the build-time prerender passes a stand-in client; the browser and the desktop load supabase-js. */
  supabase?: Promise<StorewiseClient>;
}

/** The whole product. */
export function App({ platform, Router, supabase: given }: AppProps) {
  // supabase-js (~45 KB gzip) loads in the background from the first render on, so the landing page does
  // not wait for it; screens that need the client suspend until it is there (docs/adr/0044). Starting at
  // once also lets it read a session from the URL (implicit flow) before any screen asks.
  // When the entry has already loaded it (a deep link into the dashboard), the client is made at once: a screen
  // that suspends on it in the first render would be held back by React's reveal throttle (docs/adr/0436).
  const [supabase] = useState(() => {
    if (given) return settledForUse(given);
    const loaded = loadedScreenModule('supabase');
    if (loaded) return settledValue(loaded.createStorewiseClient(platform));
    return settledForUse(loadScreenModule('supabase').then((module) => module.createStorewiseClient(platform)));
  });
  // Loaded only for an offline start whose token could not be refreshed (docs/adr/0200): not on the landing's path.
  const [auth] = useState(() => createAuthStore(supabase, () => import('./kept-session').then((m) => m.keptSession(platform))));
  return (
    <ChakraProvider value={system}>
      <PlatformProvider platform={platform} supabase={supabase} auth={auth}>
        <Router>
          <AppRoutes />
        </Router>
      </PlatformProvider>
    </ChakraProvider>
  );
}
