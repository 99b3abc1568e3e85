import type { RouteObject } from 'react-router-dom';
import { RootLayout } from './root-layout';

/**
 * Every route of the product. Each screen module is loaded only when visited, so the landing page does not
 * download the dashboard or the admin panel. Feature areas with many screens (dashboard, admin) own their
 * child routes inside their module.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', lazy: () => import('../features/landing/landing-page').then((m) => ({ Component: m.LandingPage })) },
      { path: '/auth', lazy: () => import('../features/auth/auth-page').then((m) => ({ Component: m.AuthPage })) },
      { path: '/signup', lazy: () => import('../features/auth/signup-page').then((m) => ({ Component: m.SignupPage })) },
      {
        path: '/forgot-password',
        lazy: () => import('../features/auth/forgot-password-page').then((m) => ({ Component: m.ForgotPasswordPage })),
      },
      {
        path: '/reset-password',
        lazy: () => import('../features/auth/reset-password-page').then((m) => ({ Component: m.ResetPasswordPage })),
      },
      {
        path: '/auth-success',
        lazy: () => import('../features/auth/auth-success-page').then((m) => ({ Component: m.AuthSuccessPage })),
      },
      ...(['privacy-policy', 'terms-of-service', 'cookie-policy', 'gdpr-compliance', 'data-security-policy'] as const).map(
        (slug): RouteObject => ({
          path: `/${slug}`,
          lazy: () => import('../features/legal/legal-page').then((m) => ({ element: <m.LegalPage slug={slug} /> })),
        }),
      ),
      // The sign-up form links /terms and /privacy (spec 2): they show the registered legal pages.
      {
        path: '/terms',
        lazy: () => import('../features/legal/legal-page').then((m) => ({ element: <m.LegalPage slug="terms-of-service" /> })),
      },
      {
        path: '/privacy',
        lazy: () => import('../features/legal/legal-page').then((m) => ({ element: <m.LegalPage slug="privacy-policy" /> })),
      },
      {
        path: '/dashboard/*',
        lazy: () => import('../features/dashboard/dashboard-app').then((m) => ({ Component: m.DashboardApp })),
      },
      { path: '/admin/*', lazy: () => import('../features/admin/admin-app').then((m) => ({ Component: m.AdminApp })) },
      { path: '*', lazy: () => import('../features/not-found/not-found-page').then((m) => ({ Component: m.NotFoundPage })) },
    ],
  },
];
