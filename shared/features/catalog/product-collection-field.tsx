import { useEffect, useState } from 'react';
import { HStack, NativeSelect, Text } from '@chakra-ui/react';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { fetchCollections, setProductCollection } from './collections-api';

/** The product's collection (clothing pack): a choice among the business's collections, saved at once. */
export function ProductCollectionField({ businessId, productId, current, canEdit, onSaved }: {
  businessId: string; productId: string; current: string | null; canEdit: boolean; onSaved: () => void;
}) {
  const supabase = useSupabase();
  const [collections, setCollections] = useState<{ id: string; name: string; season_code: string | null }[]>([]);
  useEffect(() => {
    fetchCollections(supabase, businessId).then(setCollections, (error: unknown) => console.error('Collections load failed:', error));
  }, [supabase, businessId]);
  const label = (c: { name: string; season_code: string | null }) => (c.season_code ? `${c.name} (${c.season_code})` : c.name);
  if (!canEdit) {
    const mine = collections.find((c) => c.id === current);
    return <Text fontSize="sm">Collection: {mine ? label(mine) : 'none'}</Text>;
  }
  return (
    <HStack gap="2">
      <Text fontSize="sm">Collection</Text>
      <NativeSelect.Root size="sm" maxW="xs">
        <NativeSelect.Field aria-label="Collection" value={current ?? ''} onChange={(e) => {
          setProductCollection(supabase, productId, e.target.value || null).then(() => {
            notify.success('Collection saved');
            onSaved();
          }, (error: unknown) => notify.error('Collection not saved', error instanceof Error ? error.message : String(error)));
        }}>
          <option value="">None</option>
          {collections.map((c) => <option key={c.id} value={c.id}>{label(c)}</option>)}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </HStack>
  );
}
