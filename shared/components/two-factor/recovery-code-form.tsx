import { Button, Input, Stack } from '@chakra-ui/react';
import { recoveryCodeSchema } from '../../lib/code-schema';
import { FormField } from '../form-field';
import { useCodeForm } from './use-code-form';

/** One field for a saved recovery code; the refusal shows under the field. */
export function RecoveryCodeForm({ onCode }: { onCode: (code: string) => Promise<void> }) {
  const { register, submit, error, isSubmitting } = useCodeForm(recoveryCodeSchema, onCode);
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Use recovery code">
      <Stack gap="3">
        <FormField label="Recovery code" error={error} required>
          <Input autoComplete="off" autoFocus placeholder="abcde-12345" {...register('code')} />
        </FormField>
        <Button type="submit" colorPalette="blue" loading={isSubmitting}>
          Use recovery code
        </Button>
      </Stack>
    </form>
  );
}
