import { useId, useState } from 'react';
import { Badge, Field, HStack, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { formatDistanceToNow } from 'date-fns';
import { LoadError } from '../../../components/load-error';
import { LoadingText } from '../../../components/loading-text';
import { notify } from '../../../components/toaster';
import { useSupabase } from '../../../lib/platform-context';
import { PageHeader } from '../common/page-header';
import { useAdminData } from '../common/use-admin-data';
import { fetchStorePcs, versionShares } from './store-pcs-api';

const platformLabel: Record<string, string> = { win32: 'Windows', darwin: 'macOS', linux: 'Linux' };

/**
 * Store PCs (docs/adr/0270): which desktop version each store PC runs, from the heartbeat the app sends, so a
 * staged rollout can be watched: the split by version first, then each device's latest report.
 */
export function AdminStorePcsPage() {
  const supabase = useSupabase();
  const daysId = useId();
  const [days, setDays] = useState(30);
  const { state, reload } = useAdminData(String(days), () => fetchStorePcs(supabase, days),
    (error) => notify.error('Failed to fetch store PCs', error.message));
  const rows = state.status === 'ready' ? state.data : state.previous;

  return (
    <>
      <PageHeader title="Store PCs" description="Desktop app versions across store PCs, from each PC's latest report." />
      <Stack gap="4">
        <Field.Root maxW="xs">
          <Field.Label htmlFor={daysId}>Seen in the last</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field id={daysId} bg="bg" value={days} onChange={(event) => setDays(Number(event.currentTarget.value))}>
              <option value={1}>24 hours</option>
              <option value={7}>7 days</option>
              <option value={30}>30 days</option>
              <option value={90}>90 days</option>
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        {state.status === 'error' && <LoadError message="Failed to fetch store PCs" error={state.error} onRetry={reload} />}
        {!rows && state.status === 'loading' && <LoadingText />}
        {rows && rows.length === 0 && <Text color="fg.muted">No store PC has reported in this period</Text>}
        {rows && rows.length > 0 && (
          <>
            <HStack gap="2" wrap="wrap" aria-label="Devices by version" data-testid="store-pc-versions">
              {versionShares(rows).map((share) => (
                <Badge key={share.version} size="lg" colorPalette={share.version.includes('-') ? 'purple' : 'blue'}>
                  {share.version}: {share.devices} ({share.percent}%)
                </Badge>
              ))}
            </HStack>
            <Table.ScrollArea borderWidth="1px" rounded="lg" bg="bg" tabIndex={0} aria-label="Store PCs table">
              <Table.Root size="sm" aria-label="Store PCs" aria-busy={state.status === 'loading'}>
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>Business</Table.ColumnHeader><Table.ColumnHeader>Version</Table.ColumnHeader>
                    <Table.ColumnHeader>Channel</Table.ColumnHeader><Table.ColumnHeader>System</Table.ColumnHeader>
                    <Table.ColumnHeader>Last report</Table.ColumnHeader><Table.ColumnHeader>Device</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {rows.map((row) => (
                    <Table.Row key={`${row.business_id}:${row.device_id}`}>
                      <Table.Cell>{row.business_name}</Table.Cell>
                      <Table.Cell>{row.app_version}</Table.Cell>
                      <Table.Cell><Badge colorPalette={row.channel === 'beta' ? 'purple' : 'gray'}>{row.channel}</Badge></Table.Cell>
                      <Table.Cell>{platformLabel[row.platform] ?? row.platform} {row.arch}</Table.Cell>
                      <Table.Cell whiteSpace="nowrap" title={new Date(row.reported_at).toLocaleString()}>
                        {formatDistanceToNow(new Date(row.reported_at), { addSuffix: true })}
                      </Table.Cell>
                      {/* The app's random id, shortened: enough to tell two PCs of one shop apart. */}
                      <Table.Cell fontFamily="mono">{row.device_id.slice(0, 8)}</Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
            {Number(rows[0]?.total_count ?? 0) > rows.length && (
              <Text color="fg.muted" textStyle="sm">Showing the {rows.length} most recent of {rows[0]?.total_count} store PCs.</Text>
            )}
          </>
        )}
      </Stack>
    </>
  );
}
