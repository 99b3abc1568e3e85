import { Badge, Flex, HStack, Stack, Text } from '@chakra-ui/react';
import { LuSmartphone } from 'react-icons/lu';
import { useSupabase } from '../../../lib/platform-context';
import { formatDateTime } from '../../../lib/format';
import { verifiedFactors } from '../../../lib/two-factor-api';
import { useDashboardSession } from '../dashboard-session';
import { LoadedList } from '../loaded-list';
import { SectionCard } from '../section-card';
import { useLoad } from '../use-load';
import { EnrollDialog } from './enroll-dialog';
import { RecoveryCodesDialog } from './recovery-codes-dialog';
import { RemoveFactorDialog } from './remove-factor-dialog';

/**
 * Two-factor sign-in with an authenticator app (supabase-js auth.mfa, docs/adr/0205): set one up, see and remove
 * them, and the recovery codes. With one confirmed, every sign-in asks for a code (SecondFactorGate).
 */
export function TwoFactorCard() {
  const supabase = useSupabase();
  const { user } = useDashboardSession();
  const factors = useLoad(user.id, () => verifiedFactors(supabase));
  const enabled = factors.state.status === 'ready' && factors.state.data.length > 0;

  return (
    <SectionCard
      title="Two-Factor Authentication"
      description="Add an extra layer of security to your account."
      actions={<EnrollDialog onDone={factors.reload} />}
    >
      <Stack gap="3">
        <HStack gap="2">
          <Text fontSize="sm">Two-factor authentication</Text>
          <Badge colorPalette={enabled ? 'green' : 'gray'} data-testid="two-factor-status">
            {enabled ? 'On' : 'Off'}
          </Badge>
        </HStack>
        <Text fontSize="sm" color="fg.muted">
          {enabled
            ? 'Signing in asks for a code from your authenticator app.'
            : 'Signing in asks only for your password. Set up an authenticator app to require a code too.'}
        </Text>
        <LoadedList load={factors} errorMessage="We couldn't load your authenticators." emptyText="No authenticator apps yet." testId="authenticators" gap="2">
          {(factor) => (
            <Flex as="li" key={factor.id} align="center" gap="3" borderWidth="1px" rounded="md" p="2">
              <LuSmartphone aria-hidden />
              <Stack gap="0" flex="1" minW="0">
                <Text fontWeight="medium">{factor.friendly_name || 'Authenticator app'}</Text>
                <Text fontSize="xs" color="fg.muted">
                  Added {formatDateTime(factor.created_at)}
                </Text>
              </Stack>
              <RemoveFactorDialog factorId={factor.id} name={factor.friendly_name || 'Authenticator app'} onDone={factors.reload} />
            </Flex>
          )}
        </LoadedList>
        {enabled && (
          <div>
            <RecoveryCodesDialog />
          </div>
        )}
      </Stack>
    </SectionCard>
  );
}
