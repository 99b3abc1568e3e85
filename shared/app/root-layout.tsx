import { Outlet, ScrollRestoration } from 'react-router-dom';
import { AuthProvider } from '../lib/auth-provider';
import { Toaster } from '../components/toaster';

/** Wraps every route: the auth state needs the router (deep links navigate), so it lives here. */
export function RootLayout() {
  return (
    <AuthProvider>
      <Outlet />
      <Toaster />
      <ScrollRestoration />
    </AuthProvider>
  );
}
