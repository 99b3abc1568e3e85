import { ChakraProvider } from '@chakra-ui/react';
import { useState } from 'react';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { createAuthStore } from '../lib/auth-store';
import { PlatformProvider } from '../lib/platform-context';
import { system } from './theme';
import type { Platform } from '../platform/platform';

type Router = ReturnType<typeof createBrowserRouter>;

/** The whole product. web/ passes a browser router, renderer/ a hash router (see docs/adr). */
export function App({ platform, router }: { platform: Platform; router: Router }) {
  // supabase-js (~45 KB gzip) loads in the background from the first render on, so the landing page does
  // not wait for it; screens that need the client suspend until it is there (docs/adr/0044). Starting at
  // once also lets it read a session from the URL (implicit flow) before any screen asks.
  const [supabase] = useState(() => import('../lib/supabase-client').then((module) => module.createStorewiseClient(platform)));
  const [auth] = useState(() => createAuthStore(supabase));
  return (
    <ChakraProvider value={system}>
      <PlatformProvider platform={platform} supabase={supabase} auth={auth}>
        <RouterProvider router={router} />
      </PlatformProvider>
    </ChakraProvider>
  );
}
