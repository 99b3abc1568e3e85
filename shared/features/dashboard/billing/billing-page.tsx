import { SimpleGrid, Stack } from '@chakra-ui/react';
import { useSearchParams } from 'react-router-dom';
import { useSupabase } from '../../../lib/platform-context';
import { useDashboardSession } from '../dashboard-session';
import { PageHeader } from '../page-header';
import { useLoad } from '../use-load';
import { fetchBillingHistory, fetchPaymentMethods, fetchPlan } from './billing-api';
import { BillingHistoryCard } from './billing-history-card';
import { PaymentMethodsCard } from './payment-methods-card';
import { PlanCard } from './plan-card';

/** /dashboard/billing: the three sections load in parallel and fail (and retry) independently. */
export function BillingPage() {
  const supabase = useSupabase();
  const { user } = useDashboardSession();
  const plan = useLoad(user.id, () => fetchPlan(supabase));
  const methods = useLoad(user.id, () => fetchPaymentMethods(supabase, user.id));
  const history = useLoad(user.id, () => fetchBillingHistory(supabase, user.id));
  // ?choose=plan (the Overview's "Choose a plan") opens the chooser; closing it drops the parameter.
  const [params, setParams] = useSearchParams();
  const chooserOpen = params.get('choose') === 'plan';
  const setChooserOpen = (open: boolean) => setParams(open ? { choose: 'plan' } : {}, { replace: true });

  return (
    <>
      <PageHeader title="Billing" description="Manage your plan, payment methods and invoices." />
      <Stack gap="4">
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" alignItems="start">
          <PlanCard load={plan} chooserOpen={chooserOpen} onChooserOpenChange={setChooserOpen} />
          <PaymentMethodsCard load={methods} />
        </SimpleGrid>
        <BillingHistoryCard load={history} />
      </Stack>
    </>
  );
}
