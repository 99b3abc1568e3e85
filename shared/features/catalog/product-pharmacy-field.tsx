// SQL (supabase/schemas/catalog.sql): products.prescription_only, products.controlled (ADR 0390)
import { Checkbox, HStack, Stack, Text } from '@chakra-ui/react';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { unwrap } from './catalog-api';

type Flag = 'prescription_only' | 'controlled';
const LABELS: Record<Flag, string> = { prescription_only: 'Prescription only', controlled: 'Controlled substance' };

/**
 * The pharmacy's marks on a product (prescriptions pack): prescription-only (the register asks for the prescription,
 * post_sale refuses the line without one) and controlled (its movements form the controlled register). Saved at once;
 * the database lets owners and managers change them.
 */
export function ProductPharmacyField({ productId, flags, canEdit, onSaved }: {
  productId: string; flags: Record<Flag, boolean>; canEdit: boolean; onSaved: () => void;
}) {
  const supabase = useSupabase();
  const save = (flag: Flag, on: boolean) => {
    supabase.from('products').update(flag === 'controlled' ? { controlled: on } : { prescription_only: on }).eq('id', productId).then((r) => {
      unwrap(r);
      notify.success(`${LABELS[flag]}: ${on ? 'on' : 'off'}`);
      onSaved();
    }).then(undefined, (error: unknown) => notify.error('Not saved', error instanceof Error ? error.message : String(error)));
  };
  return (
    <Stack gap="1" as="section" aria-label="Pharmacy">
      <HStack gap="6" wrap="wrap">
        {(Object.keys(LABELS) as Flag[]).map((flag) => (
          <Checkbox.Root key={flag} checked={flags[flag]} disabled={!canEdit} onCheckedChange={(e) => save(flag, Boolean(e.checked))}>
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>{LABELS[flag]}</Checkbox.Label>
          </Checkbox.Root>
        ))}
      </HStack>
      <Text fontSize="xs" color="fg.muted">
        Prescription-only items are sold with the prescription recorded on the sale; controlled items keep a register with a
        running balance (Inventory). These are records that help the pharmacy comply, not a verification service.
      </Text>
    </Stack>
  );
}
