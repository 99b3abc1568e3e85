import { Badge, Button, Card, Heading, HStack, List, Text } from '@chakra-ui/react';
import { LuCheck } from 'react-icons/lu';
import type { MouseEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { PricingPlan } from './pricing-plans';
import { StaticHtml } from '../../components/prerendered-parts';

const dollars = (value: number) => `$${Number.isInteger(value) ? value : value.toFixed(2)}`;

interface PlanCardProps {
  plan: PricingPlan;
  /** The Get Started link's click, before it navigates (it may prevent that). */
  onChoose: (event: MouseEvent<HTMLAnchorElement>) => void;
  busy: boolean;
}

/** One plan: price and former price, limits and features, and its button (Enterprise: Contact Sales). */
export function PlanCard({ plan, onChoose, busy }: PlanCardProps) {
  const headingId = `plan-${plan.name.toLowerCase()}`;
  return (
    <Card.Root
      as="article"
      aria-labelledby={headingId}
      variant={plan.popular ? 'elevated' : 'outline'}
      borderWidth={plan.popular ? '2px' : '1px'}
      borderColor={plan.popular ? 'blue.solid' : undefined}
      position="relative"
      // Header, features and button are rows of the pricing grid (subgrid), so every card's feature list
      // starts at the same height whatever its badge, description or price line takes.
      display="grid"
      gridTemplateRows="subgrid"
      gridRow="span 3"
      rowGap="0"
      data-testid={`plan-${plan.name}`}
    >
      <StaticHtml>
        <Card.Header gap="2">
          <HStack justify="space-between" align="center" wrap="wrap">
            <Heading as="h3" id={headingId} size="xl">
              {plan.name}
            </Heading>
            {plan.popular && (
              <Badge variant="solid" rounded="full" px="2.5">
                Most Popular
              </Badge>
            )}
          </HStack>
          <Text color="fg.muted" fontSize="sm">
            {plan.description}
          </Text>
          {plan.price === null ? (
            <Text fontSize="4xl" fontWeight="bold" py="1">
              Custom
            </Text>
          ) : (
            <HStack align="baseline" gap="2" wrap="wrap" py="1">
              <Text fontSize="4xl" fontWeight="bold">
                {dollars(plan.price)}
              </Text>
              <Text color="fg.muted">/month</Text>
              {plan.oldPrice !== null && (
                <Text as="del" color="fg.muted" aria-label={`was ${dollars(plan.oldPrice)}`}>
                  {dollars(plan.oldPrice)}
                </Text>
              )}
            </HStack>
          )}
          <Text fontSize="xs" color="fg.muted">
            {plan.price === null ? 'Tailored pricing for your organisation' : 'Billed annually'}
          </Text>
        </Card.Header>
        <Card.Body>
          <List.Root variant="plain" gap="2" fontSize="sm">
            {plan.features.map((feature) => (
              <List.Item key={feature}>
                <List.Indicator asChild color="green.fg">
                  <LuCheck aria-hidden="true" />
                </List.Indicator>
                {feature}
              </List.Item>
            ))}
          </List.Root>
        </Card.Body>
      </StaticHtml>
      <Card.Footer>
        {plan.name === 'Enterprise' ? (
          <Button asChild width="full" variant="outline" aria-label="Contact Sales about the Enterprise plan">
            <RouterLink to="/auth">Contact Sales</RouterLink>
          </Button>
        ) : (
          // A link to /signup for a visitor, whose landing has no JavaScript (docs/adr/0167); onChoose takes
          // over where the app runs and someone may be signed in.
          <Button
            asChild
            width="full"
            variant={plan.popular ? 'solid' : 'outline'}
            loading={busy}
            aria-disabled={busy || undefined}
            aria-label={`Get Started with the ${plan.name} plan`}
          >
            <RouterLink to={`/signup?plan=${plan.name}`} onClick={onChoose}>
              Get Started
            </RouterLink>
          </Button>
        )}
      </Card.Footer>
    </Card.Root>
  );
}
