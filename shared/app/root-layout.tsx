import { Center, Spinner } from '@chakra-ui/react';
import { Suspense } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { AuthProvider } from '../lib/auth-provider';
import { Toaster } from '../components/toaster';
import { RequireFullTheme } from './full-theme';

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
 * suspend while supabase-js or the full theme load in the background (docs/adr/0044).
 */
export function RootLayout() {
  // The landing renders with the landing system; every other screen and the toasts wait for the full one.
  const onLanding = useLocation().pathname === '/';
  return (
    <AuthProvider>
      <Suspense fallback={<ScreenFallback />}>
        <RequireFullTheme unless={onLanding}>
          <Outlet />
        </RequireFullTheme>
      </Suspense>
      <Suspense fallback={null}>
        <RequireFullTheme>
          <Toaster />
        </RequireFullTheme>
      </Suspense>
      <ScrollRestoration />
    </AuthProvider>
  );
}
