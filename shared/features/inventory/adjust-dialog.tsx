import { Button, Dialog, Input, NativeSelect, Portal, Stack } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormField } from '../../components/form-field';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { ADJUST_REASONS, adjustSchema, adjustStock, type AdjustValues, type StockRow } from './inventory-api';

/** Adjust one variant's stock in a store with a reason; the database writes the ledger row and the balance. */
export function AdjustDialog({ storeId, row, onDone }: { storeId: string; row: StockRow; onDone: () => void }) {
  const supabase = useSupabase();
  const [open, setOpen] = useState(false);
  const { register, handleSubmit, reset, formState } = useForm<AdjustValues>({
    resolver: zodResolver(adjustSchema), defaultValues: { reason: 'damaged', qty: '', note: '' },
  });
  const submit = handleSubmit(async (values) => {
    try {
      const balance = await adjustStock(supabase, storeId, row.variant_id, values);
      notify.success('Stock adjusted', `${row.product_name}: ${String(balance)} on hand`);
      reset();
      setOpen(false);
      onDone();
    } catch (error) {
      notify.error('Not adjusted', error instanceof Error ? error.message : 'Please try again.');
    }
  });
  return (
    <Dialog.Root open={open} onOpenChange={(event) => setOpen(event.open)}>
      <Dialog.Trigger asChild>
        <Button size="xs" variant="outline" aria-label={`Adjust ${row.product_name} ${row.sku}`}>Adjust</Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4" asChild>
            <form onSubmit={submit} noValidate>
              <Dialog.Header>
                <Dialog.Title>Adjust {row.product_name} ({row.sku})</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="3">
                  <FormField label="Reason" required>
                    <NativeSelect.Root>
                      <NativeSelect.Field {...register('reason')}>
                        {ADJUST_REASONS.map((r) => <option key={r} value={r}>{r}</option>)}
                      </NativeSelect.Field>
                      <NativeSelect.Indicator />
                    </NativeSelect.Root>
                  </FormField>
                  <FormField label={`Quantity (${row.unit === 'kg' ? 'kg, up to 3 decimals' : 'pieces'}; negative takes out)`}
                    required error={formState.errors.qty?.message}>
                    <Input inputMode="decimal" {...register('qty')} />
                  </FormField>
                  <FormField label="Note" error={formState.errors.note?.message}>
                    <Input {...register('note')} />
                  </FormField>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Dialog.ActionTrigger asChild>
                  <Button variant="outline">Cancel</Button>
                </Dialog.ActionTrigger>
                <Button type="submit" loading={formState.isSubmitting}>Adjust stock</Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
