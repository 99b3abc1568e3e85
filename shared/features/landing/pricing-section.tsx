import { Alert, Box, Button, Container, SimpleGrid, Text } from '@chakra-ui/react';
import { useAtomValue } from 'jotai';
import { LuGift } from 'react-icons/lu';
import { useAuth } from '../../lib/auth-provider';
import { rememberedPlanAtom, type SelfServicePlanName } from '../../lib/remembered-plan';
import { PlanCard } from './plan-card';
import { pricingPlans } from './pricing-plans';
import { SectionHeading } from './section-heading';
import { useChoosePlan } from './use-choose-plan';

/** Offers the trial of the plan a visitor picked before signing up, once they are signed in. */
function TrialOffer({ plan, onStart, busy }: { plan: SelfServicePlanName; onStart: () => void; busy: boolean }) {
  return (
    <Alert.Root status="info" mb="8" data-testid="trial-offer" flexWrap="wrap" gap="3" alignItems="center">
      <Alert.Indicator />
      <Alert.Content flex="1" minW="56">
        <Alert.Title>Welcome to Storewise!</Alert.Title>
        <Alert.Description>You picked the {plan} plan. Start your 7-day free trial now.</Alert.Description>
      </Alert.Content>
      <Button onClick={onStart} loading={busy}>
        Start {plan} trial
      </Button>
    </Alert.Root>
  );
}

/** The four plans of spec 9 and the 7-day trial note; choosing a plan is real (useChoosePlan). */
export function PricingSection() {
  const { user } = useAuth();
  const rememberedPlan = useAtomValue(rememberedPlanAtom);
  const { choose, pending } = useChoosePlan();

  return (
    <Box as="section" id="pricing" aria-labelledby="pricing-title" tabIndex={-1} scrollMarginTop="16" py={{ base: '14', md: '20' }} outline="none">
      <Container maxW="7xl" px={{ base: '4', sm: '6' }}>
        <SectionHeading
          id="pricing-title"
          eyebrow="Pricing"
          title="Simple plans that grow with you"
          lead="Prices per month, billed annually. Change or cancel your plan at any time."
        />
        <Text
          display="flex"
          alignItems="center"
          justifyContent="center"
          gap="2"
          fontWeight="semibold"
          color="green.fg"
          mt="-6"
          mb="10"
          textAlign="center"
        >
          <LuGift aria-hidden="true" /> 7-day free trial on any annual plan
        </Text>
        {user && rememberedPlan && (
          <TrialOffer plan={rememberedPlan} busy={pending === rememberedPlan} onStart={() => void choose(rememberedPlan)} />
        )}
        <SimpleGrid columns={{ base: 1, md: 2, xl: 4 }} gap="6" alignItems="stretch">
          {pricingPlans.map((plan) => (
            <PlanCard
              key={plan.name}
              plan={plan}
              busy={pending === plan.name}
              onChoose={() => plan.name !== 'Enterprise' && void choose(plan.name)}
            />
          ))}
        </SimpleGrid>
      </Container>
    </Box>
  );
}
