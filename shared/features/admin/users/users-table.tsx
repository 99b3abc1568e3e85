import { Button, Table, Text } from '@chakra-ui/react';
import { LuBan, LuShieldOff } from 'react-icons/lu';
import { formatDate } from '../../../lib/format';
import type { AdminUserRow } from '../admin-schemas';
import { TruncatedText } from '../common/truncated-text';

export const SUSPEND_NOT_AVAILABLE = 'User suspension feature is not yet implemented in the database';

export interface UsersTableProps {
  rows: AdminUserRow[];
  busy: boolean;
  /** Id of the visible text that explains why Suspend is disabled. */
  suspendNoteId: string;
  /** Removes the user's two-factor sign-in (a lost phone, no recovery code left); written to the security trail. */
  onResetTwoFactor?: (user: AdminUserRow) => void;
}

/**
 * One page of profiles. Long names and businesses are cut with an ellipsis (full text on hover); the table
 * scrolls sideways on narrow screens instead of squeezing the columns.
 */
export function UsersTable({ rows, busy, suspendNoteId, onResetTwoFactor }: UsersTableProps) {
  return (
    <Table.ScrollArea borderWidth="1px" rounded="lg" bg="bg" tabIndex={0} aria-label="Users table">
      <Table.Root size="sm" aria-busy={busy} opacity={busy ? 0.6 : 1} data-testid="users-table">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Name</Table.ColumnHeader>
            <Table.ColumnHeader>Business</Table.ColumnHeader>
            <Table.ColumnHeader>Type</Table.ColumnHeader>
            <Table.ColumnHeader>Phone</Table.ColumnHeader>
            <Table.ColumnHeader>Joined</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((user) => (
            <Table.Row key={user.id} data-testid="user-row">
              <Table.Cell fontWeight="medium" data-testid="user-name">
                {user.full_name ? (
                  <TruncatedText text={user.full_name} maxW="14rem" />
                ) : (
                  <Text as="span" color="fg.muted">Not provided</Text>
                )}
              </Table.Cell>
              <Table.Cell>{user.business_name ? <TruncatedText text={user.business_name} maxW="12rem" /> : '—'}</Table.Cell>
              <Table.Cell>{user.business_type ?? '—'}</Table.Cell>
              <Table.Cell whiteSpace="nowrap">{user.phone ?? '—'}</Table.Cell>
              <Table.Cell whiteSpace="nowrap" data-testid="user-joined">
                {formatDate(user.created_at)}
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                <Button
                  size="xs"
                  variant="outline"
                  colorPalette="red"
                  disabled
                  title={SUSPEND_NOT_AVAILABLE}
                  aria-describedby={suspendNoteId}
                >
                  <LuBan aria-hidden /> Suspend
                </Button>
                {/* After Suspend: the column starts where it did, so Suspend stays in view on narrow screens. */}
                {onResetTwoFactor && (
                  <Button size="xs" variant="outline" ml="2" onClick={() => onResetTwoFactor(user)}>
                    <LuShieldOff aria-hidden /> Reset two-factor
                  </Button>
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
