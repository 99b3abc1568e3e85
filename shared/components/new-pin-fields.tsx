import { HStack, Input, Stack, Text } from '@chakra-ui/react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from './form-field';

/**
 * A new till PIN typed twice, with the rules (shared/lib/pin-rules.ts newPinSchema checks them), for the forms
 * that set one: one's own on the profile, anyone's on Business > Team.
 */
export function NewPinFields({ pin, confirm, errors }: {
  pin: UseFormRegisterReturn; confirm: UseFormRegisterReturn; errors: { pin?: { message?: string }; confirm?: { message?: string } };
}) {
  return (
    <Stack gap="3">
      <HStack wrap="wrap" align="start">
        <FormField label="New PIN" error={errors.pin?.message}>
          <Input type="password" inputMode="numeric" autoComplete="new-password" maxLength={6} {...pin} />
        </FormField>
        <FormField label="New PIN again" error={errors.confirm?.message}>
          <Input type="password" inputMode="numeric" autoComplete="new-password" maxLength={6} {...confirm} />
        </FormField>
      </HStack>
      <Text fontSize="sm" color="fg.muted">4 to 6 digits; not a repeated digit, a run like 1234, or a repeated pair like 1212.</Text>
    </Stack>
  );
}
