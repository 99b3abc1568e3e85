import { Button, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { FormField } from '../../components/form-field';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { useWorkspaces } from './use-workspaces';
import { WorkspaceCard } from './workspace-card';
import { ManagersTwoFactorCard } from './managers-two-factor-card';
import { DeleteBusinessCard } from './delete-business-card';
import { PacksCard } from './packs-card';
import { ExchangeRatesCard } from './exchange-rates-card';
import { BusinessLogoCard } from './business-logo-card';
import { BusinessExportCard } from './business-export-card';
import { countryOptions } from '../../lib/countries';
import { fetchBusiness, fetchStores, updateBusiness, type Workspace } from './workspace-api';
import { useAsync } from './use-async';
import { BUSINESS_TYPES, businessSchema, type BusinessValues } from './workspace-schemas';
import { storeUsage } from './plan-limit';

const countries = countryOptions();

export function BusinessSettingsPage({ workspace }: { workspace: Workspace }) {
  const supabase = useSupabase();
  const [business] = useAsync(workspace.id, () => fetchBusiness(supabase, workspace.id));
  const loaded = business.status === 'ready' ? business.data : null;
  const contact = loaded ?? { email: null, phone: null, country: null };
  const managersNeedTwoFactor = loaded ? loaded.managers_need_two_factor : null;
  const { reload } = useWorkspaces();
  const isOwner = workspace.role === 'owner';
  const canSetRates = isOwner || workspace.role === 'manager';
  const [stores] = useAsync(`${workspace.id}:stores`, () => fetchStores(supabase, workspace.id));
  const storeCurrencies = stores.status === 'ready'
    ? [...new Set(stores.data.filter((st) => !st.archived_at).map((st) => st.currency))] : [];
  const { register, handleSubmit, formState } = useForm<BusinessValues>({
    resolver: zodResolver(businessSchema),
    values: { name: workspace.name, type: (BUSINESS_TYPES as readonly string[]).includes(workspace.type)
      ? (workspace.type as BusinessValues['type']) : 'Others', email: contact?.email ?? '', phone: contact?.phone ?? '', country: contact?.country ?? '' },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    try {
      await updateBusiness(supabase, workspace.id, { name: values.name, type: values.type,
        email: values.email || null, phone: values.phone || null, country: values.country || null });
      notify.success('Business saved', 'Your business details were updated.');
      reload();
    } catch (error) {
      notify.error('Not saved', error instanceof Error ? error.message : 'Please try again.');
    }
  });

  return (
    <Stack gap="5">
      <WorkspaceCard title="Plan and usage" description={`${workspace.plan} plan`}>
        <Stack gap="1">
          <Text>Stores: {storeUsage(workspace)}</Text>
          <Text>Items (each size or colour you sell): up to {workspace.max_products ?? 'unlimited'}</Text>
          <Text>Team: {workspace.max_members === 1 ? 'the owner alone (choose a paid plan to invite a team)'
            : `${workspace.members_used} ${workspace.members_used === 1 ? 'person' : 'people'}, no limit on your plan`}</Text>
          <Text fontSize="sm" color="fg.muted">Change your plan on the Billing page.</Text>
        </Stack>
      </WorkspaceCard>
      <WorkspaceCard title="Business details"
        description={isOwner ? 'Shown on receipts and invoices.' : 'Only the owner changes these details.'}>
        <form onSubmit={onSubmit} noValidate aria-label="Business details">
          <fieldset disabled={!isOwner}>
            <Stack gap="4" maxW="lg">
              <FormField label="Business name" required error={errors.name?.message}>
                <Input {...register('name')} />
              </FormField>
              <FormField label="Business type" required error={errors.type?.message}>
                <NativeSelect.Root>
                  <NativeSelect.Field {...register('type')}>
                    {BUSINESS_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </FormField>
              <FormField label="Business email" error={errors.email?.message}>
                <Input type="email" {...register('email')} />
              </FormField>
              <FormField label="Business phone" error={errors.phone?.message}>
                <Input type="tel" {...register('phone')} />
              </FormField>
              <FormField label="Country" error={errors.country?.message}
                helperText="Sets how long sales records are kept after the business is deleted, as its law requires.">
                <NativeSelect.Root>
                  <NativeSelect.Field {...register('country')}>
                    <option value="">Not set (records kept 10 years)</option>
                    {countries.map((c) => <option key={c.code} value={c.code}>{c.name}</option>)}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </FormField>
              {isOwner && <div><Button type="submit" loading={isSubmitting}>Save business</Button></div>}
            </Stack>
          </fieldset>
        </form>
      </WorkspaceCard>
      {isOwner && loaded && <PacksCard businessId={workspace.id} initial={loaded.packs} />}
      {canSetRates && storeCurrencies.length > 0 && <ExchangeRatesCard businessId={workspace.id} storeCurrencies={storeCurrencies} />}
      {isOwner && managersNeedTwoFactor !== null && (
        <ManagersTwoFactorCard businessId={workspace.id} initial={managersNeedTwoFactor} />
      )}
      <BusinessLogoCard businessId={workspace.id} isOwner={isOwner} />
      {isOwner && <BusinessExportCard businessId={workspace.id} />}
      {isOwner && <DeleteBusinessCard workspace={workspace} />}
    </Stack>
  );
}
