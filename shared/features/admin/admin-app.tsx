import { Center, Spinner, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { SecondFactorGate } from '../../components/two-factor/second-factor-gate';
import { useAuth } from '../../lib/auth-provider';
import { useSupabase } from '../../lib/platform-context';
import { useIsAdmin } from '../../lib/use-is-admin';
import { useSignOut } from '../../lib/use-sign-out';
import { AdminLayout } from './layout/admin-layout';
import { adminNav } from './layout/admin-nav';
import { AdminOverviewPage } from './overview/admin-overview-page';
import { AdminUsersPage } from './users/admin-users-page';
import { AdminPlansPage } from './plans/admin-plans-page';
import { AdminAccountsPage } from './accounts/admin-accounts-page';
import { AdminSupportPage } from './support/admin-support-page';
import { AdminTicketPage } from './support/admin-ticket-page';
import { AdminBillingPage } from './billing/admin-billing-page';
import { AdminActivityPage } from './activity/admin-activity-page';
import { ComingSoonPage } from './common/coming-soon-page';
import { AdminStorePcsPage } from './store-pcs/admin-store-pcs-page';
import { AdminSettingsPage } from './settings/admin-settings-page';
import { AdminContentPage } from './content/admin-content-page';

/**
 * The admin area (/admin/*). The guard only decides what the browser shows: every admin function in the
 * database checks the caller itself (private.assert_admin), so skipping this screen reveals nothing. An
 * unknown child path shows the product's 404 page, passed in by the app.
 */
export function AdminApp({ notFound }: { notFound: ReactNode }) {
  const check = useIsAdmin();
  const supabase = useSupabase();
  const { session } = useAuth();
  const { signOut, leaving } = useSignOut();

  if (check === 'loading' || leaving) {
    return (
      <Center minH="100dvh">
        <Stack align="center" gap="3" role="status">
          <Spinner size="lg" aria-hidden />
          <Text color="fg.muted">Checking access...</Text>
        </Stack>
      </Center>
    );
  }
  if (check !== 'admin') return <Navigate to="/dashboard" replace />;

  return (
    <SecondFactorGate supabase={supabase} session={session} onSignOut={() => void signOut()}>
    <Routes>
      <Route element={<AdminLayout onSignOut={() => void signOut()} />}>
        <Route index element={<AdminOverviewPage />} />
        <Route path="users" element={<AdminUsersPage />} />
        <Route path="plans" element={<AdminPlansPage />} />
        <Route path="accounts" element={<AdminAccountsPage />} />
        <Route path="support" element={<AdminSupportPage />} />
        <Route path="support/:ticketId" element={<AdminTicketPage />} />
        <Route path="logs" element={<AdminActivityPage />} />
        <Route path="billing" element={<AdminBillingPage />} />
        <Route path="store-pcs" element={<AdminStorePcsPage />} />
        <Route path="settings" element={<AdminSettingsPage />} />
        <Route path="content" element={<AdminContentPage />} />
        {adminNav
          .filter((item) => item.comingSoon)
          .map((item) => (
            <Route key={item.path} path={item.path} element={<ComingSoonPage title={item.label} summary={item.summary} />} />
          ))}
      </Route>
      <Route path="*" element={notFound} />
    </Routes>
    </SecondFactorGate>
  );
}
