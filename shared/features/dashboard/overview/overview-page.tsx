import { Suspense, type ReactNode } from 'react';
import { Badge, Box, Button, DataList, Flex, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { LuCreditCard, LuLifeBuoy, LuShield } from 'react-icons/lu';
import { useSupabase } from '../../../lib/platform-context';
import { formatDate, formatDateTime, formatMoney } from '../../../lib/format';
import { metadataFullName, useDashboardSession } from '../dashboard-session';
import { DataItem } from '../data-item';
import { Loaded } from '../loaded';
import { LoadedList } from '../loaded-list';
import { useDashboardSlots } from '../layout/dashboard-slots';
import { PageHeader } from '../page-header';
import { planPriceLine } from '../../../lib/plan-price';
import { SectionCard } from '../section-card';
import { BreakableText } from '../../../components/breakable-text';
import { StatusBadge } from '../../../components/status-badge';
import { useLoad } from '../use-load';
import { fetchPlanSummary, fetchRecentBilling } from './overview-api';
import { fetchShopPlan } from './shop-plan';

function StatCard({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack as="section" aria-label={label} gap="2" borderWidth="1px" rounded="lg" bg="bg" p="4" minW="0">
      <Text fontSize="sm" color="fg.muted" fontWeight="medium">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/**
 * /dashboard. Names and dates come from the signed-in user (no request); only the plan and the two latest
 * billing rows are fetched, in parallel.
 */
/** An account in its first week is welcomed, not welcomed back (issue 25). */
export function isNewAccount(createdAt: string | undefined, now = Date.now()): boolean {
  return createdAt !== undefined && now - Date.parse(createdAt) < 7 * 86_400_000;
}

export function OverviewPage() {
  const supabase = useSupabase();
  const { user } = useDashboardSession();
  // Staff see the shop's plan; only an owner sees their own plan, its billing and upgrade actions (issue 25).
  const plan = useLoad(user.id, async () => {
    const [own, shop] = await Promise.all([fetchPlanSummary(supabase), fetchShopPlan(supabase, user.id)]);
    return { own, shop };
  });
  const staffOf = plan.state.status === 'ready' ? plan.state.data.shop : null;
  const billing = useLoad(user.id, () => fetchRecentBilling(supabase, user.id));
  const fullName = metadataFullName(user);
  const email = user.email ?? '';
  const slots = useDashboardSlots();

  return (
    <>
      <PageHeader
        title={`${isNewAccount(user.created_at) ? 'Welcome to Storewise' : 'Welcome back'}, ${fullName ?? email.split('@')[0]}!`}
        description="Here's an overview of your Storewise account."
      />

      <SimpleGrid columns={{ base: 1, sm: 2, xl: 4 }} gap="4" mb="6">
        <StatCard label="Account Status">
          <HStack gap="2" wrap="wrap">
            <Text fontSize="xl" fontWeight="bold">
              Active
            </Text>
            {user.email_confirmed_at ? (
              <Badge colorPalette="green">Verified</Badge>
            ) : (
              <Badge colorPalette="orange">Unverified</Badge>
            )}
          </HStack>
        </StatCard>
        <StatCard label="Current Plan">
          <Loaded load={plan} errorMessage="We couldn't load your plan.">
            {({ own: data, shop }) => shop ? (
              <Stack gap="0">
                <Text fontSize="xl" fontWeight="bold">{shop.plan}</Text>
                <Text fontSize="sm" color="fg.muted">The plan of {shop.business}; its owner manages it.</Text>
              </Stack>
            ) : (
              <Stack gap="0">
                <Text fontSize="xl" fontWeight="bold">
                  {data?.plan_name ?? 'Free'}
                </Text>
                <Text fontSize="sm" color="fg.muted">
                  {data?.endedTrial ? `Your ${data.endedTrial} trial has ended` : planPriceLine(data)}
                </Text>
              </Stack>
            )}
          </Loaded>
        </StatCard>
        <StatCard label="Email">
          <Text fontSize="md" fontWeight="semibold" overflowWrap="anywhere">
            <BreakableText text={email} />
          </Text>
        </StatCard>
        <StatCard label="Member Since">
          <Text fontSize="xl" fontWeight="bold">
            {formatDate(user.created_at)}
          </Text>
        </StatCard>
      </SimpleGrid>

      {/* The business at a glance, lent by the workspace feature (issue 11). */}
      {slots.overview && <Box mb="6"><Suspense fallback={null}>{slots.overview}</Suspense></Box>}
      {/* Today's sales, the 30-day chart, stock alerts (or a cashier's shift), lent by the reports feature (issue 14). */}
      {slots.businessOverview && <Box mb="6"><Suspense fallback={null}>{slots.businessOverview}</Suspense></Box>}

      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" mb="6">
        <SectionCard title="Quick Actions" description="Jump to the things you manage most.">
          <Stack gap="2">
            {!staffOf && (
              <Button asChild variant="outline" justifyContent="flex-start">
                <RouterLink to="/dashboard/billing">
                  <LuCreditCard aria-hidden /> Manage Billing
                </RouterLink>
              </Button>
            )}
            <Button asChild variant="outline" justifyContent="flex-start">
              <RouterLink to="/dashboard/security">
                <LuShield aria-hidden /> Security Settings
              </RouterLink>
            </Button>
            <Button asChild variant="outline" justifyContent="flex-start">
              <RouterLink to="/dashboard/support">
                <LuLifeBuoy aria-hidden /> Get Support
              </RouterLink>
            </Button>
          </Stack>
        </SectionCard>

        <SectionCard
          title="Recent Billing"
          description="Your latest payments."
          actions={
            <Button asChild size="sm" variant="ghost">
              <RouterLink to="/dashboard/billing">View All</RouterLink>
            </Button>
          }
        >
          <LoadedList
            load={billing}
            errorMessage="We couldn't load your billing history."
            emptyText="No billing history yet"
            testId="recent-billing"
            gap="3"
          >
            {(row) => (
              <Flex as="li" key={row.id} justify="space-between" align="center" gap="3">
                <Stack gap="0">
                  <Text fontWeight="semibold">{formatMoney(row.amount)}</Text>
                  <Text fontSize="sm" color="fg.muted">
                    {formatDate(row.date)}
                  </Text>
                </Stack>
                <StatusBadge status={row.status} />
              </Flex>
            )}
          </LoadedList>
        </SectionCard>
      </SimpleGrid>

      <SectionCard title="Profile Information" description="Your account details.">
        <DataList.Root
          orientation="vertical"
          display="grid"
          gridTemplateColumns={{ base: '1fr', md: 'repeat(2, 1fr)', xl: 'repeat(3, 1fr)' }}
          gap="4"
        >
          <DataItem label="Account ID" value={<BreakableText text={user.id} />} />
          <DataItem label="Email" value={<BreakableText text={email} />} />
          <DataItem label="Password" value="••••••••" testId="masked-password" />
          <DataItem label="Full Name" value={fullName ?? 'Not provided'} />
          <DataItem label="Account Created" value={formatDateTime(user.created_at)} />
          <DataItem label="Last Sign In" value={formatDateTime(user.last_sign_in_at, 'Never')} />
        </DataList.Root>
      </SectionCard>
    </>
  );
}
