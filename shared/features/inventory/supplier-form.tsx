import { Button, HStack, Input, SimpleGrid, Stack } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { FormField } from '../../components/form-field';
import { supplierSchema, type SupplierValues } from './inventory-schemas';

export const emptySupplier: SupplierValues = { name: '', contactName: '', email: '', phone: '', notes: '' };

/** A supplier's name and how to reach them (the email receives purchase orders). */
export function SupplierForm({ initial = emptySupplier, submitLabel, onSubmit, onCancel }: {
  initial?: SupplierValues; submitLabel: string; onSubmit: (values: SupplierValues) => Promise<void>; onCancel: () => void;
}) {
  const { register, handleSubmit, formState } = useForm<SupplierValues>({ resolver: zodResolver(supplierSchema), defaultValues: initial });
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Supplier">
      <Stack gap="3" borderWidth="1px" rounded="md" p="4">
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
          <FormField label="Name" required error={formState.errors.name?.message}><Input {...register('name')} /></FormField>
          <FormField label="Contact" error={formState.errors.contactName?.message}><Input {...register('contactName')} /></FormField>
          <FormField label="Email" error={formState.errors.email?.message} helperText="Purchase orders are sent here">
            <Input type="email" {...register('email')} />
          </FormField>
          <FormField label="Phone" error={formState.errors.phone?.message}><Input type="tel" {...register('phone')} /></FormField>
        </SimpleGrid>
        <FormField label="Notes" error={formState.errors.notes?.message}><Input {...register('notes')} /></FormField>
        <HStack>
          <Button type="submit" loading={formState.isSubmitting}>{submitLabel}</Button>
          <Button variant="ghost" onClick={onCancel}>Cancel</Button>
        </HStack>
      </Stack>
    </form>
  );
}
