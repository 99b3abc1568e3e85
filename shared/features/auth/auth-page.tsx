import { Button, HStack, Input, Link, Separator, Stack, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { FormField } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';
import { notify } from '../../components/toaster';
import { usePlatform, useSupabase } from '../../lib/platform-context';
import { createAccount, signInWithPassword } from './auth-api';
import { AuthLayout } from './auth-layout';
import { authSchemaFor, type AuthFormValues, type AuthMode } from './auth-schema';
import { GoogleButton } from './google-button';

/** /auth: one form that toggles between signing in and creating an account (spec 2, 8). */
export function AuthPage() {
  const supabase = useSupabase();
  const platform = usePlatform();
  const navigate = useNavigate();
  const [mode, setMode] = useState<AuthMode>('sign-in');
  const signingIn = mode === 'sign-in';

  const form = useForm<AuthFormValues>({
    resolver: (values, context, options) => zodResolver(authSchemaFor(mode))(values, context, options),
    defaultValues: { fullName: '', email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    if (signingIn) {
      const { error } = await signInWithPassword(supabase, values.email, values.password);
      if (error) return void notify.error('Error', error);
      notify.success('Welcome back!', 'You have successfully signed in.');
      navigate('/');
    } else {
      const { error } = await createAccount(supabase, platform, values);
      if (error) return void notify.error('Error', error);
      notify.success('Check your email', "We've sent you a confirmation link.");
    }
  });

  function toggleMode() {
    form.clearErrors();
    setMode(signingIn ? 'sign-up' : 'sign-in');
  }

  return (
    <AuthLayout
      title={signingIn ? 'Welcome back' : 'Create your account'}
      subtitle={signingIn ? 'Sign in to your Storewise account' : 'Start managing your stores with Storewise'}
    >
      <Stack gap="5">
        <form onSubmit={(event) => void submit(event)} noValidate aria-label={signingIn ? 'Sign in' : 'Create account'}>
          <Stack gap="4">
            {!signingIn && (
              <FormField label="Full Name" error={errors.fullName?.message} required>
                <Input autoComplete="name" {...form.register('fullName')} />
              </FormField>
            )}
            <FormField label="Email" error={errors.email?.message} required>
              <Input type="email" autoComplete="email" {...form.register('email')} />
            </FormField>
            <FormField label="Password" error={errors.password?.message} required>
              <PasswordInput autoComplete={signingIn ? 'current-password' : 'new-password'} {...form.register('password')} />
            </FormField>
            {signingIn && (
              <Link asChild alignSelf="flex-end" fontSize="sm" colorPalette="blue" color="colorPalette.fg">
                <RouterLink to="/forgot-password">Forgot your password?</RouterLink>
              </Link>
            )}
            <Button type="submit" width="full" disabled={isSubmitting}>
              {isSubmitting ? 'Please wait...' : signingIn ? 'Sign In' : 'Create Account'}
            </Button>
          </Stack>
        </form>
        <HStack>
          <Separator flex="1" />
          <Text fontSize="sm" color="fg.muted">
            or
          </Text>
          <Separator flex="1" />
        </HStack>
        <GoogleButton disabled={isSubmitting} />
        <Text fontSize="sm" textAlign="center">
          {signingIn ? "Don't have an account? " : 'Already have an account? '}
          <Button variant="plain" size="sm" px="1" h="auto" color="blue.fg" textDecoration="underline" onClick={toggleMode}>
            {signingIn ? 'Sign up' : 'Sign in'}
          </Button>
        </Text>
        <Link asChild alignSelf="center" fontSize="sm">
          <RouterLink to="/">← Back to home</RouterLink>
        </Link>
      </Stack>
    </AuthLayout>
  );
}
