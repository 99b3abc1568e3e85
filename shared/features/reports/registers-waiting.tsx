import { useEffect, useState } from 'react';
import { Badge, HStack, List, Stack, Text } from '@chakra-ui/react';
import { formatDateTime } from '../../lib/format';
import { useSupabase } from '../../lib/platform-context';
import { useLiveChanges } from '../../lib/use-live-changes';
import { fetchRegisterSyncStates, type RegisterSyncState } from './registers-waiting-api';

/** A register not heard from for this long while holding entries is probably offline. */
const QUIET_MS = 3 * 60_000;

/**
 * Owners and managers: which registers of the business hold sales not yet sent (each register reports its outbox,
 * use-outbox-report.ts), live. A count is the register's last report: a register offline cannot report, so the
 * time of that report is shown with it.
 */
export function RegistersWaiting({ businessId }: { businessId: string }) {
  const supabase = useSupabase();
  const [rows, setRows] = useState<RegisterSyncState[] | null>(null);
  // When the rows were read: "quiet" is judged against it (a render must not read the clock).
  const [readAt, setReadAt] = useState(0);
  const [failed, setFailed] = useState(false);
  const [version, setVersion] = useState(0);
  useLiveChanges(supabase, [{ table: 'register_sync_states', filter: `business_id=eq.${businessId}` }], () => setVersion((v) => v + 1));
  useEffect(() => {
    let cancelled = false;
    fetchRegisterSyncStates(supabase, businessId).then(
      (list) => { if (!cancelled) { setRows(list); setReadAt(Date.now()); setFailed(false); } },
      () => { if (!cancelled) setFailed(true); },
    );
    return () => { cancelled = true; };
  }, [supabase, businessId, version]);

  const holding = (rows ?? []).filter((row) => row.waiting > 0);
  return (
    <Stack as="section" aria-label="Registers waiting to sync" gap="2" borderWidth="1px" rounded="lg" bg="bg" p="4" minW="0" data-testid="overview-registers-waiting">
      <Text fontSize="sm" color="fg.muted" fontWeight="medium">Registers waiting to sync</Text>
      {failed && <Text color="fg.error">We couldn't load the registers' reports.</Text>}
      {!failed && rows && holding.length === 0 && <Text color="fg.muted">Every register has sent its sales.</Text>}
      {holding.length > 0 && (
        <List.Root gap="1" variant="plain">
          {holding.map((row) => {
            const quiet = readAt - Date.parse(row.reported_at) > QUIET_MS;
            return (
              <List.Item key={row.register_id} data-testid="overview-register-waiting" data-register={row.register_id}>
                <HStack justify="space-between" gap="2" w="full" wrap="wrap">
                  <Text truncate>{row.store_name}: {row.register_name}</Text>
                  <HStack gap="2">
                    <Badge colorPalette={quiet ? 'red' : 'orange'} data-testid="overview-register-waiting-count">{row.waiting} waiting</Badge>
                    <Text fontSize="sm" color="fg.muted">
                      {row.oldest_waiting_at ? `since ${formatDateTime(row.oldest_waiting_at)}, ` : ''}{quiet ? 'last heard' : 'reported'} {formatDateTime(row.reported_at)}
                    </Text>
                  </HStack>
                </HStack>
              </List.Item>
            );
          })}
        </List.Root>
      )}
    </Stack>
  );
}
