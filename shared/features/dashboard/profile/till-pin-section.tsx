import { Button, NativeSelect, Stack } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormField } from '../../../components/form-field';
import { NewPinFields } from '../../../components/new-pin-fields';
import { notify } from '../../../components/toaster';
import { newPinSchema } from '../../../lib/pin-rules';
import { useSupabase } from '../../../lib/platform-context';
import { setMyPin, type Membership } from './profile-api';

const schema = newPinSchema.and(z.object({ businessId: z.string().min(1, 'Choose the business.') }));
type Values = z.infer<typeof schema>;

/**
 * One's own till PIN (ADR 0300), so a cashier need not tell a manager the PIN they switch the register with.
 * A manager can still reset it (Business > Team), which also lifts a lockout.
 */
export function TillPinSection({ memberships }: { memberships: Membership[] }) {
  const supabase = useSupabase();
  const { register, handleSubmit, formState, reset } = useForm<Values>({
    resolver: zodResolver(schema), defaultValues: { businessId: memberships[0]?.businessId ?? '', pin: '', confirm: '' },
  });
  const submit = handleSubmit(async (v) => {
    try {
      await setMyPin(supabase, v.businessId, v.pin);
      notify.success('Your till PIN is set', 'Use it to switch the register to yourself.');
      reset({ businessId: v.businessId, pin: '', confirm: '' });
    } catch (error) {
      notify.error('PIN not set', error instanceof Error ? error.message : 'Please try again.');
    }
  });

  return (
    <Stack as="form" gap="3" aria-label="Your till PIN" onSubmit={(e) => void submit(e)} maxW="md">
      {memberships.length > 1 && (
        <FormField label="Business" error={formState.errors.businessId?.message}>
          <NativeSelect.Root>
            <NativeSelect.Field {...register('businessId')}>
              {memberships.map((m) => <option key={m.businessId} value={m.businessId}>{m.name} ({m.role})</option>)}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </FormField>
      )}
      <NewPinFields pin={register('pin')} confirm={register('confirm')} errors={formState.errors} />
      <Button type="submit" alignSelf="start" loading={formState.isSubmitting}>Set my PIN</Button>
    </Stack>
  );
}
