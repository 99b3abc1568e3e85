import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, HStack, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormField } from '../../../components/form-field';
import { useSupabase } from '../../../lib/platform-context';
import { failure } from '../inventory-api';
import { Loaded, useLoad } from '../use-load';
import { destroyControlled, destructionSchema, fetchWitnesses, type DestructionValues } from './controlled-api';

/**
 * Destroying controlled stock: the quantity (and lot), the witness, who types their own till PIN on this screen,
 * and a note (how it was destroyed). The database refuses oneself as witness and records both people.
 */
export function DestructionForm({ storeId, variantId, lots, onDone }: {
  storeId: string; variantId: string; lots: { id: string; label: string }[] | null; onDone: () => void;
}) {
  const supabase = useSupabase();
  const [witnesses, reload] = useLoad(storeId, () => fetchWitnesses(supabase, storeId));
  const [lotId, setLotId] = useState(lots?.[0]?.id ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const { register, handleSubmit, formState, resetField } = useForm<z.input<typeof destructionSchema>, unknown, DestructionValues>({
    resolver: zodResolver(destructionSchema), defaultValues: { qty: '', witnessId: '', pin: '', note: '' },
  });
  const submit = handleSubmit(async (values) => {
    setProblem(null);
    try {
      const refused = await destroyControlled(supabase, storeId, variantId, values, lots ? lotId || null : null);
      if (refused) setProblem(refused);
      else onDone();
    } catch (error) {
      setProblem(failure(error));
    } finally {
      resetField('pin');
    }
  });
  const e = formState.errors;
  return (
    <Stack as="form" gap="3" borderWidth="1px" rounded="md" p="3" aria-label="Destroy stock" onSubmit={(ev) => void submit(ev)}>
      <Text fontWeight="semibold">Destroy stock before a witness</Text>
      <Loaded state={witnesses} what="Staff" reload={reload}>
        {(people) => (
          <HStack wrap="wrap" align="start">
            {lots && (
              <FormField label="Lot">
                <NativeSelect.Root maxW="xs">
                  <NativeSelect.Field value={lotId} onChange={(ev) => setLotId(ev.target.value)}>
                    {lots.map((l) => <option key={l.id} value={l.id}>{l.label}</option>)}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </FormField>
            )}
            <FormField label="Quantity destroyed" error={e.qty?.message}>
              <Input inputMode="decimal" maxW="32" {...register('qty')} />
            </FormField>
            <FormField label="Witness" error={e.witnessId?.message}>
              <NativeSelect.Root maxW="xs">
                <NativeSelect.Field {...register('witnessId')}>
                  <option value="">Choose a member of staff</option>
                  {people.map((p) => <option key={p.user_id} value={p.user_id}>{p.full_name} ({p.role})</option>)}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </FormField>
            <FormField label="Witness PIN" error={e.pin?.message}>
              <Input type="password" inputMode="numeric" autoComplete="off" maxLength={6} maxW="32" {...register('pin')} />
            </FormField>
            <FormField label="Note (how it was destroyed)" error={e.note?.message}>
              <Input maxW="sm" {...register('note')} />
            </FormField>
          </HStack>
        )}
      </Loaded>
      {problem && <Text color="fg.error" role="alert">{problem}</Text>}
      <HStack><Button type="submit" colorPalette="red" loading={formState.isSubmitting}>Record destruction</Button></HStack>
    </Stack>
  );
}
