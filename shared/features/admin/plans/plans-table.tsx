import { Table, Text } from '@chakra-ui/react';
import { StatusBadge } from '../../../components/status-badge';
import { formatDate } from '../../../lib/format';
import { planPriceLine } from '../../../lib/plan-price';
import type { AdminPlanRow } from '../admin-schemas';
import { TruncatedText } from '../common/truncated-text';

/** One page of user plans with their owners' names. */
export function PlansTable({ rows, busy }: { rows: AdminPlanRow[]; busy: boolean }) {
  return (
    <Table.ScrollArea borderWidth="1px" rounded="lg" bg="bg" tabIndex={0} aria-label="Plans table">
      <Table.Root size="sm" aria-busy={busy} opacity={busy ? 0.6 : 1} data-testid="plans-table">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Owner</Table.ColumnHeader>
            <Table.ColumnHeader>Plan</Table.ColumnHeader>
            <Table.ColumnHeader>Price</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader>Auto-renew</Table.ColumnHeader>
            <Table.ColumnHeader>Next billing</Table.ColumnHeader>
            <Table.ColumnHeader>Created</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((plan) => (
            <Table.Row key={plan.id} data-testid="plan-row">
              <Table.Cell fontWeight="medium" data-testid="plan-owner">
                {plan.owner_name ? (
                  <TruncatedText text={plan.owner_name} maxW="14rem" />
                ) : (
                  <Text as="span" color="fg.muted">Unknown owner</Text>
                )}
              </Table.Cell>
              <Table.Cell data-testid="plan-name">{plan.plan_name}</Table.Cell>
              {/* Prices are per month for both cycles (spec 9): the same line the owner reads. */}
              <Table.Cell whiteSpace="nowrap">{planPriceLine(plan)}</Table.Cell>
              <Table.Cell>
                <StatusBadge status={plan.status} />
              </Table.Cell>
              <Table.Cell>{plan.auto_renew ? 'On' : 'Off'}</Table.Cell>
              <Table.Cell whiteSpace="nowrap">{formatDate(plan.next_billing_date, '—')}</Table.Cell>
              <Table.Cell whiteSpace="nowrap">{formatDate(plan.created_at)}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
