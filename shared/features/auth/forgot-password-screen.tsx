import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { LuMailCheck } from 'react-icons/lu';
import { LightButton } from '../../components/light/button';
import { fieldControl, LightField } from '../../components/light/field';
import { useNavigation } from '../../components/light/navigation';
import { requestPasswordReset } from './auth-api';
import { AuthLayout } from './auth-layout';
import { useAuthServices } from './auth-services';
import { forgotPasswordSchema, type ForgotPasswordValues } from './password-schemas';

function BackToSignIn() {
  const { Link } = useNavigation();
  return (
    <Link to="/auth" className="lt-link lt-blue lt-self-center lt-sm">
      Back to sign in
    </Link>
  );
}

/**
 * /forgot-password: the form, then the "Check your email" view (spec 2, 8). Light components only
 * (docs/adr/0168), like AuthScreen: prerendered, hydrated without the app, and rendered by the app.
 */
export function ForgotPasswordScreen() {
  const { supabase, platform, notify, prepare } = useAuthServices();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<ForgotPasswordValues>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ email }) => {
    const { error } = await requestPasswordReset(await supabase(), await platform(), email);
    if (error) return void notify.error('Error', error);
    notify.success('Check your email', "We've sent you a password reset link.");
    setSentTo(email);
  });

  if (sentTo) {
    return (
      <AuthLayout title="Check your email">
        <div className="lt-stack lt-gap-5">
          <LuMailCheck size="40" aria-hidden="true" style={{ alignSelf: 'center', color: '#2563eb' }} />
          <p className="lt-center">
            We&apos;ve sent a password reset link to <strong>{sentTo}</strong>. Follow it to choose a new password.
          </p>
          <LightButton
            variant="outline"
            onClick={() => {
              form.reset({ email: '' });
              setSentTo(null);
            }}
          >
            Try another email
          </LightButton>
          <BackToSignIn />
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Forgot your password?" subtitle="Enter your email and we'll send you a reset link.">
      <div className="lt-stack lt-gap-5">
        <form onSubmit={(event) => void submit(event)} onFocus={prepare} noValidate aria-label="Reset password">
          <div className="lt-stack lt-gap-4">
            <LightField id="forgot-email" label="Email" error={errors.email?.message} required>
              <input className="lt-input" type="email" autoComplete="email" {...fieldControl('forgot-email', errors.email?.message, true)} {...form.register('email')} />
            </LightField>
            <LightButton type="submit" className="lt-full" disabled={isSubmitting}>
              {isSubmitting ? 'Please wait...' : 'Reset password'}
            </LightButton>
          </div>
        </form>
        <BackToSignIn />
      </div>
    </AuthLayout>
  );
}
