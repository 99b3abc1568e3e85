import { Box, Button, Card, Container, Icon, SimpleGrid, Stack } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import {
  LuBrain, LuChartColumn, LuClock, LuCloud, LuGlobe, LuKeyRound, LuShieldCheck, LuSlidersHorizontal, LuSmartphone,
  LuTrendingUp, LuUsers, LuZap,
} from 'react-icons/lu';
import { SectionHeading } from './section-heading';
import { sectionLinkProps } from './section-link';
import { StaticHtml } from '../../components/prerendered-parts';

const features: { title: string; text: string; icon: IconType }[] = [
  { title: 'AI-Powered Insights', text: 'Forecast demand and spot slow movers before they cost you.', icon: LuBrain },
  { title: 'Enterprise Security', text: 'Row-level access rules, encrypted data and audit trails.', icon: LuShieldCheck },
  { title: 'Lightning Fast', text: 'Ring up sales and search thousands of products instantly.', icon: LuZap },
  { title: 'Global Scaling', text: 'Multi-currency and multi-store from the first day.', icon: LuGlobe },
  { title: 'Team Collaboration', text: 'Invite staff and give every role exactly what it needs.', icon: LuUsers },
  { title: 'Growth Analytics', text: 'Profit, margins and trends for each store and product.', icon: LuTrendingUp },
  { title: '24/7 Operations', text: 'An AI assistant and support team around the clock.', icon: LuClock },
  { title: 'Full Customization', text: 'Adapt catalogs, receipts and workflows to your shop.', icon: LuSlidersHorizontal },
  { title: 'Mobile First', text: 'Check sales and stock from your phone, wherever you are.', icon: LuSmartphone },
  { title: 'Cloud Infrastructure', text: 'Daily backups and 99.9% uptime, no servers to run.', icon: LuCloud },
  { title: 'Advanced Permissions', text: 'Granular permissions with a full audit trail.', icon: LuKeyRound },
  { title: 'Real-time Reporting', text: 'Live dashboards of sales, stock and staff activity.', icon: LuChartColumn },
];

/** The 12 feature cards of spec 2, with Start Free Trial (to pricing) and Schedule Demo (to contact). */
export function FeaturesSection() {
  return (
    <Box as="section" id="features" aria-labelledby="features-title" tabIndex={-1} scrollMarginTop="16" py={{ base: '14', md: '20' }} outline="none">
      <Container maxW="7xl" px={{ base: '4', sm: '6' }}>
        <StaticHtml>
          <SectionHeading
            id="features-title"
            eyebrow="Features"
            title="Everything a modern retailer needs"
            lead="One platform for inventory, sales, customers and teams, with AI that keeps learning from your stores."
          />
          <SimpleGrid columns={{ base: 1, sm: 2, lg: 3, xl: 4 }} gap="5">
            {features.map((feature) => (
              <Card.Root key={feature.title} variant="outline" size="sm">
                <Card.Body gap="3">
                  <Icon as={feature.icon} boxSize="8" color="blue.fg" aria-hidden="true" />
                  <Card.Title as="h3">{feature.title}</Card.Title>
                  <Card.Description>{feature.text}</Card.Description>
                </Card.Body>
              </Card.Root>
            ))}
          </SimpleGrid>
        </StaticHtml>
        <Stack direction={{ base: 'column', sm: 'row' }} justify="center" mt="10" gap="3">
          <Button asChild size="lg">
            <a {...sectionLinkProps('pricing')}>Start Free Trial</a>
          </Button>
          <Button asChild size="lg" variant="outline">
            <a {...sectionLinkProps('about')}>Schedule Demo</a>
          </Button>
        </Stack>
      </Container>
    </Box>
  );
}
