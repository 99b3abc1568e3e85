import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button, NativeSelect, Stack } from '@chakra-ui/react';
import { z } from 'zod';
import { FormField } from '../../components/form-field';
import { NewPinFields } from '../../components/new-pin-fields';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { newPinSchema } from '../../lib/pin-rules';
import { WorkspaceCard } from './workspace-card';
import { setTillPin, type TeamMember, type Workspace } from './workspace-api';

const schema = newPinSchema.and(z.object({ userId: z.string().min(1, 'Choose whose PIN this is.') }));
type Values = z.infer<typeof schema>;

/**
 * Till PINs (ADR 0300): each person sets their own; an owner sets or resets anyone's, a manager their cashiers'
 * (a reset also lifts a lockout). The database checks the rules again and audits each change without the PIN.
 */
export function TillPinCard({ workspace, members, myId }: { workspace: Workspace; members: TeamMember[]; myId: string | null }) {
  const supabase = useSupabase();
  const isOwner = workspace.role === 'owner';
  const others = members.filter((m) => m.user_id !== myId && (isOwner ? m.role !== 'owner' : m.role === 'cashier'));
  const { register, handleSubmit, formState, reset } = useForm<Values>({
    resolver: zodResolver(schema), defaultValues: { userId: myId ?? '', pin: '', confirm: '' },
  });
  const submit = handleSubmit(async (v) => {
    try {
      await setTillPin(supabase, workspace.id, v.userId, v.pin, v.userId === myId);
      notify.success(v.userId === myId ? 'Your till PIN is set' : 'Their till PIN is set; any lockout is lifted');
      reset({ userId: v.userId, pin: '', confirm: '' });
    } catch (e) {
      notify.error('PIN not set', e instanceof Error ? e.message : 'Please try again.');
    }
  });

  return (
    <WorkspaceCard title="Till PINs" description="Staff switch the register to themselves and managers approve discounts and refunds with a 4 to 6 digit PIN.">
      <Stack as="form" gap="3" aria-label="Set a till PIN" onSubmit={(e) => void submit(e)} maxW="md">
        <FormField label="Whose PIN" error={formState.errors.userId?.message}>
          <NativeSelect.Root>
            <NativeSelect.Field {...register('userId')}>
              {myId && <option value={myId}>Mine</option>}
              {others.map((m) => <option key={m.user_id} value={m.user_id}>{m.full_name ?? m.email} ({m.role})</option>)}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </FormField>
        <NewPinFields pin={register('pin')} confirm={register('confirm')} errors={formState.errors} />
        <Button type="submit" alignSelf="start" loading={formState.isSubmitting}>Set PIN</Button>
      </Stack>
    </WorkspaceCard>
  );
}
