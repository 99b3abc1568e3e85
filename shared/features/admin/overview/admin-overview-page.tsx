import { SimpleGrid, Skeleton } from '@chakra-ui/react';
import { LuDollarSign, LuTicket, LuUserCheck, LuUsers } from 'react-icons/lu';
import { useSupabase } from '../../../lib/platform-context';
import { formatMoney } from '../../../lib/format';
import { LoadError } from '../../../components/load-error';
import { fetchAdminOverview } from '../admin-api';
import { useAdminData } from '../common/use-admin-data';
import { PageHeader } from '../common/page-header';
import { formatCount } from '../common/pagination';
import { StatCard } from './stat-card';

/** The admin dashboard: the four platform figures, from one database call over running totals. */
export function AdminOverviewPage() {
  const supabase = useSupabase();
  const { state, reload } = useAdminData('overview', () => fetchAdminOverview(supabase));

  return (
    <>
      <PageHeader title="Admin Dashboard" description="Storewise at a glance." />
      {state.status === 'error' && (
        <LoadError message="We couldn't load the platform figures." error={state.error} onRetry={reload} />
      )}
      {state.status === 'loading' && (
        <SimpleGrid columns={{ base: 1, sm: 2, xl: 4 }} gap="4" role="status" aria-label="Loading figures">
          {[0, 1, 2, 3].map((n) => (
            <Skeleton key={n} h="32" rounded="lg" />
          ))}
        </SimpleGrid>
      )}
      {state.status === 'ready' && (
        <SimpleGrid columns={{ base: 1, sm: 2, xl: 4 }} gap="4">
          <StatCard
            testId="stat-total-users"
            label="Total Users"
            value={formatCount(state.data.total_profiles)}
            help="Profiles on the platform"
            icon={LuUsers}
          />
          <StatCard
            testId="stat-active-users"
            label="Active Users"
            value={formatCount(state.data.active_users)}
            help="Plans with auto-renew on"
            icon={LuUserCheck}
          />
          <StatCard
            testId="stat-total-revenue"
            label="Total Revenue"
            value={formatMoney(state.data.total_revenue)}
            help="All billing history"
            icon={LuDollarSign}
          />
          <StatCard
            testId="stat-open-tickets"
            label="Open Tickets"
            value={formatCount(state.data.open_tickets)}
            help="Support tickets awaiting an answer"
            icon={LuTicket}
          />
        </SimpleGrid>
      )}
    </>
  );
}
