import { useState } from 'react';
import { Badge, Button, Checkbox, Code, HStack, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { FormField } from '../../components/form-field';
import { LoadError } from '../../components/load-error';
import { LoadingText } from '../../components/loading-text';
import { notify } from '../../components/toaster';
import { useAuth } from '../../lib/auth-provider';
import { usePlatform, useSupabase } from '../../lib/platform-context';
import { invitationMailClient, sendInvitationEmail } from './invitation-email';
import { invitationLink } from './invitation-link';
import { PLAN_LIMIT_CODE } from './plan-limit';
import { useAsync } from './use-async';
import { useWorkspaces } from './use-workspaces';
import { TransferOwnershipCard } from './transfer-ownership-card';
import { TillPinCard } from './till-pin-card';
import { WorkspaceCard } from './workspace-card';
import { changeMember, fetchInvitations, fetchStores, fetchTeam, inviteMember, removeMember, revokeInvitation,
  WorkspaceError, type Store, type TeamMember, type Workspace } from './workspace-api';
import { inviteSchema, type InviteValues } from './workspace-schemas';

const errorText = (error: unknown) =>
  error instanceof WorkspaceError && error.code === PLAN_LIMIT_CODE ? `${error.message}. ${error.hint ?? ''}`
    : error instanceof Error ? error.message : 'Please try again.';


interface SentLink {
  email: string;
  url: string;
  /** Null when the email went out; else why not (the link can still be copied). */
  emailProblem: string | null;
}

function InviteForm({ workspace, stores, link, onInvited }: {
  workspace: Workspace; stores: Store[]; link: SentLink | null; onInvited: (link: SentLink) => void;
}) {
  const supabase = useSupabase();
  const platform = usePlatform();
  const { register, handleSubmit, control, reset, formState } = useForm<InviteValues>({
    resolver: zodResolver(inviteSchema), defaultValues: { email: '', role: 'cashier', allStores: true, storeIds: [] },
  });
  const allStores = useWatch({ control, name: 'allStores' });
  const onSubmit = handleSubmit(async (values) => {
    try {
      const { token } = await inviteMember(supabase, workspace.id, values.email, values);
      const url = invitationLink(window.location.origin, token);
      let emailProblem: string | null = null;
      try {
        await sendInvitationEmail(invitationMailClient(platform.supabase), values.email, url);
      } catch (error) {
        emailProblem = error instanceof Error ? error.message : 'The invitation email could not be sent.';
      }
      reset();
      onInvited({ email: values.email, url, emailProblem });
    } catch (error) {
      notify.error('Invitation not sent', errorText(error));
    }
  });
  return (
    <Stack gap="3">
      <form onSubmit={onSubmit} noValidate aria-label="Invite a member">
        <Stack gap="3" maxW="lg">
          <FormField label="Email" required error={formState.errors.email?.message}>
            <Input type="email" {...register('email')} />
          </FormField>
          <FormField label="Role" required>
            <NativeSelect.Root>
              <NativeSelect.Field {...register('role')}>
                <option value="cashier">Cashier</option>
                <option value="manager">Manager</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <Controller control={control} name="allStores" render={({ field }) => (
            <Checkbox.Root checked={field.value} onCheckedChange={(e) => field.onChange(e.checked === true)}>
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>All stores</Checkbox.Label>
            </Checkbox.Root>
          )} />
          {!allStores && (
            <Controller control={control} name="storeIds" render={({ field }) => (
              <Stack gap="1" role="group" aria-label="Stores">
                {stores.filter((s) => !s.archived_at).map((s) => (
                  <Checkbox.Root key={s.id} checked={field.value.includes(s.id)} onCheckedChange={(e) =>
                    field.onChange(e.checked === true ? [...field.value, s.id] : field.value.filter((id) => id !== s.id))}>
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                    <Checkbox.Label>{s.name}</Checkbox.Label>
                  </Checkbox.Root>
                ))}
                {formState.errors.storeIds && <Text fontSize="sm" color="fg.error">{formState.errors.storeIds.message}</Text>}
              </Stack>
            )} />
          )}
          <div><Button type="submit" loading={formState.isSubmitting}>Invite</Button></div>
        </Stack>
      </form>
      {link && (
        <Stack gap="1" borderWidth="1px" rounded="md" p="3" role="status">
          <Text>
            {link.emailProblem
              ? `Invitation created for ${link.email}. ${link.emailProblem} Send them this link instead:`
              : `Invitation emailed to ${link.email}. You can also send them this link:`}
            {' '}it works once, for that address, for 7 days.
          </Text>
          <Code wordBreak="break-all" data-testid="invitation-link">{link.url}</Code>
        </Stack>
      )}
    </Stack>
  );
}

function MemberRow({ member, workspace, stores, onChanged }: {
  member: TeamMember; workspace: Workspace; stores: Store[]; onChanged: () => void;
}) {
  const supabase = useSupabase();
  const isOwner = workspace.role === 'owner';
  const storeNames = member.all_stores || member.role === 'owner' ? 'All stores'
    : stores.filter((s) => member.store_ids.includes(s.id)).map((s) => s.name).join(', ') || 'No store';
  const run = async (action: () => Promise<void>, done: string) => {
    try {
      await action();
      notify.success(done);
      onChanged();
    } catch (error) {
      notify.error('Not changed', errorText(error));
    }
  };
  return (
    <Table.Row>
      <Table.Cell>{member.full_name ?? member.email}</Table.Cell>
      <Table.Cell>{member.email}</Table.Cell>
      <Table.Cell>
        {isOwner && member.role !== 'owner' ? (
          <NativeSelect.Root size="xs" maxW="32">
            <NativeSelect.Field aria-label={`Role of ${member.email}`} value={member.role} onChange={(e) => {
              const role = e.currentTarget.value as 'manager' | 'cashier';
              void run(() => changeMember(supabase, workspace.id, member.user_id,
                { role, allStores: member.all_stores, storeIds: member.store_ids }), 'Role changed');
            }}>
              <option value="manager">Manager</option>
              <option value="cashier">Cashier</option>
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        ) : <Badge>{member.role}</Badge>}
      </Table.Cell>
      <Table.Cell>{storeNames}</Table.Cell>
      <Table.Cell>
        {isOwner && member.role !== 'owner' && (
          <Button size="xs" variant="outline" colorPalette="red" onClick={() => {
            if (window.confirm(`Remove ${member.email} from ${workspace.name}? Their access ends at once.`)) {
              void run(() => removeMember(supabase, workspace.id, member.user_id), 'Member removed');
            }
          }}>Remove</Button>
        )}
      </Table.Cell>
    </Table.Row>
  );
}

export function TeamPage({ workspace }: { workspace: Workspace }) {
  const supabase = useSupabase();
  const { reload: reloadWorkspaces } = useWorkspaces();
  const { user } = useAuth();
  const isOwner = workspace.role === 'owner';
  // Kept here, not in the form: the reload after an invitation remounts the form.
  const [link, setLink] = useState<SentLink | null>(null);
  const [team, reload] = useAsync(workspace.id, async () => ({
    members: await fetchTeam(supabase, workspace.id),
    stores: await fetchStores(supabase, workspace.id),
    invitations: isOwner ? await fetchInvitations(supabase, workspace.id) : [],
  }));
  const changed = () => {
    reload();
    reloadWorkspaces();
  };
  if (team.status === 'loading') return <LoadingText />;
  if (team.status === 'error') return <LoadError message="The team could not be loaded." error={team.error} onRetry={reload} />;
  const { members, stores, invitations } = team.data;
  return (
    <Stack gap="5">
      <WorkspaceCard title="Team" description={`${members.length} ${members.length === 1 ? 'person' : 'people'}`}>
        {/* At 390 px the table scrolls inside its card (focusable, so by keyboard too), never the whole page. */}
        <Table.ScrollArea tabIndex={0} aria-label="Team members, scrollable">
        <Table.Root size="sm" aria-label="Team members">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Name</Table.ColumnHeader><Table.ColumnHeader>Email</Table.ColumnHeader>
              <Table.ColumnHeader>Role</Table.ColumnHeader><Table.ColumnHeader>Stores</Table.ColumnHeader>
              <Table.ColumnHeader><span className="sr-only">Actions</span></Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {members.map((m) => <MemberRow key={m.user_id} member={m} workspace={workspace} stores={stores} onChanged={changed} />)}
          </Table.Body>
        </Table.Root>
        </Table.ScrollArea>
      </WorkspaceCard>
      {isOwner && (
        <WorkspaceCard title="Invite a member" description={workspace.max_members === 1
          ? 'Your plan is for the owner alone: choose a paid plan on the Billing page to invite a team.'
          : 'Managers run stores; cashiers sell in the stores you choose.'}>
          <InviteForm workspace={workspace} stores={stores} link={link} onInvited={(sent) => {
            setLink(sent);
            reload();
          }} />
        </WorkspaceCard>
      )}
      {isOwner && invitations.length > 0 && (
        <WorkspaceCard title="Pending invitations">
          <Stack gap="2">
            {invitations.map((inv) => (
              <HStack key={inv.id} justify="space-between" borderWidth="1px" rounded="md" p="2" wrap="wrap">
                <Text>{inv.email} · {inv.role} · expires {new Date(inv.expires_at).toLocaleDateString()}</Text>
                <Button size="xs" variant="outline" onClick={() => void revokeInvitation(supabase, inv.id).then(
                  () => { notify.success('Invitation revoked'); reload(); },
                  (error: unknown) => notify.error('Not revoked', errorText(error)))}>Revoke</Button>
              </HStack>
            ))}
          </Stack>
        </WorkspaceCard>
      )}
      <TillPinCard workspace={workspace} members={members} myId={user?.id ?? null} />
      {isOwner && <TransferOwnershipCard workspace={workspace} members={members} onTransferred={changed} />}
    </Stack>
  );
}
