import { Button, Flex, Stack } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { Link as RouterLink } from 'react-router-dom';
import { FormField } from '../../../components/form-field';
import { PasswordInput } from '../../../components/password-input';
import { notify } from '../../../components/toaster';
import { usePlatform, useSupabase } from '../../../lib/platform-context';
import { useDashboardSession } from '../dashboard-session';
import { changePasswordSchema, type ChangePasswordValues } from '../password-schema';
import { SectionCard } from '../section-card';
import { WrongPasswordError, changePassword } from './security-api';

/** Security > Change Password: unlike Settings it asks for, and checks, the current password first. */
export function ChangePasswordCard() {
  const supabase = useSupabase();
  const platform = usePlatform();
  const { user } = useDashboardSession();
  const { register, handleSubmit, reset, control, setError, formState } = useForm<ChangePasswordValues>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = formState;
  const values = useWatch({ control });
  const incomplete = !values.currentPassword || !values.newPassword || !values.confirmPassword;

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      await changePassword(supabase, platform.supabase, user.email ?? '', currentPassword, newPassword);
      reset();
      notify.success('Password Updated', 'Your password has been changed successfully.');
    } catch (error) {
      if (error instanceof WrongPasswordError) {
        setError('currentPassword', { message: error.message }, { shouldFocus: true });
        notify.error('Incorrect password', error.message);
        return;
      }
      notify.error('Error', error instanceof Error ? error.message : String(error));
    }
  });

  return (
    <SectionCard title="Change Password" description="Confirm your current password, then choose a new one.">
      <form onSubmit={onSubmit} noValidate aria-label="Change Password">
        <Stack gap="4" maxW="md">
          <FormField label="Current Password" error={errors.currentPassword?.message}>
            <PasswordInput autoComplete="current-password" {...register('currentPassword')} />
          </FormField>
          <FormField label="New Password" error={errors.newPassword?.message}>
            <PasswordInput autoComplete="new-password" {...register('newPassword')} />
          </FormField>
          <FormField label="Confirm New Password" error={errors.confirmPassword?.message}>
            <PasswordInput autoComplete="new-password" {...register('confirmPassword')} />
          </FormField>
          <Flex gap="3" wrap="wrap">
            <Button type="submit" disabled={incomplete || isSubmitting} loading={isSubmitting} loadingText="Updating...">
              Update Password
            </Button>
            <Button asChild variant="ghost">
              <RouterLink to="/forgot-password">Forgot Password</RouterLink>
            </Button>
          </Flex>
        </Stack>
      </form>
    </SectionCard>
  );
}
