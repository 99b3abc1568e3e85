import { Box, Button, Stack, Text } from '@chakra-ui/react';
import { NavLink } from 'react-router-dom';
import { LuLogOut } from 'react-icons/lu';
import { BrandLogo } from '../../../components/brand-logo';
import { adminNav, adminPath } from './admin-nav';

export interface AdminSidebarProps {
  /** Called after a menu link is followed (the mobile drawer closes). */
  onNavigate?: () => void;
  onSignOut: () => void;
  /** The drawer shows its own title, so the brand is shown only in the fixed sidebar. */
  showBrand?: boolean;
}

/** The admin menu: the nine entries of the spec and Sign Out. */
export function AdminSidebar({ onNavigate, onSignOut, showBrand = true }: AdminSidebarProps) {
  return (
    <Stack gap="4" h="full" py="4">
      {showBrand && (
        <Box px="4">
          <BrandLogo />
          <Text fontSize="xs" color="fg.muted" mt="1">
            Admin Panel
          </Text>
        </Box>
      )}
      <Stack as="ul" gap="0.5" px="2" flex="1" listStyleType="none">
        {adminNav.map((item) => (
          <li key={item.label}>
            <Button
              asChild
              variant="ghost"
              justifyContent="flex-start"
              w="full"
              fontWeight="normal"
              color="fg.muted"
              _currentPage={{ bg: 'blue.subtle', color: 'blue.fg', fontWeight: 'semibold' }}
            >
              <NavLink to={adminPath(item)} end={item.path === ''} onClick={onNavigate}>
                <item.icon aria-hidden />
                {item.label}
              </NavLink>
            </Button>
          </li>
        ))}
      </Stack>
      <Box px="2">
        <Button variant="outline" w="full" justifyContent="flex-start" onClick={onSignOut}>
          <LuLogOut aria-hidden /> Sign Out
        </Button>
      </Box>
    </Stack>
  );
}
