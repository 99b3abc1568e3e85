import { Alert, Button } from '@chakra-ui/react';
import { useAtomValue } from 'jotai';
import { rememberedPlanAtom, type SelfServicePlanName } from '../../lib/remembered-plan';

interface TrialOfferProps {
  onStart: (plan: SelfServicePlanName) => void;
  pendingPlan: SelfServicePlanName | null;
}

/**
 * Offers the trial of the plan a visitor picked before signing up, once they are signed in. Loaded lazily by
 * the pricing section for signed-in owners only, which keeps jotai off the landing's first paint (docs/adr/0044).
 */
export function TrialOffer({ onStart, pendingPlan }: TrialOfferProps) {
  const plan = useAtomValue(rememberedPlanAtom);
  if (!plan) return null;
  return (
    <Alert.Root status="info" mb="8" data-testid="trial-offer" flexWrap="wrap" gap="3" alignItems="center">
      <Alert.Indicator />
      <Alert.Content flex="1" minW="56">
        <Alert.Title>Welcome to Storewise!</Alert.Title>
        <Alert.Description>You picked the {plan} plan. Start your 7-day free trial now.</Alert.Description>
      </Alert.Content>
      <Button onClick={() => onStart(plan)} loading={pendingPlan === plan}>
        Start {plan} trial
      </Button>
    </Alert.Root>
  );
}
