import { Badge, Box, Button, HStack, Input, Link, NativeSelect, Stack, Tabs, Text, Textarea } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { format } from 'date-fns';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { FormField } from '../../../components/form-field';
import { MarkdownView } from '../../../components/markdown-view';
import { notify } from '../../../components/toaster';
import { useSupabase } from '../../../lib/platform-context';
import { legalSlugs, legalTitles, type LegalSlug } from '../../../lib/legal-slugs';
import { useAdminData } from '../common/use-admin-data';
import { fetchLegalDocuments, legalDraftSchema, publishLegalDraft, saveLegalDraft, type LegalDraft, type LegalAdminRow } from './legal-admin-api';

const day = (iso: string) => format(new Date(iso), 'MMMM d, yyyy');

/**
 * The five legal pages as versioned Markdown (docs/adr/0261): write with a live preview, save the draft, publish
 * it with the date it takes effect. Published versions never change; each stays readable at /<page>?version=N.
 */
export function LegalEditor() {
  const supabase = useSupabase();
  const [slug, setSlug] = useState<LegalSlug>('terms-of-service');
  const { state, reload } = useAdminData('legal', () => fetchLegalDocuments(supabase));
  const row: LegalAdminRow | undefined = state.status === 'ready' ? state.data.find((r) => r.slug === slug) : undefined;
  const form = useForm<LegalDraft>({ resolver: zodResolver(legalDraftSchema), defaultValues: { body: '', effectiveDate: format(new Date(), 'yyyy-MM-dd') } });
  const { register, reset, control, handleSubmit, formState, getValues } = form;
  const body = useWatch({ control, name: 'body' });

  useEffect(() => {
    if (row) reset({ body: row.draft_body_md ?? row.current_body_md ?? '', effectiveDate: getValues('effectiveDate') });
  }, [row, reset, getValues]);

  const saveDraft = handleSubmit(async (values) => {
    try {
      await saveLegalDraft(supabase, slug, values.body);
      notify.success('Draft saved', `${legalTitles[slug]}: only admins see it until it is published.`);
      reload();
    } catch (error) {
      notify.error('Draft not saved', (error as Error).message);
    }
  });
  const publish = handleSubmit(async (values) => {
    try {
      await saveLegalDraft(supabase, slug, values.body);
      const version = await publishLegalDraft(supabase, slug, values.effectiveDate);
      notify.success(`Version ${version} published`, `${legalTitles[slug]} takes effect on ${day(`${values.effectiveDate}T00:00:00`)}.`);
      reload();
    } catch (error) {
      notify.error('Not published', (error as Error).message);
    }
  });

  return (
    <Stack gap="4">
      <HStack gap="4" wrap="wrap" align="end">
        <FormField label="Document">
          <NativeSelect.Root maxW="xs">
            <NativeSelect.Field value={slug} onChange={(event) => setSlug(event.target.value as LegalSlug)}>
              {legalSlugs.map((s) => <option key={s} value={s}>{legalTitles[s]}</option>)}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </FormField>
        {row?.current_version && (
          <Text color="fg.muted" data-testid="legal-current">
            In force: version {row.current_version} since {day(row.current_effective_at!)}.{' '}
            <Link href={`/${slug}?version=${row.current_version}`} target="_blank" color="blue.fg">View</Link>
          </Text>
        )}
        {row?.scheduled_version && <Badge colorPalette="orange">Version {row.scheduled_version} from {day(row.scheduled_effective_at!)}</Badge>}
        {row?.draft_body_md !== null && row?.draft_updated_at && <Badge>Draft saved {format(new Date(row.draft_updated_at), 'MMM d, HH:mm')}</Badge>}
      </HStack>
      {state.status === 'error' && <Text color="fg.error" role="alert">{state.error.message}</Text>}
      <form onSubmit={(event) => void publish(event)} noValidate>
        <Stack gap="4">
          <Tabs.Root defaultValue="write" variant="line">
            <Tabs.List>
              <Tabs.Trigger value="write">Write</Tabs.Trigger>
              <Tabs.Trigger value="preview">Preview</Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="write">
              <FormField label="Markdown" error={formState.errors.body?.message} helperText="## Heading, - list item, **bold**, *italic*, [link](https://...)">
                <Textarea rows={18} fontFamily="mono" fontSize="sm" {...register('body')} />
              </FormField>
            </Tabs.Content>
            <Tabs.Content value="preview">
              <Box borderWidth="1px" rounded="md" p="6" maxW="prose" data-testid="legal-preview">
                <MarkdownView source={body ?? ''} />
              </Box>
            </Tabs.Content>
          </Tabs.Root>
          <HStack gap="4" wrap="wrap" align="end">
            <FormField label="Takes effect on" error={formState.errors.effectiveDate?.message}>
              <Input type="date" maxW="xs" {...register('effectiveDate')} />
            </FormField>
            <Button variant="outline" onClick={() => void saveDraft()} disabled={formState.isSubmitting}>Save draft</Button>
            <Button type="submit" colorPalette="blue" loading={formState.isSubmitting}>Publish</Button>
          </HStack>
        </Stack>
      </form>
    </Stack>
  );
}
