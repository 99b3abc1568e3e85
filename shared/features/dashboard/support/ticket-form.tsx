import { useState } from 'react';
import { Button, Input, Stack, Textarea } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { LuSend } from 'react-icons/lu';
import { FormField } from '../../../components/form-field';
import { notify } from '../../../components/toaster';
import { useSupabase } from '../../../lib/platform-context';
import { useDashboardSession } from '../dashboard-session';
import { SectionCard } from '../section-card';
import type { z } from 'zod';
import { ATTACHMENT_ACCEPT, attachmentSchema } from '../../../components/support-thread/attachment-rules';
import { uploadTicketAttachment } from '../../../components/support-thread/attachments-api';
import { createTicket, type Ticket } from './support-api';
import { isMissingInformation, ticketSchema } from './ticket-schema';

const ticketFormSchema = ticketSchema.extend({ attachment: attachmentSchema.optional() });
type TicketFormValues = z.infer<typeof ticketFormSchema>;

export function TicketForm({ onCreated }: { onCreated: (ticket: Ticket) => void }) {
  const supabase = useSupabase();
  const { user } = useDashboardSession();
  // Remounting clears the picker after a submit.
  const [fileKey, setFileKey] = useState(0);
  const { register, handleSubmit, reset, getValues, setValue, formState } = useForm<TicketFormValues>({
    resolver: zodResolver(ticketFormSchema),
    defaultValues: { subject: '', message: '' },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(
    async (values) => {
      try {
        const ticket = await createTicket(supabase, user.id, values);
        // The ticket exists first (the attachment's folder is its id, and the policy checks it is the caller's).
        let attachmentProblem: string | undefined;
        if (values.attachment) {
          try {
            await uploadTicketAttachment(supabase, ticket.id, values.attachment);
          } catch (error) {
            attachmentProblem = error instanceof Error ? error.message : 'Upload failed';
          }
        }
        reset();
        setFileKey((key) => key + 1);
        onCreated(ticket);
        if (attachmentProblem) {
          notify.error('Attachment not sent', `Your ticket was submitted, but the file was refused: ${attachmentProblem}`);
        } else {
          notify.success('Ticket Submitted', 'Our support team will get back to you within 24 hours.');
        }
      } catch (error) {
        console.error('Ticket insert failed:', error);
        notify.error('Error', 'Failed to submit ticket. Please try again.');
      }
    },
    () => {
      if (isMissingInformation(getValues())) {
        notify.error('Missing Information', 'Please fill in both subject and message fields.');
      }
    },
  );

  return (
    <SectionCard title="Submit a Ticket" description="Tell us what you need help with.">
      <form onSubmit={onSubmit} noValidate aria-label="Submit a Ticket">
        <Stack gap="4">
          <FormField label="Subject" required error={errors.subject?.message}>
            <Input placeholder="Brief description of your issue" {...register('subject')} />
          </FormField>
          <FormField label="Message" required error={errors.message?.message}>
            <Textarea rows={5} placeholder="Describe your issue in detail" {...register('message')} />
          </FormField>
          <FormField
            label="Attachment (optional)"
            helperText="Max file size: 10MB. Supported formats: PDF, PNG, JPG."
            error={errors.attachment?.message}
          >
            <Input key={fileKey} type="file" accept={ATTACHMENT_ACCEPT} p="1.5" data-testid="ticket-attachment-input"
              onChange={(event) => setValue('attachment', event.currentTarget.files?.[0], { shouldValidate: true })} />
          </FormField>
          <div>
            <Button type="submit" loading={isSubmitting} loadingText="Submitting...">
              <LuSend aria-hidden /> Submit Ticket
            </Button>
          </div>
        </Stack>
      </form>
    </SectionCard>
  );
}
