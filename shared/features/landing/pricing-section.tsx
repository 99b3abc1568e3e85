import { Box, Container, SimpleGrid, Text } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';
import { LuGift } from 'react-icons/lu';
import { useAuth } from '../../lib/auth-provider';
import { PlanCard } from './plan-card';
import { pricingPlans } from './pricing-plans';
import { SectionHeading } from './section-heading';
import { useChoosePlan } from './use-choose-plan';
import { StaticHtml } from '../../components/prerendered-parts';

// Only signed-in owners can see the offer, and sign-in state arrives after supabase-js anyway.
const TrialOffer = lazy(() => import('./trial-offer').then((module) => ({ default: module.TrialOffer })));

/** The four plans of spec 9 and the 7-day trial note; choosing a plan is real (useChoosePlan). */
export function PricingSection() {
  const { user, loading } = useAuth();
  const { choose, pending } = useChoosePlan();

  return (
    <Box as="section" id="pricing" aria-labelledby="pricing-title" tabIndex={-1} scrollMarginTop="16" py={{ base: '14', md: '20' }} outline="none">
      <Container maxW="7xl" px={{ base: '4', sm: '6' }}>
        <StaticHtml>
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
        </StaticHtml>
        {user && (
          <Suspense fallback={null}>
            <TrialOffer pendingPlan={pending} onStart={(plan) => void choose(plan)} />
          </Suspense>
        )}
        <SimpleGrid columns={{ base: 1, md: 2, xl: 4 }} gap="6" alignItems="stretch">
          {pricingPlans.map((plan) => (
            <PlanCard
              key={plan.name}
              plan={plan}
              busy={pending === plan.name}
              onChoose={(event) => {
                // A known visitor follows the link (/signup remembers the plan); a signed-in owner, or a browser
                // whose session supabase-js has not read yet, chooses here.
                if (plan.name === 'Enterprise' || (!loading && !user)) return;
                event.preventDefault();
                if (pending === null) void choose(plan.name);
              }}
            />
          ))}
        </SimpleGrid>
      </Container>
    </Box>
  );
}
