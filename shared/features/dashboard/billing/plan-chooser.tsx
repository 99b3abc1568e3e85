import { useEffect, useState } from 'react';
import { Alert, Badge, Button, CloseButton, Dialog, Flex, Portal, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { notify } from '../../../components/toaster';
import { formatMoney } from '../../../lib/format';
import { announcePlanChanged } from '../../../lib/plan-changed-event';
import { usePlatform, useSupabase } from '../../../lib/platform-context';
import { useDashboardSession } from '../dashboard-session';
import { Loaded } from '../loaded';
import { useLoad } from '../use-load';
import { fetchBillingSummary, fetchPlanCatalog, fetchPlanUsage, type Plan } from './billing-api';
import { previewPlanChange, startPlanChange } from './billing-functions';
import { openProviderPage } from './open-provider-page';
import { describePlanChange, effectivePlanName, PAYMENT_NOTE, type BusinessUsage, type CatalogPlan, type ChangeOptions,
  type CurrentPlan } from './plan-change';

type SelfService = 'Starter' | 'Growth' | 'Pro';
const isSelfService = (name: string): name is SelfService => ['Starter', 'Growth', 'Pro'].includes(name);
const limit = (n: number | null, noun: string) => (n === null ? `Unlimited ${noun}s` : `${n} ${n === 1 ? noun : `${noun}s`}`);

function PlanOption({ plan, current, onPick }: { plan: CatalogPlan; current: boolean; onPick: () => void }) {
  return (
    <Stack as="article" aria-label={plan.plan} gap="2" borderWidth="1px" rounded="md" p="3" borderColor={current ? 'blue.500' : undefined}>
      <Flex align="center" gap="2">
        <Text fontWeight="bold" fontSize="lg">{plan.plan}</Text>
        {current && <Badge colorPalette="blue">Current plan</Badge>}
      </Flex>
      <Text>{plan.price === null ? 'Custom pricing' : `${formatMoney(plan.price)} per month, billed annually`}</Text>
      <Text fontSize="sm" color="fg.muted">
        {limit(plan.max_stores, 'store')} · {limit(plan.max_products, 'item')} · {plan.max_members === 1 ? 'Owner only' : 'Your whole team'}
      </Text>
      {plan.self_service ? (
        <Button size="sm" disabled={current} onClick={onPick}>{current ? 'Your plan' : `Choose ${plan.plan}`}</Button>
      ) : (
        <Button asChild size="sm" variant="outline">
          <RouterLink to="/dashboard/support">Ask our sales team</RouterLink>
        </Button>
      )}
    </Stack>
  );
}

/** Step two: what changes, in the database's numbers, before anything changes. */
export function PlanConfirmation({ current, catalog, usage, target, saving, onBack, onConfirm, options, providerDue }: {
  current: CurrentPlan | null; catalog: CatalogPlan[]; usage: BusinessUsage[]; target: string; saving: boolean;
  onBack: () => void; onConfirm: () => void; options?: ChangeOptions;
  /** The provider's own figure for an upgrade of a live subscription, when it has answered. */
  providerDue?: number | null;
}) {
  const change = describePlanChange(current, catalog, target, usage, new Date(), options);
  return (
    <Stack gap="3" aria-label="Confirm the plan change" role="group">
      <Text fontWeight="semibold" fontSize="lg">{change.title}</Text>
      <Table.Root size="sm" aria-label="Limits before and after">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Limit</Table.ColumnHeader><Table.ColumnHeader>Now</Table.ColumnHeader>
            <Table.ColumnHeader>After the change</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {change.limits.map((row) => (
            <Table.Row key={row.label}>
              <Table.Cell>{row.label}</Table.Cell><Table.Cell>{row.before}</Table.Cell><Table.Cell>{row.after}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
      <Text>{change.price}</Text>
      <Text>{change.trial}</Text>
      <Text fontWeight="medium" data-testid="amount-due">
        {providerDue !== undefined && providerDue !== null && providerDue > 0
          ? `Due now: ${formatMoney(providerDue / 100)} for the rest of this period, charged to your card on file.`
          : change.due}
      </Text>
      {change.notInEffect && (
        <Alert.Root status="info"><Alert.Indicator /><Alert.Description>{change.notInEffect}</Alert.Description></Alert.Root>
      )}
      {change.overLimit.length > 0 && (
        <Alert.Root status="warning" role="alert" aria-label="Over the new limits">
          <Alert.Indicator />
          <Stack gap="1">
            <Alert.Title>Over the {target} plan's limits</Alert.Title>
            {change.overLimit.map((line) => <Alert.Description key={line}>{line}</Alert.Description>)}
          </Stack>
        </Alert.Root>
      )}
      <Text fontSize="sm" color="fg.muted">{PAYMENT_NOTE}</Text>
      <Flex gap="2" justify="flex-end">
        <Button variant="outline" onClick={onBack} disabled={saving}>Back</Button>
        <Button onClick={onConfirm} loading={saving}>Confirm {target}</Button>
      </Flex>
    </Stack>
  );
}

function ChooserBody({ current, onChanged }: { current: Plan | null; onChanged: () => void }) {
  const supabase = useSupabase();
  const platform = usePlatform();
  const { user } = useDashboardSession();
  const data = useLoad(user.id, async () => {
    const [catalog, usage, summary] = await Promise.all([fetchPlanCatalog(supabase), fetchPlanUsage(supabase),
      fetchBillingSummary(supabase)]);
    const options: ChangeOptions = {
      trialAvailable: summary?.trial_available ?? false,
      hasSubscription: Boolean(summary?.has_customer) && ['trialing', 'active', 'past_due'].includes(summary?.status ?? ''),
    };
    return { catalog: catalog satisfies CatalogPlan[], usage: usage satisfies BusinessUsage[], options };
  });
  const [target, setTarget] = useState<SelfService | null>(null);
  const [saving, setSaving] = useState(false);
  const [providerDue, setProviderDue] = useState<{ plan: string; cents: number } | null>(null);
  const hasSubscription = data.state.status === 'ready' && data.state.data.options.hasSubscription;

  // An upgrade of a live subscription: ask the provider what it will charge now (the estimate shows meanwhile).
  useEffect(() => {
    if (!target || !hasSubscription) return;
    let cancelled = false;
    previewPlanChange(supabase, target).then(
      (preview) => { if (!cancelled) setProviderDue({ plan: target, cents: preview.amount_due_cents }); },
      () => { /* the estimate stays; confirming still asks the provider */ },
    );
    return () => { cancelled = true; };
  }, [supabase, target, hasSubscription]);
  const nowName = effectivePlanName(current);

  const confirm = async (plan: SelfService) => {
    setSaving(true);
    try {
      const result = await startPlanChange(supabase, plan);
      if (result.kind === 'checkout') {
        // Card entry happens on the provider's page only; it sends the owner back to /dashboard/billing/return.
        openProviderPage(platform, result.url);
        return;
      }
      notify.success(result.kind === 'upgraded' ? 'Plan changed' : 'Downgrade scheduled',
        result.kind === 'upgraded' ? `You are now on the ${result.plan} plan.`
          : `You move to ${result.plan} when the current period ends; your current plan stays until then.`);
      announcePlanChanged();
      onChanged();
    } catch (error) {
      notify.error('Plan not changed', error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Loaded load={data} errorMessage="We couldn't load the plans.">
      {({ catalog, usage, options }) => target ? (
        <PlanConfirmation current={current} catalog={catalog} usage={usage} target={target} saving={saving} options={options}
          providerDue={providerDue?.plan === target ? providerDue.cents : null}
          onBack={() => setTarget(null)} onConfirm={() => void confirm(target)} />
      ) : (
        <Stack gap="3">
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
            {catalog.filter((p) => p.plan !== 'Free').map((plan) => (
              <PlanOption key={plan.plan} plan={plan}
                current={plan.plan === nowName}
                onPick={() => isSelfService(plan.plan) && setTarget(plan.plan)} />
            ))}
          </SimpleGrid>
          <Text fontSize="sm" color="fg.muted">{PAYMENT_NOTE}</Text>
        </Stack>
      )}
    </Loaded>
  );
}

/**
 * Billing's plan chooser (issues 11 and 24): pick a plan, read what changes (limits, price, trial, the amount
 * due, what would be over a limit), then confirm: a new subscription goes to the provider's checkout, a change
 * of a live one is made by billing-checkout (upgrade now, prorated; downgrade at the period's end).
 */
export function PlanChooser({ open, onOpenChange, current, onChanged }: {
  open: boolean; onOpenChange: (open: boolean) => void; current: Plan | null; onChanged: () => void;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={(event) => onOpenChange(event.open)} size="lg" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>Choose a plan</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {open && <ChooserBody current={current} onChanged={() => {
                onChanged();
                onOpenChange(false);
              }} />}
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
