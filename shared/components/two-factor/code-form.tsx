import { Button, Input, Stack } from '@chakra-ui/react';
import { authenticatorCodeSchema } from '../../lib/code-schema';
import { FormField } from '../form-field';
import { useCodeForm } from './use-code-form';

/** One field for a code from the authenticator app and a submit button; a refused code is cleared for the next. */
export function CodeForm({ submitLabel, onCode, autoFocus = true }: {
  submitLabel: string;
  onCode: (code: string) => Promise<void>;
  autoFocus?: boolean;
}) {
  const { register, submit, error, isSubmitting } = useCodeForm(authenticatorCodeSchema, onCode, { clearOnRefusal: true });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={submitLabel}>
      <Stack gap="3">
        <FormField label="Authentication code" error={error} required>
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={7} autoFocus={autoFocus} placeholder="123456"
            {...register('code')} />
        </FormField>
        <Button type="submit" colorPalette="blue" loading={isSubmitting}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
