import { Badge, Box, Button, Container, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { LuArrowRight, LuPlay } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { useAuth } from '../../lib/auth-provider';
import { scrollToSection } from './sections';
import { StaticHtml } from '../../components/prerendered-parts';
import { sectionLinkProps } from './section-link';

const stats = [
  { value: '10K+', label: 'Active stores' },
  { value: '99.9%', label: 'Uptime' },
  { value: '24/7', label: 'Support' },
];

/** Hero: the pitch, Get Started and Watch Demo (a tour of the features), and the three claims of spec 1. */
export function HeroSection() {
  const { user } = useAuth();
  return (
    <Box as="section" aria-labelledby="hero-title" bgGradient="to-b" gradientFrom="blue.50" gradientTo="bg" py={{ base: '14', md: '24' }}>
      <Container maxW="5xl" px={{ base: '4', sm: '6' }}>
        <Stack gap="6" align="center" textAlign="center">
          <StaticHtml>
            <Badge size="lg" variant="subtle" rounded="full" px="3">
              AI-powered retail management
            </Badge>
            <Heading as="h1" id="hero-title" fontSize={{ base: '3xl', sm: '4xl', md: '6xl' }} lineHeight="1.1" maxW="4xl">
              Run every store from one place with Storewise
            </Heading>
            <Text fontSize={{ base: 'md', md: 'xl' }} color="fg.muted" maxW="2xl">
              Real-time inventory, customer insights, team roles and AI analytics for grocery, fashion, pharmacy,
              electronics and specialty shops — on the web and on your desktop.
            </Text>
          </StaticHtml>
          <Stack direction={{ base: 'column', sm: 'row' }} gap="3" width={{ base: 'full', sm: 'auto' }}>
            {/* A link for a visitor (the landing is static for them, docs/adr/0167); a signed-in owner has an
                account already and is taken to the plans instead. */}
            <Button asChild size="lg">
              <RouterLink
                to="/signup"
                onClick={(event) => {
                  if (!user) return;
                  event.preventDefault();
                  scrollToSection('pricing');
                }}
              >
                Get Started <LuArrowRight aria-hidden="true" />
              </RouterLink>
            </Button>
            <Button asChild size="lg" variant="outline">
              <a {...sectionLinkProps('features')}>
                <LuPlay aria-hidden="true" /> Watch Demo
              </a>
            </Button>
          </Stack>
          <StaticHtml>
            <SimpleGrid as="dl" columns={3} gap={{ base: '4', md: '12' }} pt="6" width="full" maxW="xl">
              {stats.map((stat) => (
                <Stack key={stat.label} gap="0">
                  <Text as="dd" fontSize={{ base: '2xl', md: '3xl' }} fontWeight="bold" color="blue.fg" order={1}>
                    {stat.value}
                  </Text>
                  <Text as="dt" fontSize="sm" color="fg.muted" order={2}>
                    {stat.label}
                  </Text>
                </Stack>
              ))}
            </SimpleGrid>
          </StaticHtml>
        </Stack>
      </Container>
    </Box>
  );
}
