import { Button, DataList, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { storeUsage } from './plan-limit';
import { useWorkspaces } from './use-workspaces';
import type { Workspace } from './workspace-api';
import { SetupGuide } from './setup-guide';
import { BusinessDeletionBanner } from './business-deletion-banner';
import { WorkspaceCard } from './workspace-card';

/** No plan, canceled or expired: the plan functions call it Free (ADR 0100). */
export const isFreePlan = (plan: string) => plan.toLowerCase() === 'free';

/**
 * The Overview's "business at a glance" (issue 11): the chosen business, its plan, stores used of the limit and
 * members. A Free business is invited to choose a plan. Rendered by the dashboard through a slot.
 */
export function BusinessGlance() {
  const { status, current } = useWorkspaces();
  if (status !== 'ready' || !current) return null;
  return (
    <>
      <BusinessDeletionBanner workspace={current} />
      <BusinessGlanceCard workspace={current} />
      {/* Below the card: the guide loads a moment later and must not move the card's links under a click. */}
      {current.role === 'owner' && <SetupGuide workspace={current} />}
    </>
  );
}

export function BusinessGlanceCard({ workspace: current }: { workspace: Workspace }) {
  const members = current.members_used;
  return (
    <WorkspaceCard title="Your business at a glance" description={`You are its ${current.role}.`}>
      <Stack gap="3">
        <DataList.Root orientation="horizontal" gap="2">
          <DataList.Item>
            <DataList.ItemLabel minW="8rem">Business</DataList.ItemLabel>
            <DataList.ItemValue>{current.name}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel minW="8rem">Plan</DataList.ItemLabel>
            <DataList.ItemValue>{current.plan}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel minW="8rem">Stores</DataList.ItemLabel>
            <DataList.ItemValue>{storeUsage(current)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel minW="8rem">Members</DataList.ItemLabel>
            <DataList.ItemValue>{members} {members === 1 ? 'person' : 'people'}</DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
        {isFreePlan(current.plan) && current.role === 'owner' && (
          <Stack gap="2" borderWidth="1px" rounded="md" p="3" role="note" aria-label="Choose a plan">
            <Text>
              You are on the Free plan: 1 store, 25 products and no team. Choose a plan to open more stores, add
              products and invite your team.
            </Text>
            <div>
              <Button asChild size="sm"><RouterLink to="/dashboard/billing?choose=plan">Choose a plan</RouterLink></Button>
            </div>
          </Stack>
        )}
        <div>
          <Button asChild size="sm" variant="outline"><RouterLink to="/dashboard/business">Manage your business</RouterLink></Button>
        </div>
      </Stack>
    </WorkspaceCard>
  );
}
