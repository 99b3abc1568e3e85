import type { ReactNode } from 'react';
import { Box, Button, Flex, HStack, Link, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { NavLink } from 'react-router-dom';
import type { IconType } from 'react-icons';
import { LuBoxes, LuBuilding2, LuCalculator, LuChartColumn, LuPackage, LuCreditCard, LuLayoutDashboard, LuLifeBuoy, LuLogOut, LuShield, LuShieldCheck, LuStore } from 'react-icons/lu';
import { useIsAdmin } from '../../../lib/use-is-admin';
import { useDashboardSession } from '../dashboard-session';

interface NavItem {
  label: string;
  to: string;
  icon: IconType;
  end?: boolean;
}

const MAIN_ITEMS: NavItem[] = [
  { label: 'Overview', to: '/dashboard', icon: LuLayoutDashboard, end: true },
  { label: 'Business', to: '/dashboard/business', icon: LuBuilding2 },
  { label: 'Catalog', to: '/dashboard/catalog', icon: LuPackage },
  { label: 'Inventory', to: '/dashboard/inventory', icon: LuBoxes },
  { label: 'Register', to: '/dashboard/pos', icon: LuCalculator },
  { label: 'Reports', to: '/dashboard/reports', icon: LuChartColumn },
  { label: 'Billing', to: '/dashboard/billing', icon: LuCreditCard },
  { label: 'Security', to: '/dashboard/security', icon: LuShield },
  { label: 'Support', to: '/dashboard/support', icon: LuLifeBuoy },
];

const ADMIN_ITEM: NavItem = { label: 'Admin Panel', to: '/admin', icon: LuShieldCheck };

/** The label of an icon-only entry stays readable for screen readers; sighted users get a tooltip. */
function ItemLabel({ collapsed, children }: { collapsed: boolean; children: ReactNode }) {
  return collapsed ? <VisuallyHidden>{children}</VisuallyHidden> : <Text as="span" truncate>{children}</Text>;
}

function SidebarLink({ item, collapsed, onNavigate }: { item: NavItem; collapsed: boolean; onNavigate?: () => void }) {
  const Icon = item.icon;
  return (
    <Link
      asChild
      display="flex"
      alignItems="center"
      gap="3"
      h="9"
      px={collapsed ? '0' : '3'}
      justifyContent={collapsed ? 'center' : 'flex-start'}
      rounded="md"
      color="fg.muted"
      fontWeight="medium"
      textDecoration="none"
      _hover={{ bg: 'bg.muted', color: 'fg', textDecoration: 'none' }}
      _currentPage={{ bg: 'colorPalette.subtle', color: 'colorPalette.fg' }}
      colorPalette="blue"
    >
      <NavLink to={item.to} end={item.end} title={collapsed ? item.label : undefined} onClick={onNavigate}>
        <Icon aria-hidden size="18" style={{ flexShrink: 0 }} />
        <ItemLabel collapsed={collapsed}>{item.label}</ItemLabel>
      </NavLink>
    </Link>
  );
}

/** The sidebar's contents, shared by the desktop rail and the mobile drawer. */
export function SidebarNav({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { signOut } = useDashboardSession();
  const isAdmin = useIsAdmin() === 'admin';

  return (
    <Flex direction="column" h="full" gap="4" py="3" px={collapsed ? '1.5' : '3'}>
      <HStack gap="2" px={collapsed ? '0' : '2'} h="9" justifyContent={collapsed ? 'center' : 'flex-start'}>
        <Box color="blue.600" flexShrink={0}>
          <LuStore aria-hidden size="20" />
        </Box>
        <ItemLabel collapsed={collapsed}>
          <Text as="span" fontWeight="bold" fontSize="lg" color="fg">
            Storewise
          </Text>
        </ItemLabel>
      </HStack>

      <Stack as="nav" aria-label="Dashboard" gap="1">
        {MAIN_ITEMS.map((item) => (
          <SidebarLink key={item.to} item={item} collapsed={collapsed} onNavigate={onNavigate} />
        ))}
      </Stack>

      {isAdmin && (
        <Stack as="nav" aria-label="Administration" gap="1">
          {!collapsed && (
            <Text px="3" fontSize="xs" fontWeight="semibold" textTransform="uppercase" color="fg.muted">
              Administration
            </Text>
          )}
          <SidebarLink item={ADMIN_ITEM} collapsed={collapsed} onNavigate={onNavigate} />
        </Stack>
      )}

      <Box mt="auto">
        <Button
          variant="ghost"
          w="full"
          justifyContent={collapsed ? 'center' : 'flex-start'}
          px={collapsed ? '0' : '3'}
          color="fg.muted"
          title={collapsed ? 'Sign Out' : undefined}
          onClick={() => void signOut()}
        >
          <LuLogOut aria-hidden />
          <ItemLabel collapsed={collapsed}>Sign Out</ItemLabel>
        </Button>
      </Box>
    </Flex>
  );
}
