import { useState } from 'react';
import { Badge, Button, Flex, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import { LuLogOut, LuMonitor } from 'react-icons/lu';
import { notify } from '../../../components/toaster';
import { useSupabase } from '../../../lib/platform-context';
import { formatDateTime } from '../../../lib/format';
import { sessionLastActive } from '../../../lib/relative-time';
import { useDashboardSession } from '../dashboard-session';
import { LoadedList } from '../loaded-list';
import { SectionCard } from '../section-card';
import type { Load } from '../use-load';
import { isCurrentSession, sessionIdFromAccessToken } from './current-session';
import { logoutOtherDevices, type ActiveSession } from './security-api';

function SessionRow({ row, current }: { row: ActiveSession; current: boolean }) {
  return (
    <Flex as="li" align="center" gap="3" borderWidth="1px" rounded="md" p="3" data-current={current || undefined}>
      <LuMonitor size="22" aria-hidden style={{ flexShrink: 0 }} />
      <Stack gap="0" flex="1" minW="0">
        <HStack gap="2" wrap="wrap">
          <Text fontWeight="semibold">{row.device}</Text>
          {current && <Badge colorPalette="green">Current</Badge>}
          {/* Passed the authenticator code (aal2), not the password alone. */}
          {row.two_factor && <Badge colorPalette="blue">Two-factor</Badge>}
        </HStack>
        <Text fontSize="sm" color="fg.muted">
          {row.location ?? 'Unknown location'} · {sessionLastActive(row.last_active)}
        </Text>
        {/* Two sign-ins from one browser share device, place and "Active now": when each began tells them apart. */}
        <Text fontSize="sm" color="fg.muted" data-testid="session-signed-in">
          Signed in {formatDateTime(row.created_at)}
        </Text>
      </Stack>
      {!current && (
        // Ending one chosen session needs a server call the auth service does not offer to users.
        <IconButton variant="ghost" size="sm" disabled aria-label={`Log out ${row.device}`} title="Coming soon">
          <LuLogOut />
        </IconButton>
      )}
    </Flex>
  );
}

export function SessionsCard({ load }: { load: Load<ActiveSession[]> }) {
  const supabase = useSupabase();
  const { session } = useDashboardSession();
  const [ending, setEnding] = useState(false);
  const currentId = sessionIdFromAccessToken(session.access_token);

  const endOthers = async () => {
    setEnding(true);
    try {
      await logoutOtherDevices(supabase);
      notify.success('Sessions Ended', "You've been logged out from all other devices.");
      load.reload();
    } catch (error) {
      notify.error('Error', error instanceof Error ? error.message : String(error));
    } finally {
      setEnding(false);
    }
  };

  return (
    <SectionCard
      title="Active Sessions"
      description="Devices signed in to your account."
      actions={
        <Button size="sm" variant="outline" colorPalette="red" loading={ending} onClick={() => void endOthers()}>
          Logout Other Devices
        </Button>
      }
    >
      <LoadedList
        load={load}
        errorMessage="We couldn't load your active sessions."
        emptyText="No active sessions"
        testId="active-sessions"
        gap="2"
      >
        {(row) => <SessionRow key={row.id} row={row} current={isCurrentSession(row, currentId)} />}
      </LoadedList>
    </SectionCard>
  );
}
