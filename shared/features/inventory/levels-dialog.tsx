import { Button, Dialog, HStack, Input, Portal, Stack } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormField } from '../../components/form-field';
import { notify } from '../../components/toaster';
import { failure } from './inventory-api';
import { levelsSchema, parseQty, type LevelsValues } from './inventory-schemas';

export interface LevelsTarget {
  label: string;
  unit: string;
  reorderPoint: number | null;
  targetLevel: number | null;
}

/** The reorder point and target level of one item in one store. */
export function LevelsForm({ item, onSave, onCancel }: {
  item: LevelsTarget; onSave: (reorderPoint: number, targetLevel: number) => Promise<void>; onCancel: () => void;
}) {
  const { register, handleSubmit, formState } = useForm<LevelsValues>({
    resolver: zodResolver(levelsSchema),
    defaultValues: { unit: item.unit, reorderPoint: item.reorderPoint === null ? '' : String(item.reorderPoint),
      targetLevel: item.targetLevel === null ? '' : String(item.targetLevel) },
  });
  const submit = handleSubmit(async (v) => {
    try {
      await onSave(parseQty(v.reorderPoint, v.unit) ?? 0, parseQty(v.targetLevel, v.unit) ?? 0);
    } catch (error) {
      notify.error('Levels not saved', failure(error));
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label={`Reorder levels of ${item.label}`}>
      <Stack gap="3">
        <FormField label="Reorder at (on hand at or below)" required error={formState.errors.reorderPoint?.message}>
          <Input inputMode="decimal" {...register('reorderPoint')} />
        </FormField>
        <FormField label="Order up to (target level)" required error={formState.errors.targetLevel?.message}>
          <Input inputMode="decimal" {...register('targetLevel')} />
        </FormField>
        <HStack>
          <Button type="submit" loading={formState.isSubmitting}>Save levels</Button>
          <Button variant="ghost" onClick={onCancel}>Cancel</Button>
        </HStack>
      </Stack>
    </form>
  );
}

/** A "Levels" button opening the form in a dialog. */
export function LevelsDialog({ item, onSave }: { item: LevelsTarget; onSave: (reorderPoint: number, targetLevel: number) => Promise<void> }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={(e) => setOpen(e.open)}>
      <Dialog.Trigger asChild>
        <Button size="xs" variant="ghost" aria-label={`Reorder levels of ${item.label}`}>Levels</Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header><Dialog.Title>Reorder levels: {item.label}</Dialog.Title></Dialog.Header>
            <Dialog.Body pb="6">
              {open && <LevelsForm item={item} onCancel={() => setOpen(false)} onSave={async (p, t) => {
                await onSave(p, t);
                setOpen(false);
              }} />}
            </Dialog.Body>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
