import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { LightButton } from '../../components/light/button';
import { fieldControl, LightField } from '../../components/light/field';
import { useNavigation } from '../../components/light/navigation';
import { LightPasswordInput } from '../../components/light/password-input';
import { createAccount, needsSecondFactor, signInWithPassword } from './auth-api';
import { AuthLayout } from './auth-layout';
import { authSchemaFor, type AuthFormValues, type AuthMode } from './auth-schema';
import { useAuthServices } from './auth-services';
import { GoogleButton } from './google-button';

/**
 * /auth: one form that toggles between signing in and creating an account (spec 2, 8). Light components only
 * (docs/adr/0168): the same component is prerendered, hydrated by web/auth-entry.tsx without the app, and
 * rendered by the app on client-side navigation (auth-page.tsx).
 */
export function AuthScreen() {
  const { supabase, platform, notify, prepare } = useAuthServices();
  const { navigate, Link } = useNavigation();
  const [mode, setMode] = useState<AuthMode>('sign-in');
  const signingIn = mode === 'sign-in';

  const form = useForm<AuthFormValues>({
    resolver: (values, context, options) => zodResolver(authSchemaFor(mode))(values, context, options),
    defaultValues: { fullName: '', email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    if (signingIn) {
      const client = await supabase();
      const { error } = await signInWithPassword(client, values.email, values.password);
      if (error) return void notify.error('Error', error);
      // Two-factor accounts go straight to the code step (the dashboard's gate asks for it).
      if (await needsSecondFactor(client)) return void navigate('/dashboard');
      notify.success('Welcome back!', 'You have successfully signed in.');
      navigate('/');
    } else {
      const { error } = await createAccount(await supabase(), await platform(), values);
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
      <div className="lt-stack lt-gap-5">
        {/* supabase-js loads while the visitor types, not on the page's load (on the app's pages it is there). */}
        <form
          onSubmit={(event) => void submit(event)}
          onFocus={prepare}
          noValidate
          aria-label={signingIn ? 'Sign in' : 'Create account'}
        >
          <div className="lt-stack lt-gap-4">
            {!signingIn && (
              <LightField id="auth-full-name" label="Full Name" error={errors.fullName?.message} required>
                <input className="lt-input" autoComplete="name" {...fieldControl('auth-full-name', errors.fullName?.message, true)} {...form.register('fullName')} />
              </LightField>
            )}
            <LightField id="auth-email" label="Email" error={errors.email?.message} required>
              <input className="lt-input" type="email" autoComplete="email" {...fieldControl('auth-email', errors.email?.message, true)} {...form.register('email')} />
            </LightField>
            <LightField id="auth-password" label="Password" error={errors.password?.message} required>
              <LightPasswordInput
                autoComplete={signingIn ? 'current-password' : 'new-password'}
                {...fieldControl('auth-password', errors.password?.message, true)}
                {...form.register('password')}
              />
            </LightField>
            {signingIn && (
              <Link to="/forgot-password" className="lt-link lt-blue lt-self-end lt-sm">
                Forgot your password?
              </Link>
            )}
            <LightButton type="submit" className="lt-full" disabled={isSubmitting}>
              {isSubmitting ? 'Please wait...' : signingIn ? 'Sign In' : 'Create Account'}
            </LightButton>
          </div>
        </form>
        <div className="lt-row">
          <span role="separator" aria-orientation="horizontal" className="lt-separator" />
          <p className="lt-sm lt-muted">or</p>
          <span role="separator" aria-orientation="horizontal" className="lt-separator" />
        </div>
        <GoogleButton disabled={isSubmitting} />
        <p className="lt-sm lt-center">
          {signingIn ? "Don't have an account? " : 'Already have an account? '}
          <LightButton variant="plain" size="sm" className="lt-inline-button" onClick={toggleMode}>
            {signingIn ? 'Sign up' : 'Sign in'}
          </LightButton>
        </p>
        <Link to="/" className="lt-link lt-self-center lt-sm">
          ← Back to home
        </Link>
      </div>
    </AuthLayout>
  );
}
