import { Box, Button, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { formatMinor } from '../../lib/money';
import type { CatalogHit } from './catalog-api';
import { BarcodeSvg } from './barcode-svg';

/**
 * A sheet of labels (name, price, barcode) for the chosen variants, printed with the browser's dialog; the
 * rest of the page is hidden while printing by the print styles below.
 */
export function LabelsSheet({ items, currency = null, onClose }: { items: CatalogHit[]; currency?: string | null; onClose: () => void }) {
  return (
    <Stack gap="3" as="section" aria-label="Labels">
      <HStack className="no-print">
        <Button size="sm" onClick={() => window.print()}>Print labels</Button>
        <Button size="sm" variant="ghost" onClick={onClose}>Close</Button>
        <Text fontSize="sm" color="fg.muted">{items.length} label{items.length === 1 ? '' : 's'}</Text>
      </HStack>
      <style>{'@media print { body * { visibility: hidden; } .label-sheet, .label-sheet * { visibility: visible; } .label-sheet { position: absolute; inset: 0; } }'}</style>
      <SimpleGrid className="label-sheet" columns={3} gap="2">
        {items.map((item) => (
          <Box key={item.variant_id} borderWidth="1px" borderStyle="dashed" p="2" textAlign="center" data-testid="label">
            <Text fontSize="sm" fontWeight="medium" truncate>
              {item.product_name} {[item.option1, item.option2, item.option3].filter(Boolean).join(' / ')}
            </Text>
            <Text fontSize="lg" fontWeight="bold">{formatMinor(item.price, currency)}</Text>
            {item.barcode ? <BarcodeSvg code={item.barcode} /> : <Text fontSize="xs" color="fg.muted">No barcode ({item.sku})</Text>}
          </Box>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
