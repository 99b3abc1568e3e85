import { Box, Code, Heading, Stack, Table, Text } from '@chakra-ui/react';
import { format } from 'date-fns';
import { useAdminData } from '../common/use-admin-data';
import { useSupabase } from '../../../lib/platform-context';
import { fetchSettingChanges } from './platform-settings-api';

const shown = (value: unknown) => (value === null || value === undefined || value === '' ? '(empty)' : typeof value === 'string' ? value : JSON.stringify(value));

/** The trail of settings changes and legal publications: who, when, each setting before and after. */
export function SettingChanges({ version }: { version: number }) {
  const supabase = useSupabase();
  const { state } = useAdminData(`changes#${version}`, () => fetchSettingChanges(supabase));
  const rows = state.status === 'ready' ? state.data : [];
  return (
    <Stack gap="3" as="section" aria-labelledby="settings-trail">
      <Heading as="h2" size="lg" id="settings-trail">Change history</Heading>
      {state.status === 'error' && <Text color="fg.error">{state.error.message}</Text>}
      {state.status === 'ready' && rows.length === 0 && <Text color="fg.muted">No change yet.</Text>}
      {rows.length > 0 && (
        // Focusable, so a keyboard can scroll the history sideways on a phone (axe: scrollable-region-focusable).
        <Box overflowX="auto" tabIndex={0} aria-label="Change history table">
          <Table.Root size="sm">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>When</Table.ColumnHeader>
                <Table.ColumnHeader>Who</Table.ColumnHeader>
                <Table.ColumnHeader>Setting</Table.ColumnHeader>
                <Table.ColumnHeader>Before</Table.ColumnHeader>
                <Table.ColumnHeader>After</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.flatMap((change) =>
                Object.keys(change.after).map((key) => (
                  <Table.Row key={`${change.id}-${key}`}>
                    <Table.Cell whiteSpace="nowrap">{format(new Date(change.changed_at), 'MMM d, yyyy HH:mm')}</Table.Cell>
                    <Table.Cell>{change.actor}</Table.Cell>
                    <Table.Cell><Code>{change.subject === 'settings' ? key : `${change.subject} ${key}`}</Code></Table.Cell>
                    <Table.Cell maxW="xs" truncate>{shown(change.before[key])}</Table.Cell>
                    <Table.Cell maxW="xs" truncate>{shown(change.after[key])}</Table.Cell>
                  </Table.Row>
                )),
              )}
            </Table.Body>
          </Table.Root>
        </Box>
      )}
    </Stack>
  );
}
