import { useState } from 'react';
import { Badge, Box, CloseButton, Drawer, Flex, HStack, Heading, IconButton, Portal } from '@chakra-ui/react';
import { Outlet } from 'react-router-dom';
import { AdminTwoFactorNotice } from './admin-two-factor-notice';
import { LuMenu } from 'react-icons/lu';
import { AdminSidebar } from './admin-sidebar';

/**
 * The admin shell: a fixed 16rem menu from 768px up, an off-canvas drawer below (the spec's mobile
 * breakpoint), a header, and the current admin screen.
 */
export function AdminLayout({ onSignOut }: { onSignOut: () => void }) {
  const [menuOpen, setMenuOpen] = useState(false);

  return (
    <Flex minH="100dvh" bg="bg.subtle">
      <Box
        as="nav"
        aria-label="Admin menu"
        display={{ base: 'none', md: 'block' }}
        w="16rem"
        flexShrink={0}
        bg="bg"
        borderRightWidth="1px"
        data-testid="admin-sidebar"
      >
        {/* The menu's background runs the page's full height; only its contents stay in view while scrolling. */}
        <Box position="sticky" top="0" h="100dvh" overflowY="auto">
          <AdminSidebar onSignOut={onSignOut} />
        </Box>
      </Box>

      <Flex direction="column" flex="1" minW="0">
        <HStack as="header" gap="3" px={{ base: '4', md: '8' }} py="3" bg="bg" borderBottomWidth="1px">
          <IconButton
            display={{ base: 'inline-flex', md: 'none' }}
            variant="ghost"
            aria-label="Open admin menu"
            onClick={() => setMenuOpen(true)}
          >
            <LuMenu />
          </IconButton>
          <Heading as="p" size="md">
            Storewise Admin
          </Heading>
          <Badge colorPalette="blue" variant="subtle">
            Administrator
          </Badge>
        </HStack>
        <Box as="main" flex="1" minW="0" px={{ base: '4', md: '8' }} py={{ base: '4', md: '6' }}>
          <AdminTwoFactorNotice />
          <Outlet />
        </Box>
      </Flex>

      <Drawer.Root open={menuOpen} onOpenChange={(details) => setMenuOpen(details.open)} placement="start" size="xs">
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content maxW="18rem">
              <Drawer.Header>
                <Drawer.Title>Storewise Admin</Drawer.Title>
              </Drawer.Header>
              <Drawer.Body px="0" py="0">
                <nav aria-label="Admin menu">
                  <AdminSidebar showBrand={false} onNavigate={() => setMenuOpen(false)} onSignOut={onSignOut} />
                </nav>
              </Drawer.Body>
              <Drawer.CloseTrigger asChild>
                <CloseButton size="sm" aria-label="Close admin menu" />
              </Drawer.CloseTrigger>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
    </Flex>
  );
}
