import { Box, Card, Container, Heading, Link, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { BrandLogo } from '../../components/brand-logo';

interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Wider card for the eight-field sign-up form. */
  wide?: boolean;
}

/** The frame of every auth screen: brand link home, a titled card, and the page's one h1. */
export function AuthLayout({ title, subtitle, children, wide = false }: AuthLayoutProps) {
  return (
    <Box as="main" minH="100dvh" bg="bg.muted" py={{ base: '6', md: '12' }}>
      <Container maxW={wide ? 'xl' : 'md'} px={{ base: '3', sm: '4' }}>
        <Stack gap="6">
          <Link asChild alignSelf="center" aria-label="Storewise home" rounded="md">
            <RouterLink to="/">
              <BrandLogo />
            </RouterLink>
          </Link>
          <Card.Root variant="elevated">
            <Card.Header>
              <Heading as="h1" size="2xl">
                {title}
              </Heading>
              {subtitle && <Text color="fg.muted">{subtitle}</Text>}
            </Card.Header>
            <Card.Body>{children}</Card.Body>
          </Card.Root>
        </Stack>
      </Container>
    </Box>
  );
}
