import { useState } from 'react';
import { Button, DataList, Flex, HStack, Stack, Switch, Text } from '@chakra-ui/react';
import { notify } from '../../../components/toaster';
import { formatDate } from '../../../lib/format';
import { useSupabase } from '../../../lib/platform-context';
import { useDashboardSession } from '../dashboard-session';
import { Loaded } from '../loaded';
import { planPriceLine } from '../../../lib/plan-price';
import { SectionCard } from '../section-card';
import { StatusBadge } from '../../../components/status-badge';
import type { Load } from '../use-load';
import { setAutoRenew, type Plan } from './billing-api';

/** The auto-renew switch: flips at once, saves, and flips back with the spec's toast when the save fails. */
function AutoRenewSwitch({ plan, onChange }: { plan: Plan; onChange: (autoRenew: boolean) => void }) {
  const supabase = useSupabase();
  const { user } = useDashboardSession();
  const [saving, setSaving] = useState(false);

  const toggle = async (next: boolean) => {
    onChange(next);
    setSaving(true);
    try {
      const saved = await setAutoRenew(supabase, user.id, next);
      onChange(saved);
      notify.success('Settings Updated', `Auto-renew has been ${saved ? 'enabled' : 'disabled'}.`);
    } catch (error) {
      console.error('Auto-renew save failed:', error);
      onChange(!next);
      notify.error('Error', 'Failed to update auto-renew settings.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Switch.Root
      checked={plan.auto_renew}
      disabled={saving}
      onCheckedChange={(event) => void toggle(event.checked)}
      colorPalette="blue"
    >
      <Switch.HiddenInput />
      <Switch.Control />
      <Switch.Label>Auto-renew</Switch.Label>
    </Switch.Root>
  );
}

function PlanDetails({ plan, onAutoRenewChange }: { plan: Plan | null; onAutoRenewChange: (value: boolean) => void }) {
  return (
    <Stack gap="4">
      <Stack gap="1">
        <HStack gap="2" wrap="wrap">
          <Text fontSize="2xl" fontWeight="bold" data-testid="plan-name">
            {plan?.plan_name ?? 'Free'}
          </Text>
          {plan && <StatusBadge status={plan.status} />}
        </HStack>
        <Text color="fg.muted">{planPriceLine(plan)}</Text>
      </Stack>
      {plan && (
        <DataList.Root orientation="horizontal" gap="2">
          <DataList.Item>
            <DataList.ItemLabel minW="9rem">Start Date</DataList.ItemLabel>
            <DataList.ItemValue>{formatDate(plan.started_at)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel minW="9rem">Next Billing Date</DataList.ItemLabel>
            <DataList.ItemValue>{formatDate(plan.next_billing_date, 'Not scheduled')}</DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
      )}
      {plan && <AutoRenewSwitch plan={plan} onChange={onAutoRenewChange} />}
      <Flex gap="3" wrap="wrap">
        {/* Plan changes and payment details are handled by the billing back office (not in this release). */}
        <Button disabled title="Coming soon">
          Upgrade Plan
        </Button>
        <Button variant="outline" disabled title="Coming soon">
          Change Payment Method
        </Button>
      </Flex>
    </Stack>
  );
}

export function PlanCard({ load }: { load: Load<Plan | null> }) {
  return (
    <SectionCard title="Current Plan" description="Your subscription and renewal.">
      <Loaded load={load} errorMessage="We couldn't load your plan.">
        {(plan) => (
          <PlanDetails
            plan={plan}
            onAutoRenewChange={(autoRenew) => load.update((current) => current && { ...current, auto_renew: autoRenew })}
          />
        )}
      </Loaded>
    </SectionCard>
  );
}
