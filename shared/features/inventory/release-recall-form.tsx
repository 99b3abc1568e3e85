import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Checkbox, HStack, Stack, Text, Textarea } from '@chakra-ui/react';
import { useForm, useWatch } from 'react-hook-form';
import { FormField } from '../../components/form-field';
import { useSupabase } from '../../lib/platform-context';
import { failure } from './inventory-api';
import { releaseRecall, releaseSchema, type RecallReport, type ReleaseValues } from './recalls-api';

/**
 * Lifting a recall (ADR 0401): tick the lots still quarantined and say why they can be sold again (the supplier
 * withdrew the notice, a lab cleared them); their stock is sellable in every store at once. Owners and managers;
 * the database decides and records who and why.
 */
export function ReleaseRecallForm({ recallId, lots, onReleased }: {
  recallId: string; lots: RecallReport['lots']; onReleased: () => void;
}) {
  const supabase = useSupabase();
  const [failed, setFailed] = useState<string | null>(null);
  const held = lots.filter((l) => l.quarantined);
  const { register, handleSubmit, setValue, control, formState, reset } = useForm<ReleaseValues>({
    resolver: zodResolver(releaseSchema), defaultValues: { lotIds: [], reason: '' },
  });
  const chosen = useWatch({ control, name: 'lotIds' });
  if (held.length === 0) return null;
  const toggle = (id: string, on: boolean) =>
    setValue('lotIds', on ? [...chosen, id] : chosen.filter((x) => x !== id), { shouldValidate: formState.isSubmitted });

  const submit = handleSubmit(async (values) => {
    setFailed(null);
    try {
      await releaseRecall(supabase, recallId, values);
      reset({ lotIds: [], reason: '' });
      onReleased();
    } catch (error) {
      setFailed(failure(error));
    }
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Release from quarantine">
      <Stack gap="3" borderWidth="1px" rounded="md" p="3">
        <Text fontWeight="semibold">Release from quarantine</Text>
        <Text color="fg.muted" fontSize="sm">
          Released lots can be sold again in every store, earliest expiry first. Only release a lot the supplier or a
          test has cleared.
        </Text>
        <Stack gap="1">
          {held.map((l) => (
            <Checkbox.Root key={l.lot_id} size="sm" checked={chosen.includes(l.lot_id)}
              onCheckedChange={(e) => toggle(l.lot_id, e.checked === true)}>
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>Release lot {l.lot_number} of {l.product_name}</Checkbox.Label>
            </Checkbox.Root>
          ))}
        </Stack>
        <FormField label="Why they can be sold again" required
          error={formState.errors.reason?.message ?? formState.errors.lotIds?.message}>
          <Textarea rows={2} maxLength={500} placeholder="The supplier withdrew the notice on 4 December" {...register('reason')} />
        </FormField>
        {failed && <Text color="fg.error" role="alert">{failed}</Text>}
        <HStack>
          <Button type="submit" colorPalette="green" disabled={chosen.length === 0} loading={formState.isSubmitting}>
            {chosen.length === 1 ? 'Release 1 lot to sale' : `Release ${chosen.length} lots to sale`}
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}
