import { ChakraProvider } from '@chakra-ui/react';
import { useState } from 'react';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { PlatformProvider } from '../lib/platform-context';
import { createStorewiseClient } from '../lib/supabase-client';
import { system } from './theme';
import type { Platform } from '../platform/platform';

type Router = ReturnType<typeof createBrowserRouter>;

/** The whole product. web/ passes a browser router, renderer/ a hash router (see docs/adr). */
export function App({ platform, router }: { platform: Platform; router: Router }) {
  const [supabase] = useState(() => createStorewiseClient(platform));
  return (
    <ChakraProvider value={system}>
      <PlatformProvider platform={platform} supabase={supabase}>
        <RouterProvider router={router} />
      </PlatformProvider>
    </ChakraProvider>
  );
}
