import { Center, Spinner } from '@chakra-ui/react';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { AuthProvider } from '../lib/auth-provider';
import { Toaster } from '../components/toaster';
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
 * suspend while supabase-js loads in the background (docs/adr/0044).
 */
export function RootLayout() {
  return (
    <AuthProvider>
      <Suspense fallback={<ScreenFallback />}>
        <Outlet />
      </Suspense>
      <Toaster />
      <ScrollToTop />
    </AuthProvider>
  );
}
