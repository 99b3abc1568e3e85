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
import { setAutoRenew, type BillingSummary, type Plan } from './billing-api';
import { setProviderAutoRenew } from './billing-functions';
import { usePortal } from './use-portal';
import { PAYMENT_NOTE } from './plan-change';
import { PlanChooser } from './plan-chooser';

const LIVE = ['trialing', 'active', 'past_due'];

/** True when the plan is a subscription at the payment provider (its switches act there). */
export const billedByProvider = (summary: BillingSummary | null) => Boolean(summary?.has_customer) && LIVE.includes(summary?.status ?? '');

/**
 * The auto-renew switch: flips at once, saves, and flips back with the spec's toast when the save fails. On a
 * provider subscription it is cancel-at-period-end at the provider; on a plan chosen before billing, the row.
 */
function AutoRenewSwitch({ plan, viaProvider, onChange }: { plan: Plan; viaProvider: boolean; onChange: (autoRenew: boolean) => void }) {
  const supabase = useSupabase();
  const { user } = useDashboardSession();
  const [saving, setSaving] = useState(false);

  const toggle = async (next: boolean) => {
    onChange(next);
    setSaving(true);
    try {
      const saved = viaProvider ? await setProviderAutoRenew(supabase, next) : await setAutoRenew(supabase, user.id, next);
      onChange(saved);
      notify.success('Settings Updated', `Auto-renew has been ${saved ? 'enabled' : 'disabled'}.`);
    } catch (error) {
      console.error('Auto-renew save failed:', error instanceof Error ? error.message : 'unknown');
      onChange(!next);
      notify.error('Error', 'Failed to update auto-renew settings.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Switch.Root checked={plan.auto_renew} disabled={saving} onCheckedChange={(event) => void toggle(event.checked)} colorPalette="blue">
      <Switch.HiddenInput />
      <Switch.Control />
      <Switch.Label>Auto-renew</Switch.Label>
    </Switch.Root>
  );
}

function PlanDetails({ plan, summary, onAutoRenewChange, onChoose }: {
  plan: Plan | null; summary: BillingSummary | null; onAutoRenewChange: (value: boolean) => void; onChoose: () => void;
}) {
  const portal = usePortal();
  const hasAccount = Boolean(summary?.has_customer);
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
        {summary && plan && summary.plan !== plan.plan_name && (
          <Text fontSize="sm" color="fg.muted" data-testid="limits-in-force">Limits in force now: {summary.plan}</Text>
        )}
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
      {plan && <AutoRenewSwitch plan={plan} viaProvider={billedByProvider(summary)} onChange={onAutoRenewChange} />}
      <Flex gap="3" wrap="wrap">
        <Button onClick={onChoose}>Upgrade Plan</Button>
        <Button variant="outline" disabled={!hasAccount} loading={portal.opening} onClick={() => void portal.open()}
          title={hasAccount ? undefined : 'Choose a plan first'}>
          Change Payment Method
        </Button>
      </Flex>
      <Text fontSize="sm" color="fg.muted" data-testid="payment-note">{PAYMENT_NOTE}</Text>
    </Stack>
  );
}

/** The plan and its actions; "Upgrade Plan" opens the chooser (also opened by /dashboard/billing?choose=plan). */
export function PlanCard({ load, summary, chooserOpen, onChooserOpenChange, onChanged }: {
  load: Load<Plan | null>; summary: BillingSummary | null; chooserOpen: boolean;
  onChooserOpenChange: (open: boolean) => void; onChanged: () => void;
}) {
  return (
    <SectionCard title="Current Plan" description="Your subscription and renewal.">
      <Loaded load={load} errorMessage="We couldn't load your plan.">
        {(plan) => (
          <>
            <PlanDetails
              plan={plan}
              summary={summary}
              onAutoRenewChange={(autoRenew) => load.update((current) => current && { ...current, auto_renew: autoRenew })}
              onChoose={() => onChooserOpenChange(true)}
            />
            <PlanChooser open={chooserOpen} onOpenChange={onChooserOpenChange} current={plan} onChanged={onChanged} />
          </>
        )}
      </Loaded>
    </SectionCard>
  );
}
