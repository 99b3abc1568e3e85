import { Box, Button, Checkbox, Input, Link, NativeSelect, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { FormField } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';
import { notify } from '../../components/toaster';
import { usePlatform, useSupabase } from '../../lib/platform-context';
import { useRememberPlanFromQuery } from '../../lib/plan-from-query';
import { registerOwner } from './auth-api';
import { AuthLayout } from './spa-auth-layout';
import { RememberedPlanNote } from './remembered-plan-note';
import { businessTypes, emptySignup, signupSchema, type SignupInput, type SignupValues } from './signup-schema';

/** Links to the legal pages open in a new tab so the half-filled form stays put (spec 2). */
function LegalLink({ to, children }: { to: string; children: string }) {
  return (
    <Link asChild color="blue.fg" textDecoration="underline">
      <RouterLink to={to} target="_blank" rel="noopener noreferrer">
        {children}
      </RouterLink>
    </Link>
  );
}

/** /signup, "Step 1: Create Account": the eight fields and messages of spec 5, the toasts of spec 8. */
export function SignupPage() {
  const supabase = useSupabase();
  const platform = usePlatform();
  const navigate = useNavigate();
  // The landing's plan links arrive as /signup?plan=<name> (docs/adr/0167).
  useRememberPlanFromQuery();
  const form = useForm<SignupInput, unknown, SignupValues>({
    resolver: zodResolver(signupSchema),
    defaultValues: emptySignup,
    // Validate on submit, then field by field; a field's error goes as soon as it is edited (spec 5).
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
  const { errors, isSubmitting } = form.formState;

  // Editing a field clears its own error only; the others stay until the next submit.
  const field = <K extends keyof SignupInput>(name: K) =>
    form.register(name, { onChange: () => form.clearErrors(name) });

  const submit = form.handleSubmit(
    async (values) => {
      const { error } = await registerOwner(supabase, platform, values);
      if (error) return void notify.error('Error', error || 'Failed to create account. Please try again.');
      notify.success('Account created successfully!', 'Check your email for confirmation, then proceed to plan selection.');
      navigate({ pathname: '/', hash: '#pricing' });
    },
    () => notify.error('Validation Error', 'Please check the form and try again.'),
  );

  return (
    <AuthLayout title="Step 1: Create Account" subtitle="Tell us about you and your business" wide>
      <Stack gap="5">
        <RememberedPlanNote />
        <form onSubmit={(event) => void submit(event)} noValidate aria-label="Create account">
          <Stack gap="4">
            <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
              <FormField label="Full Name" error={errors.fullName?.message} required>
                <Input autoComplete="name" {...field('fullName')} />
              </FormField>
              <FormField label="Business Name" error={errors.businessName?.message} required>
                <Input autoComplete="organization" {...field('businessName')} />
              </FormField>
              <FormField label="Business Type" error={errors.businessType?.message} required>
                <NativeSelect.Root>
                  <NativeSelect.Field placeholder="Select business type" {...field('businessType')}>
                    {businessTypes.map((type) => (
                      <option key={type} value={type}>
                        {type}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </FormField>
              <FormField label="Business Email" error={errors.businessEmail?.message} required>
                <Input type="email" autoComplete="email" {...field('businessEmail')} />
              </FormField>
              <FormField label="Phone Number" error={errors.phone?.message} required>
                <Input type="tel" autoComplete="tel" {...field('phone')} />
              </FormField>
              <Box hideBelow="sm" aria-hidden="true" />
              <FormField label="Password" error={errors.password?.message} required>
                <PasswordInput autoComplete="new-password" {...field('password')} />
              </FormField>
              <FormField label="Confirm Password" error={errors.confirmPassword?.message} required>
                <PasswordInput autoComplete="new-password" {...field('confirmPassword')} />
              </FormField>
            </SimpleGrid>
            <Controller
              control={form.control}
              name="agreeToTerms"
              render={({ field: checkbox }) => (
                <Stack gap="1">
                  <Checkbox.Root
                    checked={checkbox.value}
                    onCheckedChange={(details) => {
                      form.clearErrors('agreeToTerms');
                      checkbox.onChange(details.checked === true);
                    }}
                    invalid={Boolean(errors.agreeToTerms)}
                    alignItems="flex-start"
                  >
                    <Checkbox.HiddenInput name={checkbox.name} onBlur={checkbox.onBlur} ref={checkbox.ref} />
                    <Checkbox.Control mt="0.5" />
                    <Checkbox.Label fontWeight="normal">
                      I agree to the <LegalLink to="/terms">Terms of Service</LegalLink> and{' '}
                      <LegalLink to="/privacy">Privacy Policy</LegalLink>
                    </Checkbox.Label>
                  </Checkbox.Root>
                  {errors.agreeToTerms && (
                    <Text color="fg.error" fontSize="sm" role="alert">
                      {errors.agreeToTerms.message}
                    </Text>
                  )}
                </Stack>
              )}
            />
            <Button type="submit" width="full" disabled={isSubmitting}>
              {isSubmitting ? 'Creating Account...' : 'Create Account'}
            </Button>
          </Stack>
        </form>
        <Text fontSize="sm" textAlign="center">
          Already have an account?{' '}
          <Link asChild color="blue.fg" textDecoration="underline">
            <RouterLink to="/auth">Sign in</RouterLink>
          </Link>
        </Text>
        <Link asChild alignSelf="center" fontSize="sm">
          <RouterLink to="/">← Back to home</RouterLink>
        </Link>
      </Stack>
    </AuthLayout>
  );
}
