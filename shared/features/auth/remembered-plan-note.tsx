import { Alert } from '@chakra-ui/react';
import { useAtomValue } from 'jotai';
import { useSyncExternalStore } from 'react';
import { rememberedPlanAtom } from '../../lib/remembered-plan';

const noSubscription = () => () => {};

/** Reminds a visitor which plan they picked on the pricing section; its trial starts after sign-in. */
export function RememberedPlanNote() {
  const plan = useAtomValue(rememberedPlanAtom);
  // The prerendered /signup has no plan (it lives in this browser's localStorage): while hydrating, render what
  // the server did, then the note (a mismatch would make React discard the page's HTML and warn).
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  if (!plan || !hydrated) return null;
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
