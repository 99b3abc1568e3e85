import { Button, DataList, Input, SimpleGrid, Stack } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { FormField } from '../../../components/form-field';
import { notify } from '../../../components/toaster';
import { formatDateTime } from '../../../lib/format';
import { useSupabase } from '../../../lib/platform-context';
import { useDashboardSession } from '../dashboard-session';
import { BreakableText } from '../../../components/breakable-text';
import { DataItem } from '../data-item';
import { Loaded } from '../loaded';
import { PageHeader } from '../page-header';
import { SectionCard } from '../section-card';
import { useLoad } from '../use-load';
import { fetchMyMemberships, fetchProfile, saveProfile, type Profile } from './profile-api';
import { TillPinSection } from './till-pin-section';
import { profileSchema, type ProfileValues } from './profile-schema';

function ProfileForm({ profile, onSaved }: { profile: Profile; onSaved: (saved: Profile) => void }) {
  const supabase = useSupabase();
  const { user } = useDashboardSession();
  const { register, handleSubmit, reset, formState } = useForm<ProfileValues>({
    resolver: zodResolver(profileSchema),
    defaultValues: { fullName: profile.full_name ?? '', phone: profile.phone ?? '' },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await saveProfile(supabase, user.id, values, profile);
      reset({ fullName: saved.full_name ?? '', phone: saved.phone ?? '' });
      onSaved(saved);
      notify.success('Profile updated', 'Your profile has been successfully updated.');
    } catch (error) {
      // The typed values stay in the form so the user can fix and resend them.
      notify.error('Error', error instanceof Error ? error.message : String(error));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="4" maxW="xl">
        <FormField label="Email" helperText="Email cannot be changed from this interface">
          <Input value={user.email ?? ''} readOnly bg="bg.muted" />
        </FormField>
        <FormField label="Full Name" error={errors.fullName?.message}>
          <Input autoComplete="name" placeholder="Your full name" {...register('fullName')} />
        </FormField>
        <FormField label="Phone (optional)" error={errors.phone?.message}>
          <Input type="tel" autoComplete="tel" placeholder="+1 555 010 0100" {...register('phone')} />
        </FormField>
        <div>
          <Button type="submit" loading={isSubmitting} loadingText="Saving...">
            Save Changes
          </Button>
        </div>
      </Stack>
    </form>
  );
}

/** /dashboard/profile: the editable profile and the account facts. */
export function ProfilePage() {
  const supabase = useSupabase();
  const { user } = useDashboardSession();
  const profile = useLoad(user.id, () => fetchProfile(supabase, user.id));
  const memberships = useLoad(`${user.id}|members`, () => fetchMyMemberships(supabase, user.id));

  return (
    <>
      <PageHeader title="Profile" description="Manage your personal information." />
      <SimpleGrid columns={{ base: 1, lg: 3 }} gap="4" alignItems="start">
        <Stack gridColumn={{ lg: 'span 2' }}>
          <SectionCard title="Personal Information" description="Update your name and phone number.">
            <Loaded load={profile} errorMessage="We couldn't load your profile.">
              {(data) => <ProfileForm profile={data} onSaved={(saved) => profile.update(() => saved)} />}
            </Loaded>
          </SectionCard>
          {memberships.state.status === 'ready' && memberships.state.data.length > 0 && (
            <SectionCard title="Till PIN" description="Switch the register to yourself at the counter, and approve as a manager, with a PIN only you know.">
              <TillPinSection memberships={memberships.state.data} />
            </SectionCard>
          )}
        </Stack>
        <SectionCard title="Account Information">
          <DataList.Root orientation="vertical" gap="3">
            <DataItem label="User ID" value={<BreakableText text={user.id} />} />
            <DataItem label="Email Confirmed" value={user.email_confirmed_at ? 'Yes' : 'No'} />
            <DataItem label="Account Created" value={formatDateTime(user.created_at)} />
            <DataItem label="Last Sign In" value={formatDateTime(user.last_sign_in_at, 'Never')} />
          </DataList.Root>
        </SectionCard>
      </SimpleGrid>
    </>
  );
}
