import { Heading, SimpleGrid, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { LuClock, LuDollarSign, LuTriangleAlert, LuUserCheck } from 'react-icons/lu';
import { LoadError } from '../../../components/load-error';
import { StatusBadge, statusLabel } from '../../../components/status-badge';
import { formatDate, formatMoney } from '../../../lib/format';
import { useSupabase } from '../../../lib/platform-context';
import { PageHeader } from '../common/page-header';
import { formatCount } from '../common/pagination';
import { useAdminData } from '../common/use-admin-data';
import { StatCard } from '../overview/stat-card';
import { fetchBillingOverview } from './billing-api';
import { CollectionsSection } from './collections-section';
import { byPlanAndStatus, type BillingOverview } from './billing-schema';

const TRIAL_WINDOW_DAYS = 7;

/**
 * Billing Overview (issue 14): MRR, subscriptions by plan and status, and the trials ending this week, all
 * computed by admin_billing_overview() in the database. Prices are per month for both billing cycles.
 */
export function AdminBillingPage() {
  const supabase = useSupabase();
  const { state, reload } = useAdminData('billing', () => fetchBillingOverview(supabase, TRIAL_WINDOW_DAYS));

  return (
    <>
      <PageHeader title="Billing Overview" description="Recurring revenue and subscriptions across all shops." />
      {state.status === 'error' && (
        <LoadError message="We couldn't load the billing figures." error={state.error} onRetry={reload} />
      )}
      {state.status === 'loading' && (
        <SimpleGrid columns={{ base: 1, sm: 2, xl: 4 }} gap="4" role="status" aria-label="Loading figures">
          {[0, 1, 2, 3].map((n) => (
            <Skeleton key={n} h="32" rounded="lg" />
          ))}
        </SimpleGrid>
      )}
      {state.status === 'ready' && <BillingFigures data={state.data} />}
      <Stack mt="8">
        <CollectionsSection />
      </Stack>
    </>
  );
}

function BillingFigures({ data }: { data: BillingOverview }) {
  const { statuses, rows } = byPlanAndStatus(data.groups);
  return (
    <Stack gap="8">
      <SimpleGrid columns={{ base: 1, sm: 2, xl: 4 }} gap="4">
        <StatCard
          testId="stat-mrr"
          label="Monthly Recurring Revenue"
          value={formatMoney(data.mrr)}
          help="Active and past-due subscriptions"
          icon={LuDollarSign}
        />
        <StatCard
          testId="stat-paying"
          label="Paying Subscriptions"
          value={formatCount(data.paying_subscriptions)}
          help={`Of ${formatCount(data.total_subscriptions)} in all`}
          icon={LuUserCheck}
        />
        <StatCard
          testId="stat-at-risk"
          label="MRR at Risk"
          value={formatMoney(data.at_risk_mrr)}
          help="Past-due subscriptions"
          icon={LuTriangleAlert}
        />
        <StatCard
          testId="stat-trial-mrr"
          label="Trial MRR"
          value={formatMoney(data.trial_mrr)}
          help="If every trial converts"
          icon={LuClock}
        />
      </SimpleGrid>

      <Stack gap="3">
        <Heading as="h2" size="lg">
          Subscriptions by plan and status
        </Heading>
        {rows.length === 0 ? (
          <Text color="fg.muted">No subscriptions yet.</Text>
        ) : (
          <Table.ScrollArea borderWidth="1px" rounded="lg" bg="bg" tabIndex={0} aria-label="Subscriptions by plan">
            <Table.Root size="sm" data-testid="billing-plans-table">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Plan</Table.ColumnHeader>
                  {statuses.map((s) => (
                    <Table.ColumnHeader key={s} textAlign="end">
                      {statusLabel(s)}
                    </Table.ColumnHeader>
                  ))}
                  <Table.ColumnHeader textAlign="end">Total</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">MRR</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map((row) => (
                  <Table.Row key={row.plan} data-testid="billing-plan-row">
                    <Table.Cell fontWeight="medium">{row.plan}</Table.Cell>
                    {statuses.map((s) => (
                      <Table.Cell key={s} textAlign="end">
                        {formatCount(row.counts[s] ?? 0)}
                      </Table.Cell>
                    ))}
                    <Table.Cell textAlign="end">{formatCount(row.total)}</Table.Cell>
                    <Table.Cell textAlign="end" whiteSpace="nowrap">
                      {formatMoney(row.mrr)}
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        )}
      </Stack>

      <Stack gap="3">
        <Heading as="h2" size="lg">
          Trials ending in the next {data.days} days ({formatCount(data.trials_ending_count)})
        </Heading>
        {data.trials_ending.length === 0 ? (
          <Text color="fg.muted">No trial ends in the next {data.days} days.</Text>
        ) : (
          <Table.ScrollArea borderWidth="1px" rounded="lg" bg="bg" tabIndex={0} aria-label="Trials ending">
            <Table.Root size="sm" data-testid="billing-trials-table">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Owner</Table.ColumnHeader>
                  <Table.ColumnHeader>Plan</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Price per month</Table.ColumnHeader>
                  <Table.ColumnHeader>Status</Table.ColumnHeader>
                  <Table.ColumnHeader>Trial ends</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {data.trials_ending.map((trial) => (
                  <Table.Row key={trial.user_id} data-testid="billing-trial-row">
                    <Table.Cell fontWeight="medium">
                      {trial.owner_name ?? (
                        <Text as="span" color="fg.muted">
                          Unknown owner
                        </Text>
                      )}
                    </Table.Cell>
                    <Table.Cell>{trial.plan_name}</Table.Cell>
                    <Table.Cell textAlign="end">{formatMoney(trial.price)}</Table.Cell>
                    <Table.Cell>
                      <StatusBadge status="trialing" />
                    </Table.Cell>
                    <Table.Cell whiteSpace="nowrap">{formatDate(trial.trial_ends_at)}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        )}
        {data.trials_ending_count > data.trials_ending.length && (
          <Text color="fg.muted" fontSize="sm">
            Showing the {data.trials_ending.length} soonest.
          </Text>
        )}
      </Stack>
    </Stack>
  );
}
