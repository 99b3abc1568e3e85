import { Button, Container, Heading, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { useEffect } from 'react';
import { LuArrowLeft, LuHouse } from 'react-icons/lu';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { BrandLogo } from '../../components/brand-logo';

/** Any unknown route (spec 2): the spec's texts, Return Home, Go Back, and the path logged. */
export function NotFoundPage() {
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    console.warn('404: no route matches', location.pathname);
  }, [location.pathname]);

  return (
    <Container as="main" maxW="lg" minH="100dvh" display="flex" alignItems="center" py="10">
      <Stack gap="6" align="center" textAlign="center" width="full">
        <Link asChild aria-label="Storewise home" rounded="md">
          <RouterLink to="/">
            <BrandLogo />
          </RouterLink>
        </Link>
        <Text fontSize="6xl" fontWeight="bold" color="blue.fg" lineHeight="1" aria-hidden="true">
          404
        </Text>
        <Heading as="h1" size="2xl">
          Oops! Page not found
        </Heading>
        <Text color="fg.muted">The page you&apos;re looking for doesn&apos;t exist or has been moved.</Text>
        <HStack gap="3" wrap="wrap" justify="center">
          <Button asChild>
            <RouterLink to="/">
              <LuHouse aria-hidden="true" /> Return Home
            </RouterLink>
          </Button>
          {/* A link opened in a fresh tab has no page behind it: going back would do nothing, so go home. */}
          <Button variant="outline" onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/'))}>
            <LuArrowLeft aria-hidden="true" /> Go Back
          </Button>
        </HStack>
      </Stack>
    </Container>
  );
}
