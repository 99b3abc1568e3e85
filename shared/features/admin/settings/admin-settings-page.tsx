import { Button, Card, Checkbox, Heading, Input, NativeSelect, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import { Controller } from 'react-hook-form';
import { FormField } from '../../../components/form-field';
import { PageHeader } from '../common/page-header';
import { SettingChanges } from './setting-changes';
import { TestEmailButton } from './test-email-button';
import { useSettingsForm } from './use-settings-form';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card.Root as="section" aria-label={title}>
      <Card.Body>
        <Stack gap="4">
          <Heading as="h2" size="md">{title}</Heading>
          {children}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

/**
 * System Settings (spec 2, admin menu; issue 30, docs/adr/0260): sign-ups, trials and grace, the maintenance
 * banner and read-only mode, support promises and the email sender. Saved settings apply at once (the database
 * holds them; nothing is cached), and every change is in the history below with its value before and after.
 */
export function AdminSettingsPage() {
  const [saves, setSaves] = useState(0);
  const { form, loaded, loadError, save } = useSettingsForm(() => setSaves((n) => n + 1));
  const { register, control, formState } = form;
  const errors = formState.errors;

  return (
    <>
      <PageHeader title="System Settings" description="Platform-wide configuration. Changes apply at once, without a restart." />
      {loadError && <Text color="fg.error" role="alert">{loadError}</Text>}
      {loaded && (
        <form onSubmit={(event) => void save(event)} noValidate>
          <Stack gap="6">
            <Section title="Sign-ups and billing">
              <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
                <FormField label="Sign-ups" helperText="Invitation-only lets in only addresses with a pending team invitation.">
                  <NativeSelect.Root>
                    <NativeSelect.Field {...register('signup_mode')}>
                      <option value="open">Open to everyone</option>
                      <option value="invitation_only">Invitation-only</option>
                      <option value="closed">Closed</option>
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                </FormField>
                <FormField label="Trial length (days)" error={errors.trial_days?.message} helperText="For trials started from now on.">
                  <Input type="number" inputMode="numeric" {...register('trial_days')} />
                </FormField>
                <FormField label="Grace after a failed payment (days)" error={errors.payment_grace_days?.message}>
                  <Input type="number" inputMode="numeric" {...register('payment_grace_days')} />
                </FormField>
              </SimpleGrid>
            </Section>

            <Section title="Maintenance">
              <FormField label="Banner text" error={errors.banner_text?.message} helperText="Shown on the public site and in the dashboard during its window. Empty: no banner.">
                <Input {...register('banner_text')} />
              </FormField>
              <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
                <FormField label="Severity">
                  <NativeSelect.Root>
                    <NativeSelect.Field {...register('banner_severity')}>
                      <option value="info">Information</option>
                      <option value="warning">Warning</option>
                      <option value="critical">Critical (the status line says so)</option>
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                </FormField>
                <FormField label="Show from" error={errors.banner_starts_at?.message} helperText="Your local time; empty: now.">
                  <Input type="datetime-local" {...register('banner_starts_at')} />
                </FormField>
                <FormField label="Show until" error={errors.banner_ends_at?.message} helperText="Empty: until removed.">
                  <Input type="datetime-local" {...register('banner_ends_at')} />
                </FormField>
              </SimpleGrid>
              <Controller control={control} name="read_only" render={({ field }) => (
                <Checkbox.Root checked={field.value} onCheckedChange={(e) => field.onChange(Boolean(e.checked))}>
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label>Read-only mode: changes wait; registers keep selling offline and send their sales afterwards</Checkbox.Label>
                </Checkbox.Root>
              )} />
              <FormField label="Read-only message" error={errors.read_only_message?.message} helperText="Tells users why their changes wait.">
                <Textarea rows={2} {...register('read_only_message')} />
              </FormField>
            </Section>

            <Section title="Support and email">
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                <FormField label="Response time promised (hours)" error={errors.support_response_hours?.message} helperText="Shown on the Support page.">
                  <Input type="number" inputMode="numeric" {...register('support_response_hours')} />
                </FormField>
                <FormField label="Support email" error={errors.support_email?.message}>
                  <Input type="email" {...register('support_email')} />
                </FormField>
                <FormField label="Email sender name" error={errors.email_sender_name?.message}>
                  <Input {...register('email_sender_name')} />
                </FormField>
                <FormField label="Reply-to address" error={errors.email_reply_to?.message}>
                  <Input type="email" {...register('email_reply_to')} />
                </FormField>
              </SimpleGrid>
              <TestEmailButton onSent={() => setSaves((n) => n + 1)} />
            </Section>

            <Button type="submit" colorPalette="blue" alignSelf="flex-start" loading={formState.isSubmitting}>
              Save settings
            </Button>
          </Stack>
        </form>
      )}
      <Stack mt="10">
        <SettingChanges version={saves} />
      </Stack>
    </>
  );
}
