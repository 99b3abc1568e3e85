import { Alert, Heading, SimpleGrid, Skeleton, Stack } from '@chakra-ui/react';
import { LuBadgeCheck, LuCircleX, LuRefreshCcw, LuTrendingDown, LuWallet } from 'react-icons/lu';
import { LoadError } from '../../../components/load-error';
import { formatMoney } from '../../../lib/format';
import { useSupabase } from '../../../lib/platform-context';
import { AdminApiError } from '../admin-api';
import { formatCount } from '../common/pagination';
import { useAdminData } from '../common/use-admin-data';
import { StatCard } from '../overview/stat-card';
import { collectionsSchema, conversionRate, type Collections } from './collections-schema';

const DAYS = 30;

async function fetchCollections(supabase: ReturnType<typeof useSupabase>): Promise<Collections> {
  const { data, error } = await supabase.rpc('admin_billing_collections', { _days: DAYS });
  if (error) throw new AdminApiError(error.message, error.code);
  return collectionsSchema.parse(data);
}

/** What the payment provider collected, failed to collect and refunded; trials and their conversion; churn. */
export function CollectionsSection() {
  const supabase = useSupabase();
  const { state, reload } = useAdminData('billing-collections', () => fetchCollections(supabase));
  return (
    <Stack gap="3" aria-label="Collections">
      <Heading as="h2" size="lg">Collections, last {DAYS} days</Heading>
      {state.status === 'error' && <LoadError message="We couldn't load the collections." error={state.error} onRetry={reload} />}
      {state.status === 'loading' && <Skeleton h="32" rounded="lg" />}
      {state.status === 'ready' && (
        <>
          {state.data.webhook_failures > 0 && (
            <Alert.Root status="warning" role="alert">
              <Alert.Indicator />
              <Alert.Description>
                {formatCount(state.data.webhook_failures)} payment provider events could not be applied yet (they are retried).
                Check the billing-webhook function's logs and its STRIPE_WEBHOOK_SECRET.
              </Alert.Description>
            </Alert.Root>
          )}
          {state.data.signature_failures > 0 && (
            <Alert.Root status="error" role="alert" aria-label="Webhook signature failures">
              <Alert.Indicator />
              <Alert.Description>
                {formatCount(state.data.signature_failures)} webhook requests since yesterday failed the signature check
                (last {state.data.last_signature_failure ? new Date(state.data.last_signature_failure).toLocaleString() : 'recently'}).
                If the webhook signing secret was rotated, set STRIPE_WEBHOOK_SECRET to the new one.
              </Alert.Description>
            </Alert.Root>
          )}
          <SimpleGrid columns={{ base: 1, sm: 2, xl: 5 }} gap="4">
            <StatCard testId="stat-collected" label="Collected" value={formatMoney(state.data.collected)} help="Paid invoices" icon={LuWallet} />
            <StatCard testId="stat-conversion" label="Trial Conversion"
              value={conversionRate(state.data) === null ? '—' : `${conversionRate(state.data)}%`}
              help={`${formatCount(state.data.trials_converted)} of ${formatCount(state.data.trials_started)} trials; ${formatCount(state.data.trialing)} trialing now`}
              icon={LuBadgeCheck} />
            <StatCard testId="stat-failed" label="Failed Payments" value={formatCount(state.data.failed_payments)}
              help={`${formatMoney(state.data.failed_amount)}; ${formatCount(state.data.past_due)} past due now`} icon={LuCircleX} />
            <StatCard testId="stat-churn" label="Churned" value={formatCount(state.data.churned)} help="Subscriptions ended" icon={LuTrendingDown} />
            <StatCard testId="stat-refunds" label="Refunds" value={formatCount(state.data.refunds)} help={formatMoney(state.data.refunded_amount)} icon={LuRefreshCcw} />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
