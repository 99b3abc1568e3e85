import { ChakraProvider } from '@chakra-ui/react';
import { useState } from 'react';
import type { BrowserRouter, HashRouter } from 'react-router-dom';
import { createAuthStore } from '../lib/auth-store';
import { PlatformProvider } from '../lib/platform-context';
import { AppRoutes } from './routes';
import { system } from './theme';
import type { Platform } from '../platform/platform';

type Router = typeof BrowserRouter | typeof HashRouter;

/** The whole product. web/ passes BrowserRouter, renderer/ HashRouter (docs/adr/0070). */
export function App({ platform, Router }: { platform: Platform; Router: Router }) {
  // supabase-js (~45 KB gzip) loads in the background from the first render on, so the landing page does
  // not wait for it; screens that need the client suspend until it is there (docs/adr/0044). Starting at
  // once also lets it read a session from the URL (implicit flow) before any screen asks.
  const [supabase] = useState(() => import('../lib/supabase-client').then((module) => module.createStorewiseClient(platform)));
  const [auth] = useState(() => createAuthStore(supabase));
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
