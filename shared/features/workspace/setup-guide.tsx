import { useState, type ReactNode } from 'react';
import { Badge, Button, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { LuCircle, LuCircleCheck } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { useAsync } from './use-async';
import { WorkspaceCard } from './workspace-card';
import { addSampleCatalog, dismissSetup, fetchSetupProgress, type SetupProgress, type Workspace } from './workspace-api';

type StepKey = 'details' | 'store' | 'register' | 'products' | 'team' | 'sale';

interface Step { key: StepKey; title: string; text: string; action: ReactNode }

const link = (to: string, label: string, variant: 'solid' | 'outline' = 'solid') => (
  <Button asChild size="xs" variant={variant}><RouterLink to={to}>{label}</RouterLink></Button>
);

/**
 * The path from an empty account to a first sale (issue 25), for the owner on the Overview: business details, a
 * store, a register, products (add, import or a sample catalog for the business's type), staff, and a test sale at
 * the register. Each step is ticked from the database (setup_progress) as it is done; the owner can hide the guide.
 */
export function SetupGuide({ workspace }: { workspace: Workspace }) {
  const supabase = useSupabase();
  const [version, setVersion] = useState(0);
  const [busy, setBusy] = useState(false);
  const [state] = useAsync(`${workspace.id}|${version}`, () => fetchSetupProgress(supabase, workspace.id));
  if (state.status !== 'ready') return null;
  const progress: SetupProgress = state.data;
  const steps: Step[] = [
    { key: 'details', title: 'Business details', text: 'Your business email and phone, printed on receipts and invoices.',
      action: link('/dashboard/business', 'Add details') },
    { key: 'store', title: 'Your first store', text: 'Its address, time zone, currency and taxes.',
      action: link('/dashboard/business/stores', 'Add a store') },
    { key: 'register', title: 'A register', text: 'Each till of the store is a register with its own receipt numbers.',
      action: link('/dashboard/business/stores', 'Add a register') },
    { key: 'products', title: 'Products', text: 'Add them one by one, import a spreadsheet, or start from sample products.',
      action: (
        <HStack wrap="wrap" gap="2">
          {link('/dashboard/catalog', 'Add products')}
          <Button size="xs" variant="outline" loading={busy} onClick={async () => {
            setBusy(true);
            try {
              const added = await addSampleCatalog(supabase, workspace.id);
              notify.success('Sample products added', `${added} ${progress.business_type.toLowerCase()} items are in your catalog.`);
              setVersion((v) => v + 1);
            } catch (error) {
              notify.error('Sample products not added', error instanceof Error ? error.message : 'Please try again.');
            } finally {
              setBusy(false);
            }
          }}>Start from sample products</Button>
        </HStack>
      ) },
    { key: 'team', title: 'Your staff', text: 'Invite managers and cashiers; each signs in with their own account.',
      action: link('/dashboard/business/team', 'Invite staff') },
    { key: 'sale', title: 'A test sale', text: 'Open the register, start a shift and ring up a first sale.',
      action: link('/dashboard/pos', 'Open the register') },
  ];
  const done = steps.filter((s) => progress[s.key]).length;
  if (progress.dismissed || done === steps.length) return null;
  const hide = async () => {
    try {
      await dismissSetup(supabase, workspace.id);
      setVersion((v) => v + 1);
    } catch (error) {
      notify.error('Could not hide the guide', error instanceof Error ? error.message : 'Please try again.');
    }
  };
  return (
    <WorkspaceCard title={`Get ${workspace.name} ready for its first sale`}
      description={`${done} of ${steps.length} steps done. Each step ticks itself off when it is done.`}
      actions={<Button size="xs" variant="ghost" onClick={() => void hide()}>Hide this guide</Button>}>
      <Stack gap="3" data-testid="setup-guide">
        <Progress.Root value={(done / steps.length) * 100} size="sm" aria-label="Setup progress">
          <Progress.Track><Progress.Range /></Progress.Track>
        </Progress.Root>
        <Stack as="ol" gap="3" listStyleType="none">
          {steps.map((step) => (
            <HStack as="li" key={step.key} align="flex-start" gap="3" data-testid={`setup-step-${step.key}`}
              data-done={progress[step.key] ? 'true' : 'false'}>
              <Text as="span" color={progress[step.key] ? 'fg.success' : 'fg.muted'} mt="1" aria-hidden>
                {progress[step.key] ? <LuCircleCheck /> : <LuCircle />}
              </Text>
              <Stack gap="1" flex="1" minW="0">
                <HStack wrap="wrap" gap="2">
                  <Text fontWeight="semibold">{step.title}</Text>
                  {progress[step.key] && <Badge colorPalette="green">Done</Badge>}
                </HStack>
                <Text fontSize="sm" color="fg.muted">{step.text}</Text>
                {!progress[step.key] && step.action}
              </Stack>
            </HStack>
          ))}
        </Stack>
      </Stack>
    </WorkspaceCard>
  );
}
