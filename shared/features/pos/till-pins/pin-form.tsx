import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button, HStack, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { z } from 'zod';
import { pinEntrySchema } from '../../../lib/pin-rules';

const schema = pinEntrySchema.extend({ userId: z.string().min(1, 'Choose who you are.') });
type Values = z.infer<typeof schema>;

export interface PinPerson { user_id: string; full_name: string; role: string }

/**
 * Who (from the people given) and their PIN, for a switch or an approval at the counter. The PIN field is a
 * password field with the numeric keypad, cleared after every try; it never leaves this form but to the check.
 */
export function PinForm({ label, title, people, submitLabel, error, onSubmit, onCancel }: {
  label: string;
  title: string;
  people: PinPerson[];
  submitLabel: string;
  error: string | null;
  onSubmit: (userId: string, pin: string) => Promise<void>;
  onCancel: () => void;
}) {
  const { register, handleSubmit, formState, resetField } = useForm<Values>({
    resolver: zodResolver(schema), defaultValues: { userId: people.length === 1 ? people[0]?.user_id : '', pin: '' },
  });
  const submit = handleSubmit(async (v) => {
    try {
      await onSubmit(v.userId, v.pin);
    } finally {
      resetField('pin');
    }
  });
  const problem = formState.errors.userId?.message ?? formState.errors.pin?.message ?? error;

  return (
    <Stack as="form" gap="2" borderWidth="1px" rounded="md" p="3" aria-label={label} onSubmit={(e) => void submit(e)}>
      <Text fontWeight="semibold">{title}</Text>
      {people.length === 0 ? <Text>Nobody here has a PIN yet: each person sets one in their profile, or a manager sets it in Team.</Text> : (
        <HStack wrap="wrap">
          <NativeSelect.Root maxW="xs">
            <NativeSelect.Field aria-label="Who" {...register('userId')} autoFocus>
              <option value="">Choose a person</option>
              {people.map((p) => <option key={p.user_id} value={p.user_id}>{p.full_name} ({p.role})</option>)}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Input aria-label="PIN" type="password" inputMode="numeric" autoComplete="off" maxLength={6} maxW="32"
            placeholder="PIN" {...register('pin')} />
        </HStack>
      )}
      {problem && <Text color="fg.error" role="alert">{problem}</Text>}
      <HStack>
        <Button type="submit" loading={formState.isSubmitting} disabled={people.length === 0}>{submitLabel}</Button>
        <Button variant="outline" onClick={onCancel}>Cancel</Button>
      </HStack>
    </Stack>
  );
}
