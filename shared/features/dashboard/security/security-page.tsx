import { SimpleGrid, Stack } from '@chakra-ui/react';
import { useSupabase } from '../../../lib/platform-context';
import { useDashboardSession } from '../dashboard-session';
import { PageHeader } from '../page-header';
import { useLoad } from '../use-load';
import { ChangePasswordCard } from './change-password-card';
import { LoginActivityCard } from './login-activity-card';
import { fetchActiveSessions, fetchLoginActivity } from './security-api';
import { SessionsCard } from './sessions-card';
import { TwoFactorCard } from './two-factor-card';

/** /dashboard/security: password, two-factor preview, sessions and sign-in history (loaded in parallel). */
export function SecurityPage() {
  const supabase = useSupabase();
  const { user } = useDashboardSession();
  const sessions = useLoad(user.id, () => fetchActiveSessions(supabase, user.id));
  const activity = useLoad(user.id, () => fetchLoginActivity(supabase, user.id));

  return (
    <>
      <PageHeader title="Security" description="Keep your account safe." />
      <Stack gap="4">
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" alignItems="start">
          <ChangePasswordCard />
          <TwoFactorCard />
        </SimpleGrid>
        <SessionsCard load={sessions} />
        <LoginActivityCard load={activity} />
      </Stack>
    </>
  );
}
