import { Button, Flex, Stack } from '@chakra-ui/react';
import { LuLogOut } from 'react-icons/lu';
import { useDashboardSession } from '../dashboard-session';
import { PageHeader } from '../page-header';
import { SectionCard } from '../section-card';
import { ChangePasswordForm } from './change-password-form';
import { DeleteAccountDialog } from './delete-account-dialog';
import { ExportMyDataButton } from './export-my-data-button';

/** /dashboard/settings: password and account actions. */
export function SettingsPage() {
  const { signOut } = useDashboardSession();
  return (
    <>
      <PageHeader title="Settings" description="Manage your password and account." />
      <Stack gap="4">
        <SectionCard title="Change Password" description="Choose a new password of at least 6 characters.">
          <ChangePasswordForm />
        </SectionCard>
        <SectionCard
          title="Account Actions"
          description="Sign out of this device, download your personal data or request account deletion."
        >
          <Flex gap="3" wrap="wrap">
            <Button variant="outline" onClick={() => void signOut()}>
              <LuLogOut aria-hidden /> Sign Out
            </Button>
            <ExportMyDataButton />
            <DeleteAccountDialog />
          </Flex>
        </SectionCard>
      </Stack>
    </>
  );
}
