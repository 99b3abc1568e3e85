import { Button, Input, Link, Stack, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { LuMailCheck } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { FormField } from '../../components/form-field';
import { notify } from '../../components/toaster';
import { usePlatform, useSupabase } from '../../lib/platform-context';
import { requestPasswordReset } from './auth-api';
import { AuthLayout } from './spa-auth-layout';
import { forgotPasswordSchema, type ForgotPasswordValues } from './password-schemas';

function BackToSignIn() {
  return (
    <Link asChild alignSelf="center" fontSize="sm" color="blue.fg">
      <RouterLink to="/auth">Back to sign in</RouterLink>
    </Link>
  );
}

/** /forgot-password: the form, then the "Check your email" view (spec 2, 8). */
export function ForgotPasswordPage() {
  const supabase = useSupabase();
  const platform = usePlatform();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<ForgotPasswordValues>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ email }) => {
    const { error } = await requestPasswordReset(supabase, platform, email);
    if (error) return void notify.error('Error', error);
    notify.success('Check your email', "We've sent you a password reset link.");
    setSentTo(email);
  });

  if (sentTo) {
    return (
      <AuthLayout title="Check your email">
        <Stack gap="5" align="stretch">
          <LuMailCheck size="40" aria-hidden="true" style={{ alignSelf: 'center', color: '#2563eb' }} />
          <Text textAlign="center">
            We&apos;ve sent a password reset link to <strong>{sentTo}</strong>. Follow it to choose a new password.
          </Text>
          <Button
            variant="outline"
            onClick={() => {
              form.reset({ email: '' });
              setSentTo(null);
            }}
          >
            Try another email
          </Button>
          <BackToSignIn />
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Forgot your password?" subtitle="Enter your email and we'll send you a reset link.">
      <Stack gap="5">
        <form onSubmit={(event) => void submit(event)} noValidate aria-label="Reset password">
          <Stack gap="4">
            <FormField label="Email" error={errors.email?.message} required>
              <Input type="email" autoComplete="email" {...form.register('email')} />
            </FormField>
            <Button type="submit" width="full" disabled={isSubmitting}>
              {isSubmitting ? 'Please wait...' : 'Reset password'}
            </Button>
          </Stack>
        </form>
        <BackToSignIn />
      </Stack>
    </AuthLayout>
  );
}
