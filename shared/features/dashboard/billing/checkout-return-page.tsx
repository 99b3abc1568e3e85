import { useEffect, useState } from 'react';
import { Alert, Button, Spinner, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, Navigate, useSearchParams } from 'react-router-dom';
import { notify } from '../../../components/toaster';
import { announcePlanChanged } from '../../../lib/plan-changed-event';
import { useSupabase } from '../../../lib/platform-context';
import { PageHeader } from '../page-header';
import { fetchBillingSummary } from './billing-api';
import { reconcileCheckout } from './billing-functions';
import { settleCheckoutReturn, type ReturnOutcome } from './checkout-return';

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * /dashboard/billing/return: where the provider's checkout sends the owner. A short wait while the server
 * confirms the checkout with the provider, then the Billing page with the plan active (never "pick a plan"
 * again because a webhook is still on its way).
 */
export function CheckoutReturnPage() {
  const supabase = useSupabase();
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  const [outcome, setOutcome] = useState<ReturnOutcome | null>(null);

  useEffect(() => {
    let cancelled = false;
    void settleCheckoutReturn({
      reconcile: () => reconcileCheckout(supabase, sessionId),
      summary: () => fetchBillingSummary(supabase),
      wait,
    }).then((result) => {
      if (cancelled) return;
      if (result.kind === 'active') {
        announcePlanChanged();
        notify.success(result.status === 'trialing' ? 'Trial started' : 'Plan active', `You are now on the ${result.plan} plan.`);
      }
      setOutcome(result);
    });
    return () => { cancelled = true; };
  }, [supabase, sessionId]);

  if (outcome?.kind === 'active' || outcome?.kind === 'canceled') return <Navigate to="/dashboard/billing" replace />;
  return (
    <>
      <PageHeader title="Billing" description="Confirming your subscription." />
      {!outcome && (
        <Stack align="center" gap="3" py="10" role="status" aria-live="polite">
          <Spinner size="lg" />
          <Text>Confirming your payment with the provider…</Text>
        </Stack>
      )}
      {outcome && (
        <Alert.Root status={outcome.kind === 'failed' ? 'error' : 'info'} role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{outcome.kind === 'failed' ? 'We could not confirm your checkout yet' : 'Your payment is being confirmed'}</Alert.Title>
            <Alert.Description>
              {outcome.kind === 'failed' ? `${outcome.message} Nothing you paid for is lost: the page updates once the provider answers.`
                : 'The payment provider has not confirmed it yet. Your plan appears on the Billing page in a moment.'}
            </Alert.Description>
          </Alert.Content>
          <Button asChild size="sm" variant="outline"><RouterLink to="/dashboard/billing">Go to Billing</RouterLink></Button>
        </Alert.Root>
      )}
    </>
  );
}
