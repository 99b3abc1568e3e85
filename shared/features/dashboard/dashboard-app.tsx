import { Fragment, useEffect, useMemo, type ComponentType, type ReactNode } from 'react';
import { Center, Spinner, VisuallyHidden } from '@chakra-ui/react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { SecondFactorGate } from '../../components/two-factor/second-factor-gate';
import { useAuth } from '../../lib/auth-provider';
import { useSupabase } from '../../lib/platform-context';
import { useSignOut } from '../../lib/use-sign-out';
import { DashboardSessionContext, type DashboardSession } from './dashboard-session';
import { DashboardLayout } from './layout/dashboard-layout';
import { DashboardSlotsContext, type DashboardSlots } from './layout/dashboard-slots';
import { OverviewPage } from './overview/overview-page';
import { ProfilePage } from './profile/profile-page';
import { SettingsPage } from './settings/settings-page';
import { BillingPage } from './billing/billing-page';
import { CheckoutReturnPage } from './billing/checkout-return-page';
import { SecurityPage } from './security/security-page';
import { SupportPage } from './support/support-page';
import { TicketPage } from './support/ticket-page';
import { UpdateReady } from './update-ready';

/**
 * The customer area (/dashboard/*): signed-in guard, shared layout and the child screens. An unknown child
 * path shows the product's 404 page (spec 2), which the app passes in: features never import each other.
 */
export function DashboardApp({ notFound, business, catalog, inventory, pos, reports, frame, slots }: {
  notFound: ReactNode; business?: ReactNode; catalog?: ReactNode; inventory?: ReactNode; pos?: ReactNode; reports?: ReactNode;
  /** Wraps every screen (the workspace provider), so the header and the screens share one state. */
  frame?: ComponentType<{ children: ReactNode }>;
  slots?: DashboardSlots;
}) {
  const { user, session, loading } = useAuth();
  const supabase = useSupabase();
  const { signOut, leaving } = useSignOut();

  // The stored session may have been ended elsewhere ("Logout Other Devices" on another device): asking the
  // auth service once per visit lets supabase-js notice (session_not_found), drop it and send us to /auth.
  const userId = user?.id;
  useEffect(() => {
    if (!userId) return;
    void supabase.auth.getUser().then(({ error }) => {
      if (error) console.warn('Session check failed:', error.message);
    });
  }, [supabase, userId]);

  const value = useMemo<DashboardSession | null>(
    () => (user && session ? { user, session, signOut } : null),
    [user, session, signOut],
  );

  const slotValue = useMemo<DashboardSlots>(() => slots ?? {}, [slots]);
  const Frame = frame ?? Fragment;

  if (loading || leaving) {
    return (
      <Center minH="100dvh" role="status">
        <Spinner size="lg" />
        <VisuallyHidden>Loading...</VisuallyHidden>
      </Center>
    );
  }
  if (!value) return <Navigate to="/auth" replace />;

  return (
    <SecondFactorGate supabase={supabase} session={session} onSignOut={() => void signOut()}>
    <DashboardSessionContext.Provider value={value}>
      <UpdateReady />
      <DashboardSlotsContext.Provider value={slotValue}>
      <Frame>
      <Routes>
        <Route element={<DashboardLayout />}>
          <Route index element={<OverviewPage />} />
          <Route path="profile" element={<ProfilePage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="billing" element={<BillingPage />} />
          <Route path="billing/return" element={<CheckoutReturnPage />} />
          <Route path="security" element={<SecurityPage />} />
          <Route path="support" element={<SupportPage />} />
          <Route path="support/tickets/:ticketId" element={<TicketPage />} />
          {/* The Business area is its own feature; the app passes it in like the 404 page. */}
          {business && <Route path="business/*" element={business} />}
          {catalog && <Route path="catalog/*" element={catalog} />}
          {inventory && <Route path="inventory/*" element={inventory} />}
          {pos && <Route path="pos/*" element={pos} />}
          {reports && <Route path="reports/*" element={reports} />}
        </Route>
        <Route path="*" element={notFound} />
      </Routes>
      </Frame>
      </DashboardSlotsContext.Provider>
    </DashboardSessionContext.Provider>
    </SecondFactorGate>
  );
}
