import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button, Field, HStack, Input, Stack, Text } from '@chakra-ui/react';
import type { z } from 'zod';
import { prescriptionSchema, todayLocal, type Prescription } from './prescription';

type Values = z.input<ReturnType<typeof prescriptionSchema>>;

/** What the register says of these records wherever it asks for them (issue 29): a record, not a check. */
export const RECORDS_NOT_VERIFICATION = 'Storewise keeps these records to help the pharmacy comply; it does not verify'
  + ' prescriptions with the prescriber or any registry.';

/**
 * The prescription of a prescription-only line, asked for when the item is added: prescriber, number, date
 * written and refills. The sale cannot be paid until every such line has one.
 */
export function PrescriptionForm({ itemName, today = todayLocal(), onSave, onRemove }: {
  itemName: string;
  today?: string;
  onSave: (p: Prescription) => void;
  /** Takes the item off the sale instead (no prescription at hand). */
  onRemove: () => void;
}) {
  const { register, handleSubmit, formState } = useForm<Values, unknown, Prescription>({
    resolver: zodResolver(prescriptionSchema(today)),
    defaultValues: { prescriber: '', number: '', writtenOn: today, refillsAuthorised: 0, refillsRemaining: 0 },
  });
  const e = formState.errors;
  return (
    <Stack as="form" gap="2" borderWidth="1px" rounded="md" p="3" aria-label="Prescription"
      onSubmit={(ev) => void handleSubmit(onSave)(ev)}>
      <Text fontWeight="semibold">Prescription for {itemName}</Text>
      <HStack wrap="wrap" align="start">
        <Field.Root invalid={Boolean(e.prescriber)} maxW="xs">
          <Field.Label>Prescriber</Field.Label>
          <Input autoFocus {...register('prescriber')} />
          <Field.ErrorText>{e.prescriber?.message}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={Boolean(e.number)} maxW="3xs">
          <Field.Label>Prescription number</Field.Label>
          <Input {...register('number')} />
          <Field.ErrorText>{e.number?.message}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={Boolean(e.writtenOn)} maxW="3xs">
          <Field.Label>Date written</Field.Label>
          <Input type="date" {...register('writtenOn')} />
          <Field.ErrorText>{e.writtenOn?.message}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={Boolean(e.refillsAuthorised)} maxW="32">
          <Field.Label>Refills authorised</Field.Label>
          <Input type="number" {...register('refillsAuthorised')} />
          <Field.ErrorText>{e.refillsAuthorised?.message}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={Boolean(e.refillsRemaining)} maxW="32">
          <Field.Label>Refills remaining</Field.Label>
          <Input type="number" {...register('refillsRemaining')} />
          <Field.ErrorText>{e.refillsRemaining?.message}</Field.ErrorText>
        </Field.Root>
      </HStack>
      <Text fontSize="xs" color="fg.muted">{RECORDS_NOT_VERIFICATION}</Text>
      <HStack>
        <Button type="submit">Record prescription</Button>
        <Button variant="outline" onClick={onRemove}>Remove the item</Button>
      </HStack>
    </Stack>
  );
}
