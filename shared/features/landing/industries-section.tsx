import { Box, Card, Container, Heading, Icon, List, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { LuActivity, LuCheck, LuGem, LuPill, LuShirt, LuShoppingBasket, LuSparkles } from 'react-icons/lu';
import { SectionHeading } from './section-heading';

const industries: { title: string; points: string[]; icon: IconType }[] = [
  { title: 'Grocery Stores', points: ['Fresh produce tracking', 'Auto-reordering', 'Supplier management'], icon: LuShoppingBasket },
  { title: 'Clothing & Fashion', points: ['Size matrix', 'Trend analytics', 'Style recommendations'], icon: LuShirt },
  { title: 'Medical & Pharmacy', points: ['Prescriptions recorded on each sale', 'Controlled-substance register', 'Records that help you comply (not a verification service)'], icon: LuPill },
  { title: 'Specialty Retail', points: ['Custom catalogs', 'Technical specs', 'Expert recommendations'], icon: LuGem },
];

const blurbs: { title: string; text: string; icon: IconType }[] = [
  {
    title: 'AI-Powered Analytics',
    text: 'Storewise learns the rhythm of each store: what sells when, what to reorder, and which customers are about to drift away.',
    icon: LuSparkles,
  },
  {
    title: 'Real-Time Insights',
    text: 'Every sale, return and delivery shows up on your dashboard the moment it happens, across all your locations.',
    icon: LuActivity,
  },
];

/** The 4 industry cards and the two blurbs of spec 2. */
export function IndustriesSection() {
  return (
    <Box as="section" id="industries" aria-labelledby="industries-title" tabIndex={-1} scrollMarginTop="16" bg="bg.muted" py={{ base: '14', md: '20' }} outline="none">
      <Container maxW="7xl" px={{ base: '4', sm: '6' }}>
        <SectionHeading
          id="industries-title"
          eyebrow="Industries"
          title="Built for the way your shop works"
          lead="Specialised tools for each kind of retailer, on the same reliable platform."
        />
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="5">
          {industries.map((industry) => (
            <Card.Root key={industry.title} variant="elevated">
              <Card.Body gap="3">
                <Icon as={industry.icon} boxSize="9" color="blue.fg" aria-hidden="true" />
                <Card.Title as="h3">{industry.title}</Card.Title>
                <List.Root variant="plain" gap="1.5">
                  {industry.points.map((point) => (
                    <List.Item key={point} color="fg.muted">
                      <List.Indicator asChild color="green.fg">
                        <LuCheck aria-hidden="true" />
                      </List.Indicator>
                      {point}
                    </List.Item>
                  ))}
                </List.Root>
              </Card.Body>
            </Card.Root>
          ))}
        </SimpleGrid>
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="6" mt="12">
          {blurbs.map((blurb) => (
            <Stack key={blurb.title} direction="row" gap="4" align="flex-start">
              <Icon as={blurb.icon} boxSize="8" color="blue.fg" flexShrink={0} aria-hidden="true" />
              <Stack gap="1">
                <Heading as="h3" size="lg">
                  {blurb.title}
                </Heading>
                <Text color="fg.muted">{blurb.text}</Text>
              </Stack>
            </Stack>
          ))}
        </SimpleGrid>
      </Container>
    </Box>
  );
}
