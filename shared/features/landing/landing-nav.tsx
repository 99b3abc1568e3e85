import { Box, Button, Container, Grid, HStack, IconButton, Link, Stack } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { LuMenu, LuX } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { BrandLogo } from '../../components/brand-logo';
import { HydratedControl } from '../../components/prerendered-parts';
import { useAuth } from '../../lib/auth-provider';
import { SectionLink } from './section-link';
import { landingSections } from './sections';

function AccountButtons({ direction }: { direction: 'row' | 'column' }) {
  const { user, loading } = useAuth();
  if (loading) return null;
  const stretch = direction === 'column' ? 'full' : undefined;
  if (user) {
    return (
      <Button asChild width={stretch}>
        <RouterLink to="/dashboard">Dashboard</RouterLink>
      </Button>
    );
  }
  return (
    <Stack direction={direction} gap="2">
      <Button asChild variant="ghost" width={stretch}>
        <RouterLink to="/auth">Sign In</RouterLink>
      </Button>
      <Button asChild width={stretch}>
        <RouterLink to="/signup">Get Started</RouterLink>
      </Button>
    </Stack>
  );
}

/** Sticky top bar: section anchors, account buttons, and a menu button below 768 px (spec 2, 9). */
export function LandingNav() {
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => event.key === 'Escape' && setMenuOpen(false);
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);

  return (
    <Box as="header" position="sticky" top="0" zIndex="sticky" bg="bg/95" backdropFilter="blur(8px)" borderBottomWidth="1px">
      <Container maxW="7xl" px={{ base: '3', sm: '6' }}>
        {/* Three columns with equal sides: the account buttons arrive after hydration (docs/adr/0090) and
            switch to Dashboard when signed in, and neither moves the links beside them. */}
        <Grid h="16" alignItems="center" templateColumns={{ base: '1fr auto', md: '1fr auto 1fr' }} gap="4">
          <Link asChild aria-label="Storewise home" rounded="md" justifySelf="start">
            <RouterLink to="/">
              <BrandLogo />
            </RouterLink>
          </Link>
          <HStack as="nav" aria-label="Main" gap="6" hideBelow="md">
            {landingSections.map((section) => (
              <SectionLink key={section.id} section={section.id} color="fg.muted" fontWeight="medium">
                {section.label}
              </SectionLink>
            ))}
          </HStack>
          <Box hideBelow="md" justifySelf="end">
            <AccountButtons direction="row" />
          </Box>
          <HydratedControl>
            <IconButton
              hideFrom="md"
              justifySelf="end"
              variant="ghost"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpen}
              aria-controls="mobile-menu"
              onClick={() => setMenuOpen((open) => !open)}
            >
              {menuOpen ? <LuX /> : <LuMenu />}
            </IconButton>
          </HydratedControl>
        </Grid>
      </Container>
      {menuOpen && (
        <Box id="mobile-menu" hideFrom="md" borderTopWidth="1px" bg="bg" pb="4" data-testid="mobile-menu">
          <Container maxW="7xl" px={{ base: '3', sm: '6' }}>
            <Stack as="nav" aria-label="Mobile" gap="1" py="2">
              {landingSections.map((section) => (
                <SectionLink
                  key={section.id}
                  section={section.id}
                  // The open menu sits in the page flow above the sections: remove it before the scroll
                  // target is measured, or the smooth scroll overshoots by the menu's height.
                  onNavigate={() => flushSync(() => setMenuOpen(false))}
                  py="2"
                  px="2"
                  rounded="md"
                  fontWeight="medium"
                >
                  {section.label}
                </SectionLink>
              ))}
            </Stack>
            <AccountButtons direction="column" />
          </Container>
        </Box>
      )}
    </Box>
  );
}
