import { Box, CloseButton, Drawer, Flex, Portal } from '@chakra-ui/react';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { LoadingText } from '../../../components/loading-text';
import { DashboardHeader } from './dashboard-header';
import { PlatformNotices } from './platform-notices';
import { SidebarNav } from './sidebar-nav';
import { useSidebar } from './use-sidebar';

/** Sidebar widths of spec section 9: 16rem open, 3rem as icons, 18rem as the mobile drawer. */
const WIDTH_OPEN = '16rem';
const WIDTH_ICONS = '3rem';
const WIDTH_MOBILE = '18rem';

export function DashboardLayout() {
  const sidebar = useSidebar();

  return (
    <Flex minH="100dvh" bg="bg.subtle">
      {!sidebar.isMobile && (
        <Box
          as="aside"
          data-testid="sidebar"
          data-state={sidebar.expanded ? 'expanded' : 'collapsed'}
          w={sidebar.expanded ? WIDTH_OPEN : WIDTH_ICONS}
          flexShrink={0}
          borderRightWidth="1px"
          bg="bg"
          transition="width 0.2s ease"
          // clip, not hidden: hidden would make the rail a scroll container and stop its contents sticking.
          overflowX="clip"
        >
          {/* The rail's background runs the page's full height; only its contents stay in view while scrolling. */}
          <Box position="sticky" top="0" h="100dvh">
            <SidebarNav collapsed={!sidebar.expanded} />
          </Box>
        </Box>
      )}

      {sidebar.isMobile && (
        <Drawer.Root
          open={sidebar.mobileOpen}
          onOpenChange={(event) => sidebar.setMobileOpen(event.open)}
          placement="start"
        >
          <Portal>
            <Drawer.Backdrop />
            <Drawer.Positioner>
              <Drawer.Content data-testid="sidebar-drawer" maxW={WIDTH_MOBILE} w={WIDTH_MOBILE}>
                <Drawer.Title srOnly>Navigation</Drawer.Title>
                <Drawer.Body p="0">
                  <SidebarNav collapsed={false} onNavigate={() => sidebar.setMobileOpen(false)} />
                </Drawer.Body>
                <Drawer.CloseTrigger asChild top="3" insetEnd="3">
                  <CloseButton size="sm" aria-label="Close navigation" />
                </Drawer.CloseTrigger>
              </Drawer.Content>
            </Drawer.Positioner>
          </Portal>
        </Drawer.Root>
      )}

      <Flex direction="column" flex="1" minW="0">
        <DashboardHeader
          onToggleSidebar={sidebar.toggle}
          sidebarOpen={sidebar.isMobile ? sidebar.mobileOpen : sidebar.expanded}
        />
        <Box as="main" flex="1" p={{ base: '4', md: '6' }} maxW="6xl" w="full" mx="auto">
          <PlatformNotices />
          {/* A screen whose code is still loading waits here, inside the frame: the sidebar and header show at
              once instead of the whole dashboard giving way to the root's spinner (docs/adr/0418). */}
          <Suspense fallback={<LoadingText />}>
            <Outlet />
          </Suspense>
        </Box>
      </Flex>
    </Flex>
  );
}
