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
import { createTicket, type Ticket } from './support-api';
import { isMissingInformation, ticketSchema, type TicketValues } from './ticket-schema';

export function TicketForm({ onCreated }: { onCreated: (ticket: Ticket) => void }) {
  const supabase = useSupabase();
  const { user } = useDashboardSession();
  // The attachment is not uploaded (spec section 5); remounting clears the picker after a submit.
  const [fileKey, setFileKey] = useState(0);
  const { register, handleSubmit, reset, getValues, formState } = useForm<TicketValues>({
    resolver: zodResolver(ticketSchema),
    defaultValues: { subject: '', message: '' },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(
    async (values) => {
      try {
        const ticket = await createTicket(supabase, user.id, values);
        reset();
        setFileKey((key) => key + 1);
        onCreated(ticket);
        notify.success('Ticket Submitted', 'Our support team will get back to you within 24 hours.');
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
            helperText="Max file size: 10MB. Supported formats: PDF, PNG, JPG. Attachments are not uploaded yet."
          >
            <Input key={fileKey} type="file" accept=".pdf,.png,.jpg,.jpeg" p="1.5" />
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
