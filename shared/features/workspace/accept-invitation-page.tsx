import { useState } from 'react';
import { Alert, Button, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { FormField } from '../../components/form-field';
import { LoadError } from '../../components/load-error';
import { LoadingText } from '../../components/loading-text';
import { PasswordInput } from '../../components/password-input';
import { useAuth } from '../../lib/auth-provider';
import { useSupabase } from '../../lib/platform-context';
import { firstScreenFor, joinSchema, mustChooseCredentials, type JoinValues } from './join-schema';
import { useAsync } from './use-async';
import { useWorkspaces } from './use-workspaces';
import { acceptInvitation, chooseCredentials, previewInvitation } from './workspace-api';

/**
 * The invitation link's page: who invites, for which role, and one button to join (signed in as the invitee).
 * A person the invitation gave an account to chooses their name and password here first (issue 25), and every
 * new member lands on their first useful screen: the Register for a cashier.
 */
export function AcceptInvitationPage() {
  const supabase = useSupabase();
  const navigate = useNavigate();
  const { user } = useAuth();
  const { choose, reload } = useWorkspaces();
  const token = useSearchParams()[0].get('token') ?? '';
  const [preview, retry] = useAsync(token, () => previewInvitation(supabase, token));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const needsCredentials = mustChooseCredentials(user?.user_metadata);
  const { register, handleSubmit, formState } = useForm<JoinValues>({
    resolver: zodResolver(joinSchema),
    defaultValues: { fullName: '', password: '', confirmPassword: '' },
  });
  const { errors } = formState;

  if (preview.status === 'loading') return <LoadingText />;
  if (preview.status === 'error') return <LoadError message="The invitation could not be read." error={preview.error} onRetry={retry} />;
  const invitation = preview.data;
  if (!invitation) return <Text role="alert">This invitation link is not valid. Ask the owner for a new one.</Text>;

  const accept = async (credentials?: JoinValues) => {
    setBusy(true);
    setProblem(null);
    try {
      if (credentials && user) await chooseCredentials(supabase, user.id, credentials.fullName, credentials.password);
      const businessId = await acceptInvitation(supabase, token);
      choose(businessId);
      reload();
      void navigate(firstScreenFor(invitation.role));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="4" maxW="lg">
      <Heading as="h1" size="xl">Join {invitation.business_name}</Heading>
      <Text>You are invited as a {invitation.role} ({invitation.email}).</Text>
      {invitation.status !== 'pending' ? (
        <Text role="alert">This invitation was {invitation.status}. Ask the owner for a new one.</Text>
      ) : needsCredentials ? (
        <form aria-label="Join the business" noValidate onSubmit={(event) => void handleSubmit((values) => accept(values))(event)}>
          <Stack gap="4">
            <Text>Choose the name your team will see and a password to sign in with next time.</Text>
            <FormField label="Full name" error={errors.fullName?.message} required>
              <Input autoComplete="name" {...register('fullName')} />
            </FormField>
            <FormField label="Password" error={errors.password?.message} required helperText="At least 6 characters.">
              <PasswordInput autoComplete="new-password" {...register('password')} />
            </FormField>
            <FormField label="Confirm password" error={errors.confirmPassword?.message} required>
              <PasswordInput autoComplete="new-password" {...register('confirmPassword')} />
            </FormField>
            <div><Button type="submit" loading={busy}>Join {invitation.business_name}</Button></div>
          </Stack>
        </form>
      ) : (
        <div><Button onClick={() => void accept()} loading={busy}>Accept invitation</Button></div>
      )}
      {problem && (
        <Alert.Root status="error" role="alert"><Alert.Indicator /><Alert.Title>{problem}</Alert.Title></Alert.Root>
      )}
    </Stack>
  );
}
