import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { StorewiseClient } from '../../lib/supabase-client';
import { ProductStock } from './product-stock';

type Answer = { data: { store_id: string; variant_id: string; qty: number }[] | null; error: { message: string } | null };

/** A client answering the stock reads in turn with `answers` and handing the test the Realtime change handler. */
function fakeClient(answers: Answer[]) {
  const reads: string[][] = [];
  let handler: ((payload: unknown) => void) | undefined;
  const client = {
    from: () => ({
      select: () => ({
        in: async (_column: string, ids: string[]) => {
          reads.push(ids);
          return answers.shift() ?? { data: null, error: { message: 'no more answers' } };
        },
      }),
    }),
    channel: () => {
      const channel = {
        on: (_type: string, _filter: unknown, h: (payload: unknown) => void) => {
          handler = h;
          return channel;
        },
        subscribe: (status: (s: string) => void) => {
          status('SUBSCRIBED');
          return channel;
        },
      };
      return channel;
    },
    removeChannel: async () => 'ok',
  };
  const stockChanged = (variantId: string) =>
    handler?.({ table: 'stock_balances', eventType: 'UPDATE', new: { variant_id: variantId }, old: {} });
  return { client: client as unknown as StorewiseClient, reads, stockChanged };
}

const variants = [{ id: 'v-s', label: 'S' }, { id: 'v-m', label: 'M' }];
const stores = [{ id: 'st-1', name: 'Downtown' }];
const renderStock = (client: StorewiseClient) => render(
  <ChakraProvider value={defaultSystem}><ProductStock supabase={client} businessId="biz-1" variants={variants} stores={stores} /></ChakraProvider>,
);

// A first Chakra render in jsdom takes seconds on a loaded machine.
describe('ProductStock', { timeout: 30_000 }, () => {
  it('says a failed read failed (not "no stock"), and Retry reads again', async () => {
    const fake = fakeClient([
      { data: null, error: { message: 'permission denied for table stock_balances' } },
      { data: [{ store_id: 'st-1', variant_id: 'v-s', qty: 4 }], error: null },
    ]);
    renderStock(fake.client);
    expect(await screen.findByText('The stock on hand could not be loaded.')).toBeVisible();
    expect(screen.getByText('permission denied for table stock_balances')).toBeVisible();
    expect(screen.queryByText('No stock recorded in your stores.')).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getAllByTestId('product-on-hand').map((c) => c.textContent)).toEqual(['4', '0']));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('reads again when one of its variants changes, not for another product\'s; a failed refresh keeps the figures, marked', async () => {
    const fake = fakeClient([
      { data: [{ store_id: 'st-1', variant_id: 'v-s', qty: 4 }], error: null },
      { data: [{ store_id: 'st-1', variant_id: 'v-s', qty: 3 }], error: null },
      { data: null, error: { message: 'timeout' } },
    ]);
    renderStock(fake.client);
    await waitFor(() => expect(screen.getAllByTestId('product-on-hand')[0]).toHaveTextContent('4'));
    fake.stockChanged('v-other');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fake.reads).toHaveLength(1);
    fake.stockChanged('v-s');
    fake.stockChanged('v-m');
    await waitFor(() => expect(screen.getAllByTestId('product-on-hand')[0]).toHaveTextContent('3'));
    // One read for the burst of this product's changes; none for the other product's.
    expect(fake.reads).toHaveLength(2);
    fake.stockChanged('v-m');
    expect(await screen.findByText('The stock on hand could not be read again: the figures below may be out of date.')).toBeVisible();
    expect(screen.getAllByTestId('product-on-hand')[0]).toHaveTextContent('3');
    expect(fake.reads).toHaveLength(3);
  });
});
