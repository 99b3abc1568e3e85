import { Alert, Button } from '@chakra-ui/react';
import { formatDate } from '../../../lib/format';
import type { BillingSummary } from './billing-api';
import { usePortal } from './use-portal';

/**
 * Shown while the subscription is past due: what happened, until when the plan's limits stay (14 days of grace),
 * what happens after (Free limits, nothing deleted, registers keep selling) and the one thing to do.
 */
export function PastDueBanner({ summary }: { summary: BillingSummary | null }) {
  const portal = usePortal();
  if (summary?.status !== 'past_due') return null;
  const until = summary.grace_until ? formatDate(summary.grace_until) : null;
  return (
    <Alert.Root status="error" role="alert" aria-label="Payment failed">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>Your last payment failed</Alert.Title>
        <Alert.Description>
          {until
            ? `Update your payment method by ${until} to keep the ${summary.plan} plan. We retry the charge automatically. `
            : 'The grace period is over: your businesses have the Free limits until the payment goes through. '}
          Nothing is deleted and your registers keep selling.
        </Alert.Description>
      </Alert.Content>
      <Button size="sm" onClick={() => void portal.open()} loading={portal.opening}>Change Payment Method</Button>
    </Alert.Root>
  );
}
