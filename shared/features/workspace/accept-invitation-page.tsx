import { useState } from 'react';
import { Alert, Button, Heading, Stack, Text } from '@chakra-ui/react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { LoadError } from '../../components/load-error';
import { LoadingText } from '../../components/loading-text';
import { useSupabase } from '../../lib/platform-context';
import { useAsync } from './use-async';
import { useWorkspaces } from './use-workspaces';
import { acceptInvitation, previewInvitation } from './workspace-api';

/** The invitation link's page: who invites, for which role, and one button to join (signed in as the invitee). */
export function AcceptInvitationPage() {
  const supabase = useSupabase();
  const navigate = useNavigate();
  const { choose, reload } = useWorkspaces();
  const token = useSearchParams()[0].get('token') ?? '';
  const [preview, retry] = useAsync(token, () => previewInvitation(supabase, token));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (preview.status === 'loading') return <LoadingText />;
  if (preview.status === 'error') return <LoadError message="The invitation could not be read." error={preview.error} onRetry={retry} />;
  const invitation = preview.data;
  if (!invitation) return <Text role="alert">This invitation link is not valid. Ask the owner for a new one.</Text>;

  const accept = async () => {
    setBusy(true);
    try {
      const businessId = await acceptInvitation(supabase, token);
      choose(businessId);
      reload();
      void navigate('/dashboard/business/stores');
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
      ) : (
        <div><Button onClick={() => void accept()} loading={busy}>Accept invitation</Button></div>
      )}
      {problem && (
        <Alert.Root status="error" role="alert"><Alert.Indicator /><Alert.Title>{problem}</Alert.Title></Alert.Root>
      )}
    </Stack>
  );
}
