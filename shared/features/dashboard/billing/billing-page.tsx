import { SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useSearchParams } from 'react-router-dom';
import { useSupabase } from '../../../lib/platform-context';
import { useDashboardSession } from '../dashboard-session';
import { PageHeader } from '../page-header';
import { fetchShopPlan } from '../overview/shop-plan';
import { SectionCard } from '../section-card';
import { useLoad } from '../use-load';
import { fetchBillingHistory, fetchBillingSummary, fetchPaymentMethods, fetchPlan } from './billing-api';
import { BillingHistoryCard } from './billing-history-card';
import { PastDueBanner } from './past-due-banner';
import { PaymentMethodsCard } from './payment-methods-card';
import { billedByProvider, PlanCard } from './plan-card';

/** /dashboard/billing: the sections load in parallel and fail (and retry) independently. */
export function BillingPage() {
  const supabase = useSupabase();
  const { user } = useDashboardSession();
  const plan = useLoad(user.id, () => fetchPlan(supabase));
  const methods = useLoad(user.id, () => fetchPaymentMethods(supabase, user.id));
  const history = useLoad(user.id, () => fetchBillingHistory(supabase, user.id));
  const summaryLoad = useLoad(user.id, () => fetchBillingSummary(supabase));
  const summary = summaryLoad.state.status === 'ready' ? summaryLoad.state.data : null;
  // Staff see their shop's plan, without upgrade actions: the owner chooses and pays for it (issue 25).
  const shopPlan = useLoad(user.id, () => fetchShopPlan(supabase, user.id));
  const shop = shopPlan.state.status === 'ready' ? shopPlan.state.data : null;
  // ?choose=plan (the Overview's "Choose a plan") opens the chooser; closing it drops the parameter.
  const [params, setParams] = useSearchParams();
  const chooserOpen = params.get('choose') === 'plan';
  const setChooserOpen = (open: boolean) => setParams(open ? { choose: 'plan' } : {}, { replace: true });
  const reloadAll = () => {
    plan.reload();
    methods.reload();
    history.reload();
    summaryLoad.reload();
  };

  return (
    <>
      <PageHeader title="Billing" description="Manage your plan, payment methods and invoices." />
      <Stack gap="4">
        <PastDueBanner summary={summary} />
        {shop && (
          <SectionCard title="Your shop's plan" description={shop.business}>
            <Text fontSize="xl" fontWeight="bold">{shop.plan}</Text>
            <Text color="fg.muted">The owner of {shop.business} chooses the plan and pays for it: ask them to change it.</Text>
          </SectionCard>
        )}
        {shopPlan.state.status !== 'loading' && !shop && (
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" alignItems="start">
          <PlanCard load={plan} summary={summary} chooserOpen={chooserOpen} onChooserOpenChange={setChooserOpen}
            onChanged={reloadAll} />
          <PaymentMethodsCard load={methods} hasAccount={Boolean(summary?.has_customer)}
            liveSubscription={billedByProvider(summary)} onChanged={reloadAll} />
        </SimpleGrid>
        )}
        <BillingHistoryCard load={history} />
      </Stack>
    </>
  );
}
