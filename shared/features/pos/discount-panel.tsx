import { useState } from 'react';
import { Button, HStack, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { lineKey, parseMinor, type Discount } from './cart';
import type { CartState } from './till-state';

/**
 * A discount on one line or the whole cart, as a percent or an amount. The limit is checked when paying (the
 * role's percent of any line, as post_sale checks it); above it the till asks a manager to approve.
 */
export function DiscountPanel({ cart, currency, target: initialTarget, limit, onApply, onClose }: {
  cart: CartState;
  currency: string;
  /** 'cart' or a line's variant id. */
  target: string;
  limit: number;
  onApply: (target: string, discount: Discount | undefined) => void;
  onClose: () => void;
}) {
  const [target, setTarget] = useState(initialTarget);
  const [kind, setKind] = useState<'percent' | 'amount'>('percent');
  const [text, setText] = useState('');
  const value = kind === 'percent'
    ? (/^\s*\d{1,3}(?:[.,]\d{1,3})?\s*$/.test(text) ? Number(text.replace(',', '.')) : null)
    : parseMinor(text, currency);
  const valid = value !== null && value > 0 && (kind === 'amount' || value <= 100);

  return (
    <Stack as="form" gap="2" borderWidth="1px" rounded="md" p="3" aria-label="Discount"
      onSubmit={(e) => { e.preventDefault(); if (valid) onApply(target, { kind, value: value as number }); }}>
      <Text fontWeight="semibold">Discount (up to {limit} % of a line without a manager)</Text>
      <HStack wrap="wrap">
        <NativeSelect.Root maxW="xs">
          <NativeSelect.Field aria-label="Discount on" value={target} onChange={(e) => setTarget(e.target.value)}>
            <option value="cart">Whole cart</option>
            {cart.entries.map((e) => <option key={lineKey(e)} value={lineKey(e)}>{e.item.name}{e.serial ? ` ${e.serial}` : ''}</option>)}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <NativeSelect.Root maxW="36">
          <NativeSelect.Field aria-label="Discount kind" value={kind} onChange={(e) => setKind(e.target.value as 'percent' | 'amount')}>
            <option value="percent">Percent</option>
            <option value="amount">Amount</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Input aria-label="Discount value" maxW="32" value={text} autoFocus inputMode="decimal"
          placeholder={kind === 'percent' ? '10' : '5.00'} onChange={(e) => setText(e.target.value)} />
      </HStack>
      <HStack wrap="wrap">
        <Button type="submit" disabled={!valid}>Apply discount</Button>
        <Button variant="outline" onClick={() => onApply(target, undefined)}>Remove discount</Button>
        <Button variant="ghost" onClick={onClose}>Close</Button>
      </HStack>
    </Stack>
  );
}
