import { Alert, Box, Heading, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { NavLink, Route, Routes } from 'react-router-dom';
import { LoadError } from '../../components/load-error';
import { LoadingText } from '../../components/loading-text';
import { ActivityPage } from './activity-page';
import { AcceptInvitationPage } from './accept-invitation-page';
import { BusinessSettingsPage } from './business-settings-page';
import { CustomerPage } from './customer-page';
import { CustomersPage } from './customers-page';
import { StoresPage } from './stores-page';
import { TeamPage } from './team-page';
import { useWorkspaces, WorkspaceProvider } from './use-workspaces';
import { BusinessDeletionBanner } from './business-deletion-banner';

const TABS = [
  { label: 'Settings', to: '/dashboard/business', end: true, roles: ['owner', 'manager', 'cashier'] },
  { label: 'Stores', to: '/dashboard/business/stores', end: false, roles: ['owner', 'manager', 'cashier'] },
  { label: 'Team', to: '/dashboard/business/team', end: false, roles: ['owner', 'manager'] },
  { label: 'Customers', to: '/dashboard/business/customers', end: false, roles: ['owner', 'manager'] },
  { label: 'Activity', to: '/dashboard/business/activity', end: false, roles: ['owner', 'manager'] },
];

/** What a role that may not open a tab sees there (a typed or old link): a sentence and where to go, not a 403. */
function NotForYourRole({ what, role }: { what: string; role: string }) {
  return (
    <Stack gap="2" role="status">
      <Text>{what} is for the owner and managers; as a {role} you do not see it.</Text>
      <Text>
        Ring up sales at the <Link asChild color="blue.fg"><NavLink to="/dashboard/pos">Register</NavLink></Link>, or ask the
        owner if you need more.
      </Text>
    </Stack>
  );
}

const mayOpen = (to: string, role: string) => TABS.find((tab) => tab.to === to)?.roles.includes(role) ?? true;

function BusinessArea() {
  const { status, error, current, reload } = useWorkspaces();
  if (status === 'loading') return <LoadingText />;
  if (status === 'error') return <LoadError message="Your businesses could not be loaded." error={error} onRetry={reload} />;
  if (!current) {
    return <Text>You do not belong to a business yet. Accept an invitation from its owner to join one.</Text>;
  }
  if (current.suspended_at) {
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{current.name} is suspended</Alert.Title>
          <Alert.Description>
            {current.suspended_reason ?? 'No reason was given.'} Nobody in your team can use its data until Storewise
            lifts the suspension: contact support from the Support page.
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  }
  return (
    <Stack gap="5">
      <BusinessDeletionBanner workspace={current} />
      <HStack as="nav" aria-label="Business" gap="1" wrap="wrap" borderBottomWidth="1px">
        {TABS.filter((tab) => tab.roles.includes(current.role)).map((tab) => (
          <Link key={tab.to} asChild px="3" py="2" fontWeight="medium" color="fg.muted" textDecoration="none"
            _currentPage={{ color: 'blue.fg', borderBottomWidth: '2px', borderColor: 'blue.solid' }}>
            <NavLink to={tab.to} end={tab.end}>{tab.label}</NavLink>
          </Link>
        ))}
      </HStack>
      <Routes>
        <Route index element={<BusinessSettingsPage workspace={current} />} />
        <Route path="stores" element={<StoresPage workspace={current} />} />
        <Route path="team" element={mayOpen('/dashboard/business/team', current.role)
          ? <TeamPage workspace={current} /> : <NotForYourRole what="The team" role={current.role} />} />
        <Route path="customers" element={mayOpen('/dashboard/business/customers', current.role)
          ? <CustomersPage workspace={current} /> : <NotForYourRole what="The customer list" role={current.role} />} />
        <Route path="customers/:customerId" element={mayOpen('/dashboard/business/customers', current.role)
          ? <CustomerPage workspace={current} /> : <NotForYourRole what="The customer list" role={current.role} />} />
        <Route path="activity" element={mayOpen('/dashboard/business/activity', current.role)
          ? <ActivityPage workspace={current} /> : <NotForYourRole what="The activity trail" role={current.role} />} />
      </Routes>
    </Stack>
  );
}

/** The Business area of the dashboard (/dashboard/business/*): settings, stores, team, customers and activity. */
export function WorkspaceApp() {
  return (
    <WorkspaceProvider>
      <Routes>
        <Route path="invitations/accept" element={<AcceptInvitationPage />} />
        <Route
          path="*"
          element={
            <Stack gap="5">
              {/* The workspace switcher is in the dashboard header (workspace-frame.tsx). */}
              <Box>
                <Heading as="h1" size="xl">Business</Heading>
                <Text color="fg.muted">Your business, its stores, its team and what happened in it.</Text>
              </Box>
              <BusinessArea />
            </Stack>
          }
        />
      </Routes>
    </WorkspaceProvider>
  );
}
