import { Center, Spinner } from '@chakra-ui/react';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { AuthProvider } from '../lib/auth-provider';
import { Toaster } from '../components/toaster';
import { HydrationGate } from './hydration-gate';
import { ScrollToTop } from './scroll-to-top';

/** Shown while a screen waits for supabase-js, which loads in the background (docs/adr/0044). */
function ScreenFallback() {
  return (
    <Center minH="60dvh" role="status" aria-label="Loading">
      <Spinner size="lg" color="blue.solid" />
    </Center>
  );
}

/**
 * Wraps every route: the auth state needs the router (deep links navigate), so it lives here. Screens may
 * suspend while supabase-js loads in the background (docs/adr/0044). The auth state is provided inside the
 * Suspense boundary: a prerendered screen hydrates from the signed-out "loading" state it was rendered with,
 * and only then sees the session; a session arriving above a not-yet-hydrated screen would make React
 * hydrate it with other content than the HTML (docs/adr/0090).
 */
export function RootLayout() {
  return (
    <>
      <Suspense fallback={<ScreenFallback />}>
        <HydrationGate>
          <AuthProvider>
            <Outlet />
          </AuthProvider>
        </HydrationGate>
      </Suspense>
      <Toaster />
      <ScrollToTop />
    </>
  );
}
