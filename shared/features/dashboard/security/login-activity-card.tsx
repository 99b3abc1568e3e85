import { Flex, Stack, Text } from '@chakra-ui/react';
import { formatDateTime } from '../../../lib/format';
import { LoadedList } from '../loaded-list';
import { SectionCard } from '../section-card';
import type { Load } from '../use-load';
import type { LoginEntry } from './security-api';

/** inet arrives as text over the REST API; anything else means it is unknown. */
function ipText(ip: unknown): string {
  return typeof ip === 'string' && ip ? ip : 'Unknown IP';
}

export function LoginActivityCard({ load }: { load: Load<LoginEntry[]> }) {
  return (
    <SectionCard title="Login Activity" description="Your 10 most recent sign-ins.">
      <LoadedList
        load={load}
        errorMessage="We couldn't load your login activity."
        emptyText="No login activity recorded"
        testId="login-activity"
      >
        {(row) => (
          <Flex
            as="li"
            key={row.id}
            gap="3"
            py="3"
            borderBottomWidth="1px"
            _last={{ borderBottomWidth: 0 }}
            justify="space-between"
            wrap="wrap"
          >
            <Stack gap="0" minW="0">
              <Text fontWeight="medium">{row.device}</Text>
              <Text fontSize="sm" color="fg.muted">
                {formatDateTime(row.login_at)}
              </Text>
            </Stack>
            <Stack gap="0" textAlign={{ base: 'start', sm: 'end' }}>
              <Text fontSize="sm">{row.location ?? 'Unknown location'}</Text>
              <Text fontSize="sm" color="fg.muted" fontFamily="mono">
                {ipText(row.ip_address)}
              </Text>
            </Stack>
          </Flex>
        )}
      </LoadedList>
    </SectionCard>
  );
}
