import { Alert } from '@chakra-ui/react';
import { useAtomValue } from 'jotai';
import { rememberedPlanAtom } from '../../lib/remembered-plan';

/** Reminds a visitor which plan they picked on the pricing section; its trial starts after sign-in. */
export function RememberedPlanNote() {
  const plan = useAtomValue(rememberedPlanAtom);
  if (!plan) return null;
  return (
    <Alert.Root status="info" data-testid="remembered-plan">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>Selected plan: {plan}</Alert.Title>
        <Alert.Description>
          Confirm your email and sign in to start your 7-day free trial of the {plan} plan.
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
