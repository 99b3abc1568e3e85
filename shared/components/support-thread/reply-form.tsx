import { Button, Stack, Textarea } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { LuSend } from 'react-icons/lu';
import { FormField } from '../form-field';
import { replySchema, type ReplyValues } from './thread-api';

/** A reply box (both sides use it); `onSend` throws to keep the text when sending fails. */
export function ReplyForm({ onSend, label = 'Your reply', submitText = 'Send Reply', children }: {
  onSend: (body: string) => Promise<void>;
  label?: string;
  submitText?: string;
  children?: React.ReactNode;
}) {
  const { register, handleSubmit, reset, formState } = useForm<ReplyValues>({
    resolver: zodResolver(replySchema),
    defaultValues: { body: '' },
  });
  const onSubmit = handleSubmit(async (values) => {
    try {
      await onSend(values.body);
      reset();
    } catch {
      // The caller has told the user; the text stays for another try.
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Reply">
      <Stack gap="3">
        <FormField label={label} required error={formState.errors.body?.message}>
          <Textarea rows={4} {...register('body')} />
        </FormField>
        {children}
        <div>
          <Button type="submit" loading={formState.isSubmitting} loadingText="Sending...">
            <LuSend aria-hidden /> {submitText}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
