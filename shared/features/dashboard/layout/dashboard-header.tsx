import { Suspense } from 'react';
import { Box, Flex, IconButton, Text } from '@chakra-ui/react';
import { LuPanelLeft } from 'react-icons/lu';
import { useDashboardSlots } from './dashboard-slots';
import { NotificationBell } from './notification-bell';
import { UserMenu } from './user-menu';

/** The bar above every dashboard screen: sidebar toggle, title, notifications and the account menu. */
export function DashboardHeader({ onToggleSidebar, sidebarOpen }: { onToggleSidebar: () => void; sidebarOpen: boolean }) {
  const { header } = useDashboardSlots();
  return (
    <Flex
      as="header"
      align="center"
      gap="3"
      h="14"
      px={{ base: '3', md: '4' }}
      borderBottomWidth="1px"
      bg="bg"
      position="sticky"
      top="0"
      zIndex="docked"
    >
      <IconButton
        variant="ghost"
        size="sm"
        aria-label="Toggle Sidebar"
        aria-expanded={sidebarOpen}
        title="Toggle Sidebar (Ctrl/Cmd + B)"
        onClick={onToggleSidebar}
      >
        <LuPanelLeft />
      </IconButton>
      <Text fontWeight="semibold" fontSize="lg" display={{ base: header ? 'none' : 'block', sm: 'block' }}>
        Dashboard
      </Text>
      <Flex ml="auto" align="center" gap="2" minW="0">
        {/* The workspace switcher, remembered per device (issue 11); absent when no feature lends one. */}
        {header && <Box minW="0" maxW={{ base: '44', md: '72' }}><Suspense fallback={null}>{header}</Suspense></Box>}
        <NotificationBell />
        <UserMenu />
      </Flex>
    </Flex>
  );
}
