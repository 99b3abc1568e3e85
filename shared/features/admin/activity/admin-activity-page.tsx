import { useId, useState } from 'react';
import { Badge, Button, Field, HStack, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { LoadError } from '../../../components/load-error';
import { LoadingText } from '../../../components/loading-text';
import { notify } from '../../../components/toaster';
import { useSupabase } from '../../../lib/platform-context';
import { useLiveChanges } from '../../../lib/use-live-changes';
import { PageHeader } from '../common/page-header';
import { useAdminData } from '../common/use-admin-data';
import { fetchPlatformEvents, type EventKind, type PageStart } from './activity-logs-api';

const PAGE_SIZE = 50;
const kindLabel: Record<string, { label: string; palette: string }> = {
  signup: { label: 'Sign-up', palette: 'blue' },
  plan: { label: 'Plan change', palette: 'purple' },
  suspension: { label: 'Suspension', palette: 'red' },
};

/**
 * Activity Logs: platform events (sign-ups, plan changes, suspensions) computed by admin_platform_events,
 * newest first, paged by keyset (Older / Newest), so a page costs the same at any depth.
 */
export function AdminActivityPage() {
  const supabase = useSupabase();
  const kindId = useId();
  const [kind, setKind] = useState<EventKind | null>(null);
  // The cursors of the pages walked so far: the last is the page shown; Newer pops one.
  const [trail, setTrail] = useState<(PageStart | null)[]>([null]);
  const start = trail[trail.length - 1] ?? null;
  const { state, reload } = useAdminData(JSON.stringify([kind, start]),
    () => fetchPlatformEvents(supabase, kind, start, PAGE_SIZE), (error) => notify.error('Failed to fetch activity', error.message));
  const shown = state.status === 'ready' ? state.data : state.previous;
  // The newest page tails the trail live (issue 28): a suspension or its lifting anywhere on the platform shows
  // without a reload (admins read those entries of public.activity, at aal2 once enrolled). Older pages stay put.
  useLiveChanges(supabase, [{ table: 'activity', event: 'INSERT' }], reload, trail.length === 1);

  return (
    <>
      <PageHeader title="Activity Logs" description="Platform events, newest first: sign-ups, plan changes and suspensions." />
      <Stack gap="4">
        <Field.Root maxW="xs">
          <Field.Label htmlFor={kindId}>Kind</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field id={kindId} bg="bg" value={kind ?? ''} onChange={(event) => {
              setKind((event.currentTarget.value || null) as EventKind | null);
              setTrail([null]);
            }}>
              <option value="">All events</option>
              <option value="signup">Sign-ups</option>
              <option value="plan">Plan changes</option>
              <option value="suspension">Suspensions</option>
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        {state.status === 'error' && <LoadError message="Failed to fetch activity" error={state.error} onRetry={reload} />}
        {!shown && state.status === 'loading' && <LoadingText />}
        {shown && (
          <>
            {shown.rows.length === 0 ? <Text color="fg.muted">No events yet</Text> : (
              <Table.ScrollArea borderWidth="1px" rounded="lg" bg="bg" tabIndex={0} aria-label="Platform events table">
                <Table.Root size="sm" aria-label="Platform events" aria-busy={state.status === 'loading'}>
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeader>When</Table.ColumnHeader><Table.ColumnHeader>Event</Table.ColumnHeader>
                      <Table.ColumnHeader>Who</Table.ColumnHeader><Table.ColumnHeader>Details</Table.ColumnHeader>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {shown.rows.map((row) => (
                      <Table.Row key={row.event_id}>
                        <Table.Cell whiteSpace="nowrap">{new Date(row.at).toLocaleString()}</Table.Cell>
                        <Table.Cell>
                          <Badge colorPalette={kindLabel[row.kind]?.palette ?? 'gray'}>{kindLabel[row.kind]?.label ?? row.kind}</Badge>
                        </Table.Cell>
                        <Table.Cell>{row.subject}</Table.Cell>
                        <Table.Cell>{row.detail || '-'}</Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table.Root>
              </Table.ScrollArea>
            )}
            <HStack gap="2">
              <Button size="sm" variant="outline" disabled={trail.length <= 1 || state.status === 'loading'}
                onClick={() => setTrail((t) => t.slice(0, -1))}>Newer</Button>
              <Button size="sm" variant="outline" disabled={!shown.next || state.status === 'loading'}
                onClick={() => shown.next && setTrail((t) => [...t, shown.next])}>Older</Button>
              <Text fontSize="sm" color="fg.muted">Page {trail.length}</Text>
            </HStack>
          </>
        )}
      </Stack>
    </>
  );
}
