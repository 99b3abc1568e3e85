import { Button, Card, Heading, HStack, IconButton, Input, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { useFieldArray } from 'react-hook-form';
import { LuTrash2 } from 'react-icons/lu';
import { FormField } from '../../../components/form-field';
import { PageHeader } from '../common/page-header';
import { SettingChanges } from '../settings/setting-changes';
import { useSettingsForm } from '../settings/use-settings-form';
import { LegalEditor } from './legal-editor';

/**
 * Content Management (spec 2, admin menu; issue 30): the landing's announcement bar, the footer's status line,
 * the Support page's FAQ and the legal pages. The public pages read them after their first paint
 * (public_site_state), so a change reaches them without a rebuild (docs/adr/0261).
 */
export function AdminContentPage() {
  const [saves, setSaves] = useState(0);
  const { form, loaded, loadError, save } = useSettingsForm(() => setSaves((n) => n + 1));
  const { register, control, formState } = form;
  const faq = useFieldArray({ control, name: 'faq' });
  const errors = formState.errors;

  return (
    <>
      <PageHeader title="Content Management" description="The public site's announcement, status line, FAQ and legal pages." />
      {loadError && <Text color="fg.error" role="alert">{loadError}</Text>}
      <Stack gap="6">
        {loaded && (
          <Card.Root as="section" aria-label="Site content">
            <Card.Body>
              <form onSubmit={(event) => void save(event)} noValidate>
                <Stack gap="4">
                  <Heading as="h2" size="md">Site content</Heading>
                  <FormField label="Announcement bar" error={errors.announcement_text?.message} helperText="On the landing page; empty: no bar.">
                    <Input {...register('announcement_text')} />
                  </FormField>
                  <FormField label="Announcement link" error={errors.announcement_link?.message} helperText="Optional: /pricing or https://...">
                    <Input {...register('announcement_link')} />
                  </FormField>
                  <FormField label="Status line" error={errors.status_line?.message}
                    helperText="The footer's status while all is well; read-only mode and a critical banner replace it.">
                    <Input {...register('status_line')} />
                  </FormField>
                  <Heading as="h3" size="sm">FAQ</Heading>
                  {faq.fields.map((field, index) => (
                    <HStack key={field.id} align="start" gap="3">
                      <Stack flex="1" gap="2">
                        <FormField label={`Question ${index + 1}`} error={errors.faq?.[index]?.question?.message}>
                          <Input {...register(`faq.${index}.question`)} />
                        </FormField>
                        <FormField label={`Answer ${index + 1}`} error={errors.faq?.[index]?.answer?.message}>
                          <Textarea rows={2} {...register(`faq.${index}.answer`)} />
                        </FormField>
                      </Stack>
                      <IconButton aria-label={`Remove question ${index + 1}`} variant="ghost" mt="6" onClick={() => faq.remove(index)}>
                        <LuTrash2 />
                      </IconButton>
                    </HStack>
                  ))}
                  {errors.faq?.message && <Text color="fg.error">{errors.faq.message}</Text>}
                  <HStack>
                    <Button variant="outline" onClick={() => faq.append({ question: '', answer: '' })}>Add a question</Button>
                    <Button type="submit" colorPalette="blue" loading={formState.isSubmitting}>Save content</Button>
                  </HStack>
                </Stack>
              </form>
            </Card.Body>
          </Card.Root>
        )}
        <Card.Root as="section" aria-label="Legal pages">
          <Card.Body>
            <Stack gap="4">
              <Heading as="h2" size="md">Legal pages</Heading>
              <LegalEditor />
            </Stack>
          </Card.Body>
        </Card.Root>
        <SettingChanges version={saves} />
      </Stack>
    </>
  );
}
