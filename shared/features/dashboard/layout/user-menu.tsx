import { Avatar, Box, Menu, Portal, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { LuLayoutDashboard, LuLogOut, LuSettings, LuUser } from 'react-icons/lu';
import { metadataFullName, useDashboardSession } from '../dashboard-session';
import { avatarInitials, displayName } from './initials';

/** The avatar in the header and its menu: who is signed in, shortcuts, Sign Out. */
export function UserMenu() {
  const { user, signOut } = useDashboardSession();
  const fullName = metadataFullName(user);
  const name = displayName(fullName);

  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger rounded="full" focusRing="outside" aria-label={`Account menu for ${name}`}>
        <Avatar.Root size="sm" colorPalette="blue">
          <Avatar.Fallback>{avatarInitials(fullName, user.email)}</Avatar.Fallback>
        </Avatar.Root>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="14rem">
            <Box px="2" py="1.5">
              <Text fontWeight="semibold" truncate>
                {name}
              </Text>
              <Text fontSize="sm" color="fg.muted" truncate>
                {user.email}
              </Text>
            </Box>
            <Menu.Separator />
            <Menu.Item value="overview" asChild>
              <RouterLink to="/dashboard">
                <LuLayoutDashboard aria-hidden /> Overview
              </RouterLink>
            </Menu.Item>
            <Menu.Item value="profile" asChild>
              <RouterLink to="/dashboard/profile">
                <LuUser aria-hidden /> Profile
              </RouterLink>
            </Menu.Item>
            <Menu.Item value="settings" asChild>
              <RouterLink to="/dashboard/settings">
                <LuSettings aria-hidden /> Settings
              </RouterLink>
            </Menu.Item>
            <Menu.Separator />
            <Menu.Item value="sign-out" onSelect={() => void signOut()}>
              <LuLogOut aria-hidden /> Sign Out
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
