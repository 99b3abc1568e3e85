import { Box, Button, HStack, Input } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormField } from '../../components/form-field';
import { notify } from '../../components/toaster';

interface ReviewReasonFormProps {
  /** The rule the database function applies to the text (length once trimmed). */
  text: z.ZodString;
  label: string;
  placeholder: string;
  submitLabel: string;
  /** Calls the review function with the checked text; throws with the server's message on refusal. */
  save: (text: string) => Promise<void>;
  /** The toast after saving: its title and what was reviewed (a receipt number, a register). */
  saved: { title: string; what: string };
  onSaved: () => void;
}

/**
 * One line of text an owner or manager writes when they resolve something a register flagged (a sale kept offline,
 * a shift opened in conflict): checked with the database's own rule before it is sent. Reviewing changes no money.
 */
export function ReviewReasonForm({ text, label, placeholder, submitLabel, save, saved, onSaved }: ReviewReasonFormProps) {
  const { register, handleSubmit, formState } = useForm<{ text: string }>({
    resolver: zodResolver(z.object({ text })), defaultValues: { text: '' },
  });
  const submit = handleSubmit(async (values) => {
    try {
      await save(values.text);
      notify.success(saved.title, saved.what);
      onSaved();
    } catch (error) {
      notify.error('Not saved', error instanceof Error ? error.message : 'Please try again.');
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <HStack align="end" gap="2" flexWrap="wrap">
        <Box flex="1" minW="14rem">
          <FormField label={label} error={formState.errors.text?.message}>
            <Input {...register('text')} maxLength={500} placeholder={placeholder} />
          </FormField>
        </Box>
        <Button type="submit" size="sm" loading={formState.isSubmitting}>{submitLabel}</Button>
      </HStack>
    </form>
  );
}
