import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Input, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { recoveryCodeSchema, type RecoveryCodeValues } from '../../lib/code-schema';
import { FormField } from '../form-field';

/** One field for a saved recovery code; onCode throws to show the refusal under the field. */
export function RecoveryCodeForm({ onCode }: { onCode: (code: string) => Promise<void> }) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<RecoveryCodeValues, unknown, { code: string }>({
    resolver: zodResolver(recoveryCodeSchema),
    defaultValues: { code: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ code }) => {
    setRefusal(null);
    try {
      await onCode(code);
    } catch (error) {
      setRefusal(error instanceof Error ? error.message : String(error));
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Use recovery code">
      <Stack gap="3">
        <FormField label="Recovery code" error={errors.code?.message ?? refusal ?? undefined} required>
          <Input autoComplete="off" autoFocus placeholder="abcde-12345" {...form.register('code')} />
        </FormField>
        <Button type="submit" colorPalette="blue" loading={isSubmitting}>
          Use recovery code
        </Button>
      </Stack>
    </form>
  );
}
