import { memo } from 'react';
import { Button, HStack, IconButton, Table, Text } from '@chakra-ui/react';
import type { CatalogItem } from './cart';
import { PosThumb } from './pos-images';

export interface CartRowProps {
  /** The line's key (lineKey in cart.ts): the item, or the item and its serial or scale label. */
  lineId: string;
  item: CatalogItem;
  /** A serial or a scale label under the name; its quantity is not edited (only removed). */
  detail?: string | undefined;
  fixed?: boolean;
  qty: number;
  /** Minor units off the line. */
  discount: number;
  /** The line's total in minor units. */
  total: number;
  money: (minor: number) => string;
  onQty: (lineId: string, qty: number) => void;
  onDiscount: (lineId: string) => void;
}

/**
 * One line of the cart. Memoised on plain values (the item is the catalog's object, the callbacks are stable), so
 * a scan renders the line it adds or changes, not every line of a long cart again (ADR 0161).
 */
export const CartRow = memo(function CartRow({ lineId, item, detail, fixed, qty, discount, total, money, onQty, onDiscount }: CartRowProps) {
  return (
    <Table.Row>
      <Table.Cell>
        <HStack gap="2" align="flex-start">
          <PosThumb variantId={item.variantId} size="8" />
          <div>
            <Text>{item.name}</Text>
            {detail && <Text fontSize="xs" color="fg.muted" data-testid="line-detail">{detail}</Text>}
            {discount > 0 && <Text fontSize="xs" color="fg.muted" data-testid="line-discount">−{money(discount)}</Text>}
          </div>
        </HStack>
      </Table.Cell>
      <Table.Cell>
        <HStack gap="1">
          <IconButton size={{ base: 'sm', md: 'md' }} variant="outline" aria-label={fixed ? `Remove ${item.name}` : `One less ${item.name}`}
            onClick={() => onQty(lineId, fixed ? 0 : qty - 1)}>-</IconButton>
          <Text minW="8" textAlign="center" data-testid="cart-qty">{qty}</Text>
          <IconButton size={{ base: 'sm', md: 'md' }} variant="outline" aria-label={`One more ${item.name}`} disabled={fixed}
            onClick={() => onQty(lineId, qty + 1)}>+</IconButton>
          <Button size={{ base: 'sm', md: 'md' }} variant="ghost" aria-label={`Discount on ${item.name}`}
            onClick={() => onDiscount(lineId)}>%</Button>
        </HStack>
      </Table.Cell>
      <Table.Cell textAlign="end">{money(total)}</Table.Cell>
    </Table.Row>
  );
});
