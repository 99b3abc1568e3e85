import { Box, Container, Flex, Heading, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { BrandLogo } from '../../components/brand-logo';
import { SectionLink } from './section-link';

const legalLinks = [
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/terms-of-service', label: 'Terms of Service' },
  { to: '/cookie-policy', label: 'Cookie Policy' },
  { to: '/gdpr-compliance', label: 'GDPR Compliance' },
  { to: '/data-security-policy', label: 'Data Security Policy' },
];

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="3" as="nav" aria-label={title}>
      <Heading as="h2" size="sm" color="white">
        {title}
      </Heading>
      <Stack gap="2" fontSize="sm">
        {children}
      </Stack>
    </Stack>
  );
}

const linkColor = { color: 'gray.300', _hover: { color: 'white' } } as const;

/** Footer columns Product, Company, Resources, Legal and the status line (spec 2). */
export function LandingFooter() {
  return (
    <Box as="footer" bg="gray.900" color="gray.300" pt="14" pb="8">
      <Container maxW="7xl" px={{ base: '4', sm: '6' }}>
        <SimpleGrid columns={{ base: 2, md: 5 }} gap="8">
          <Stack gap="3" gridColumn={{ base: 'span 2', md: 'span 1' }}>
            <BrandLogo inverted />
            <Text fontSize="sm">The retail management platform for shops that want to grow.</Text>
          </Stack>
          <Column title="Product">
            <SectionLink section="features" {...linkColor}>Features</SectionLink>
            <SectionLink section="industries" {...linkColor}>Industries</SectionLink>
            <SectionLink section="pricing" {...linkColor}>Pricing</SectionLink>
          </Column>
          <Column title="Company">
            <SectionLink section="about" {...linkColor}>About</SectionLink>
            <Link asChild {...linkColor}>
              <RouterLink to="/auth">Contact Sales</RouterLink>
            </Link>
          </Column>
          <Column title="Resources">
            <Link asChild {...linkColor}>
              <RouterLink to="/auth">Sign In</RouterLink>
            </Link>
            <Link asChild {...linkColor}>
              <RouterLink to="/signup">Create Account</RouterLink>
            </Link>
            <Link asChild {...linkColor}>
              <RouterLink to="/forgot-password">Reset Password</RouterLink>
            </Link>
          </Column>
          <Column title="Legal">
            {legalLinks.map((link) => (
              <Link asChild key={link.to} {...linkColor}>
                <RouterLink to={link.to} target="_blank" rel="noopener noreferrer">
                  {link.label}
                </RouterLink>
              </Link>
            ))}
          </Column>
        </SimpleGrid>
        <Flex mt="12" pt="6" borderTopWidth="1px" borderColor="gray.700" justify="space-between" wrap="wrap" gap="3" fontSize="sm">
          <Text>© {new Date().getFullYear()} Storewise. All rights reserved.</Text>
          {/* The platform's real state replaces the words after the first paint (web/live.ts, docs/adr/0261). */}
          <Text display="flex" alignItems="center" gap="2" data-site-status="">
            <Box as="span" boxSize="2" rounded="full" bg="green.400" aria-hidden="true" data-site-status-dot="" />
            <span data-site-status-text="">Status: All Systems Operational</span>
          </Text>
        </Flex>
      </Container>
    </Box>
  );
}
