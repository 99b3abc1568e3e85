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
import { PAYMENT_NOTE } from './plan-change';
import { PlanChooser } from './plan-chooser';

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

function PlanDetails({ plan, onAutoRenewChange, onChoose }: {
  plan: Plan | null; onAutoRenewChange: (value: boolean) => void; onChoose: () => void;
}) {
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
        <Button onClick={onChoose}>Upgrade Plan</Button>
        {/* Payment details wait for payment collection (out of scope for now, said below). */}
        <Button variant="outline" disabled title="Payment collection is not available yet">
          Change Payment Method
        </Button>
      </Flex>
      <Text fontSize="sm" color="fg.muted" data-testid="payment-note">{PAYMENT_NOTE}</Text>
    </Stack>
  );
}

/** The plan and its actions; "Upgrade Plan" opens the chooser (also opened by /dashboard/billing?choose=plan). */
export function PlanCard({ load, chooserOpen, onChooserOpenChange }: {
  load: Load<Plan | null>; chooserOpen: boolean; onChooserOpenChange: (open: boolean) => void;
}) {
  return (
    <SectionCard title="Current Plan" description="Your subscription and renewal.">
      <Loaded load={load} errorMessage="We couldn't load your plan.">
        {(plan) => (
          <>
            <PlanDetails
              plan={plan}
              onAutoRenewChange={(autoRenew) => load.update((current) => current && { ...current, auto_renew: autoRenew })}
              onChoose={() => onChooserOpenChange(true)}
            />
            <PlanChooser open={chooserOpen} onOpenChange={onChooserOpenChange} current={plan}
              onChanged={(saved) => load.update(() => saved)} />
          </>
        )}
      </Loaded>
    </SectionCard>
  );
}
