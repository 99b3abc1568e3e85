import { Button, Link, Spinner, Stack, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { FormField } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { updatePassword } from './auth-api';
import { AuthLayout } from './spa-auth-layout';
import { resetPasswordSchema, type ResetPasswordValues } from './password-schemas';
import { useResetSession } from './use-reset-session';

/** /reset-password: a new password from the emailed link (spec 2, 5, 8). */
export function ResetPasswordPage() {
  const supabase = useSupabase();
  const navigate = useNavigate();
  const status = useResetSession();
  const form = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(
    async ({ password }) => {
      const { error } = await updatePassword(supabase, password);
      if (error) return void notify.error('Error', error);
      notify.success('Password updated', 'Your password has been successfully updated.');
      navigate('/auth-success', { replace: true });
    },
    (invalid) => {
      if (invalid.confirmPassword) notify.error("Passwords don't match", 'Please make sure both passwords are the same.');
      else if (invalid.password) notify.error('Password too short', 'Password must be at least 6 characters long.');
    },
  );

  return (
    <AuthLayout title="Set a new password" subtitle="Choose a new password for your Storewise account.">
      {status === 'checking' ? (
        <Stack align="center" gap="3" py="6" role="status">
          <Spinner size="lg" />
          <Text>Checking your reset link…</Text>
        </Stack>
      ) : (
        <Stack gap="5">
          <form onSubmit={(event) => void submit(event)} noValidate aria-label="Set a new password">
            <Stack gap="4">
              <FormField label="New Password" error={errors.password?.message} required>
                <PasswordInput autoComplete="new-password" {...form.register('password')} />
              </FormField>
              <FormField label="Confirm New Password" error={errors.confirmPassword?.message} required>
                <PasswordInput autoComplete="new-password" {...form.register('confirmPassword')} />
              </FormField>
              <Button type="submit" width="full" disabled={isSubmitting}>
                {isSubmitting ? 'Please wait...' : 'Update password'}
              </Button>
            </Stack>
          </form>
          <Link asChild alignSelf="center" fontSize="sm" color="blue.fg">
            <RouterLink to="/auth">Back to log in</RouterLink>
          </Link>
        </Stack>
      )}
    </AuthLayout>
  );
}
