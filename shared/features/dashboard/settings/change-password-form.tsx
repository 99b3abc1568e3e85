import { Button, Stack } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { FormField } from '../../../components/form-field';
import { PasswordInput } from '../../../components/password-input';
import { notify } from '../../../components/toaster';
import { useSupabase } from '../../../lib/platform-context';
import { newPasswordSchema, type NewPasswordValues } from '../password-schema';
import { updatePassword } from './settings-api';

/** Settings > Change Password: rules and messages of spec sections 5 and 8. */
export function ChangePasswordForm() {
  const supabase = useSupabase();
  const { register, handleSubmit, reset, control, formState } = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = formState;
  const [newPassword, confirmPassword] = useWatch({ control, name: ['newPassword', 'confirmPassword'] });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await updatePassword(supabase, values.newPassword);
      reset();
      notify.success('Password updated', 'Your password has been successfully updated.');
    } catch (error) {
      notify.error('Error', error instanceof Error ? error.message : String(error));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change Password">
      <Stack gap="4" maxW="md">
        <FormField label="New Password" error={errors.newPassword?.message}>
          <PasswordInput autoComplete="new-password" {...register('newPassword')} />
        </FormField>
        <FormField label="Confirm New Password" error={errors.confirmPassword?.message}>
          <PasswordInput autoComplete="new-password" {...register('confirmPassword')} />
        </FormField>
        <div>
          <Button
            type="submit"
            disabled={!newPassword || !confirmPassword || isSubmitting}
            loading={isSubmitting}
            loadingText="Updating..."
          >
            Update Password
          </Button>
        </div>
      </Stack>
    </form>
  );
}
