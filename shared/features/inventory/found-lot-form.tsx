import { useState } from 'react';
import { Button, HStack, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { FormField } from '../../components/form-field';
import { foundLotRow, type CountRow } from './count-logic';
import { hitLabel, type CatalogHit } from './orders-api';
import { VariantPicker } from './variant-picker';

/**
 * A lot found on the shelf that the store holds nothing of (so the count sheet has no line for it): the item,
 * the lot number and expiry as printed on the pack. It becomes a line of the count; posting creates the lot.
 */
export function FoundLotForm({ businessId, onAdd }: { businessId: string; onAdd: (row: CountRow) => void }) {
  const [item, setItem] = useState<CatalogHit | null>(null);
  const [lotNumber, setLotNumber] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [error, setError] = useState<string | null>(null);

  const add = () => {
    const number = lotNumber.trim();
    if (!item) return;
    if (number === '' || number.length > 60) {
      setError('Enter the lot number printed on the pack (at most 60 characters)');
      return;
    }
    onAdd(foundLotRow({ variant_id: item.variant_id, product_name: item.product_name, sku: item.sku,
      option1: item.option1, option2: item.option2, option3: item.option3, unit: item.unit }, number, expiresOn));
    setItem(null);
    setLotNumber('');
    setExpiresOn('');
    setError(null);
  };

  return (
    <Stack gap="2" borderWidth="1px" rounded="md" p="3" role="group" aria-label="Found a lot">
      <Text fontWeight="medium">Found a lot that is not on the sheet?</Text>
      {!item && <VariantPicker businessId={businessId} label="Item of the found lot" onPick={(hit) => {
        setItem(hit);
        setError(hit.has_lots ? null : 'This item is not tracked by lot: add it to the count above instead');
      }} />}
      {item && (
        <>
          <HStack justify="space-between" wrap="wrap">
            <Text data-testid="found-lot-item">{hitLabel(item)} <Text as="span" color="fg.muted" fontFamily="mono">{item.sku}</Text></Text>
            <Button size="xs" variant="ghost" onClick={() => setItem(null)}>Choose another item</Button>
          </HStack>
          {item.has_lots && (
            <SimpleGrid columns={{ base: 1, md: 3 }} gap="2" alignItems="end">
              <FormField label="Lot number" required>
                <Input value={lotNumber} maxLength={60} onChange={(e) => setLotNumber(e.target.value)} />
              </FormField>
              <FormField label="Expiry date">
                <Input type="date" value={expiresOn} onChange={(e) => setExpiresOn(e.target.value)} />
              </FormField>
              <Button onClick={add}>Add lot to the count</Button>
            </SimpleGrid>
          )}
        </>
      )}
      {error && <Text fontSize="sm" color="fg.error" role="alert">{error}</Text>}
    </Stack>
  );
}
