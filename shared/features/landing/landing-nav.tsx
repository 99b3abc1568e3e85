import { Box, Button, Container, Grid, HStack, IconButton, Link, Stack } from '@chakra-ui/react';
import { LuMenu, LuX } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { BrandLogo } from '../../components/brand-logo';
import { useAuth } from '../../lib/auth-provider';
import { SectionLink } from './section-link';
import { landingSections } from './sections';

/**
 * Sign In and Get Started for a visitor, Dashboard once a signed-in user is known. A visitor's landing is never
 * hydrated (docs/adr/0167), so the visitor's buttons are the prerendered ones, and also what a signed-in
 * browser shows until supabase-js has read its session.
 */
function AccountButtons({ direction }: { direction: 'row' | 'column' }) {
  const { user } = useAuth();
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

const menuId = 'mobile-menu';
// The button's icon follows the menu's open state, in CSS: there is no script on a visitor's landing.
const iconForState = {
  [`&:has(#${menuId}:popover-open) .menu-icon-closed, &:not(:has(#${menuId}:popover-open)) .menu-icon-open`]: { display: 'none' },
};

/**
 * Sticky top bar: section anchors, account buttons, and below 768 px a menu that is a native popover
 * (docs/adr/0167): its button opens and closes it, Escape and a tap outside close it, and the browser gives the
 * button its expanded state, all without JavaScript. Choosing a link in it closes it (closeMenuOf).
 */
export function LandingNav() {
  return (
    <Box as="header" position="sticky" top="0" zIndex="sticky" bg="bg/95" backdropFilter="blur(8px)" borderBottomWidth="1px" css={iconForState}>
      <Container maxW="7xl" px={{ base: '3', sm: '6' }}>
        {/* Three columns with equal sides: the account buttons switch to Dashboard when signed in (docs/adr/0090)
            without moving the links beside them. */}
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
          <IconButton hideFrom="md" justifySelf="end" variant="ghost" aria-label="Menu" popoverTarget={menuId}>
            <LuMenu className="menu-icon-closed" aria-hidden="true" />
            <LuX className="menu-icon-open" aria-hidden="true" />
          </IconButton>
        </Grid>
      </Container>
      {/* In the top layer, just below the header; the browser hides it while closed (never set display here). */}
      <Box
        id={menuId}
        popover="auto"
        hideFrom="md"
        position="fixed"
        top="calc(4rem + 1px)"
        left="0"
        right="0"
        bottom="auto"
        width="auto"
        maxH="calc(100dvh - 4rem - 1px)"
        m="0"
        p="0"
        pb="4"
        color="fg"
        bg="bg"
        borderWidth="0"
        borderBottomWidth="1px"
        shadow="md"
        data-testid="mobile-menu"
      >
        <Container maxW="7xl" px={{ base: '3', sm: '6' }}>
          <Stack as="nav" aria-label="Mobile" gap="1" py="2">
            {landingSections.map((section) => (
              <SectionLink key={section.id} section={section.id} py="2" px="2" rounded="md" fontWeight="medium">
                {section.label}
              </SectionLink>
            ))}
          </Stack>
          <AccountButtons direction="column" />
        </Container>
      </Box>
    </Box>
  );
}
