import { Box, Flex, IconButton, Text } from '@chakra-ui/react';
import { LuBell, LuPanelLeft } from 'react-icons/lu';
import { UserMenu } from './user-menu';

/** The bar above every dashboard screen: sidebar toggle, title, notifications and the account menu. */
export function DashboardHeader({ onToggleSidebar, sidebarOpen }: { onToggleSidebar: () => void; sidebarOpen: boolean }) {
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
      <Text fontWeight="semibold" fontSize="lg">
        Dashboard
      </Text>
      <Flex ml="auto" align="center" gap="2">
        {/* The spec shows a bell with an unread dot; there is no notification feed behind it yet. */}
        <Box position="relative" p="2" color="fg.muted" role="img" aria-label="Notifications">
          <LuBell size="20" aria-hidden />
          <Box
            position="absolute"
            top="1.5"
            right="1.5"
            boxSize="2"
            rounded="full"
            bg="red.500"
            data-testid="notification-dot"
          />
        </Box>
        <UserMenu />
      </Flex>
    </Flex>
  );
}
