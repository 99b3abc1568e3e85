import { useEffect, useState } from 'react';
import { Button, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useSupabase } from '../../lib/platform-context';
import { hitLabel, searchItems, type CatalogHit } from './orders-api';

/** Finds items by name, SKU or barcode and hands the chosen one to onPick (the lines of an order, transfer or count). */
export function VariantPicker({ businessId, onPick, label = 'Add item' }: {
  businessId: string; onPick: (hit: CatalogHit) => void; label?: string;
}) {
  const supabase = useSupabase();
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<{ query: string; rows: CatalogHit[] } | null>(null);

  useEffect(() => {
    const q = query.trim();
    if (q === '') return;
    let cancelled = false;
    const timer = setTimeout(() => {
      searchItems(supabase, businessId, q).then((rows) => !cancelled && setHits({ query: q, rows }),
        (error: unknown) => console.error('Item search failed:', error));
    }, 250);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [supabase, businessId, query]);

  const shown = hits && hits.query === query.trim() ? hits.rows : [];
  return (
    <Stack gap="2">
      <Input type="search" placeholder="Name, SKU or barcode" aria-label={label} value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          // A scanner ends with Enter: take the first match instead of submitting the form.
          if (e.key === 'Enter') {
            e.preventDefault();
            const first = shown[0];
            if (first) {
              onPick(first);
              setQuery('');
            }
          }
        }} />
      {query.trim() !== '' && hits?.query === query.trim() && shown.length === 0 && <Text fontSize="sm" color="fg.muted">No item matches.</Text>}
      {shown.length > 0 && (
        <Stack gap="1" role="list" aria-label="Matching items">
          {shown.map((hit) => (
            <HStack key={hit.variant_id} role="listitem" justify="space-between" gap="2" borderBottomWidth="1px" py="1">
              <Text fontSize="sm" truncate>{hitLabel(hit)} <Text as="span" color="fg.muted" fontFamily="mono">{hit.sku}</Text></Text>
              <Button size="xs" variant="outline" aria-label={`Add ${hit.sku}`} onClick={() => {
                onPick(hit);
                setQuery('');
              }}>Add</Button>
            </HStack>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
