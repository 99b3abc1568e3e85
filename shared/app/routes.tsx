import { lazy } from 'react';
import { Route, Routes } from 'react-router-dom';
import { RootLayout } from './root-layout';
import { lazyScreen } from './lazy-screen';

// Every screen module is loaded only when visited, so the landing page does not download the dashboard or the
// admin panel. Feature areas with many screens (dashboard, admin) own their child routes inside their module.
// The signed-in areas' screens come from screen-modules.ts, which the entry preloads for a deep link (docs/adr/0418).
const LandingPage = lazy(() => import('../features/landing/landing-page').then((m) => ({ default: m.LandingPage })));
const AuthPage = lazy(() => import('../features/auth/auth-page').then((m) => ({ default: m.AuthPage })));
const SignupPage = lazy(() => import('../features/auth/signup-page').then((m) => ({ default: m.SignupPage })));
const ForgotPasswordPage = lazy(() =>
  import('../features/auth/forgot-password-page').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('../features/auth/reset-password-page').then((m) => ({ default: m.ResetPasswordPage })),
);
const AuthSuccessPage = lazy(() => import('../features/auth/auth-success-page').then((m) => ({ default: m.AuthSuccessPage })));
const LegalPage = lazy(() => import('../features/legal/legal-page').then((m) => ({ default: m.LegalPage })));
const DashboardApp = lazyScreen('dashboard', (m) => m.DashboardApp);
const WorkspaceApp = lazyScreen('workspace', (m) => m.WorkspaceApp);
const WorkspaceFrame = lazyScreen('workspaceFrame', (m) => m.WorkspaceFrame);
const WorkspaceSwitcher = lazyScreen('workspaceFrame', (m) => m.WorkspaceSwitcher);
const StorePcHeartbeat = lazyScreen('storePcHeartbeat', (m) => m.StorePcHeartbeat);
const BusinessGlance = lazyScreen('workspaceFrame', (m) => m.BusinessGlance);
const CatalogApp = lazyScreen('catalog', (m) => m.CatalogApp);
const InventoryApp = lazyScreen('inventory', (m) => m.InventoryApp);
const PosApp = lazyScreen('pos', (m) => m.PosApp);
const ReportsApp = lazyScreen('reports', (m) => m.ReportsApp);
const BusinessOverview = lazyScreen('businessOverview', (m) => m.BusinessOverview);
const AdminApp = lazyScreen('admin', (m) => m.AdminApp);
const NotFoundPage = lazy(() => import('../features/not-found/not-found-page').then((m) => ({ default: m.NotFoundPage })));

const legalSlugs = ['privacy-policy', 'terms-of-service', 'cookie-policy', 'gdpr-compliance', 'data-security-policy'] as const;

/**
 * Every route of the product, declared with <Routes> rather than a data router: the product uses no loaders
 * or actions, and the declarative router keeps the landing's JavaScript inside its budget (docs/adr/0004).
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route path="/" element={<LandingPage />} />
        <Route path="/auth" element={<AuthPage />} />
        <Route path="/signup" element={<SignupPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/auth-success" element={<AuthSuccessPage />} />
        {legalSlugs.map((slug) => (
          <Route key={slug} path={`/${slug}`} element={<LegalPage slug={slug} />} />
        ))}
        {/* The sign-up form links /terms and /privacy (spec 2): they show the registered legal pages. */}
        <Route path="/terms" element={<LegalPage slug="terms-of-service" />} />
        <Route path="/privacy" element={<LegalPage slug="privacy-policy" />} />
        <Route path="/dashboard/*" element={<DashboardApp notFound={<NotFoundPage />} business={<WorkspaceApp />}
          frame={WorkspaceFrame} slots={{ header: <><WorkspaceSwitcher /><StorePcHeartbeat /></>, overview: <BusinessGlance />, businessOverview: <BusinessOverview /> }}
          catalog={<CatalogApp />} inventory={<InventoryApp />} pos={<PosApp />} reports={<ReportsApp />} />} />
        <Route path="/admin/*" element={<AdminApp notFound={<NotFoundPage />} />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
