import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Input, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { authenticatorCodeSchema, type AuthenticatorCodeValues } from '../../lib/code-schema';
import { FormField } from '../form-field';

/**
 * One field for a code from the authenticator app and a submit button. onCode throws to show the service's
 * refusal under the field (wrong code, too many tries) instead of in a toast the user may miss.
 */
export function CodeForm({ submitLabel, onCode, autoFocus = true }: {
  submitLabel: string;
  onCode: (code: string) => Promise<void>;
  autoFocus?: boolean;
}) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<AuthenticatorCodeValues, unknown, { code: string }>({
    resolver: zodResolver(authenticatorCodeSchema),
    defaultValues: { code: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ code }) => {
    setRefusal(null);
    try {
      await onCode(code);
    } catch (error) {
      setRefusal(error instanceof Error ? error.message : String(error));
      form.setValue('code', '');
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={submitLabel}>
      <Stack gap="3">
        <FormField label="Authentication code" error={errors.code?.message ?? refusal ?? undefined} required>
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            autoFocus={autoFocus}
            placeholder="123456"
            {...form.register('code')}
          />
        </FormField>
        <Button type="submit" colorPalette="blue" loading={isSubmitting}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
