import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { PlatformProvider } from '../../../lib/platform-context';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { DestructionForm } from './destruction-form';

const staff = [
  { user_id: 'u-dana', full_name: 'Dana Manager', role: 'manager', locked: false, needs_two_factor: false },
  { user_id: 'u-carl', full_name: 'Carlos Cashier', role: 'cashier', locked: true, needs_two_factor: false },
];

/** The form over a client whose destroy_controlled_stock answers `answer` (the database's { ok, reason } reply). */
function renderForm(answer: unknown, lots: { id: string; label: string }[] | null = null) {
  const rpc = vi.fn(async (fn: string) => (fn === 'till_staff' ? { data: staff, error: null } : { data: answer, error: null }));
  const client = { rpc } as unknown as StorewiseClient;
  const loaded = Object.assign(Promise.resolve(client), { status: 'fulfilled', value: client });
  const onDone = vi.fn();
  render(
    <ChakraProvider value={defaultSystem}>
      <PlatformProvider platform={{} as never} auth={{} as never} supabase={loaded}>
        <Suspense fallback="loading">
          <DestructionForm storeId="s1" variantId="v1" lots={lots} onDone={onDone} />
        </Suspense>
      </PlatformProvider>
    </ChakraProvider>,
  );
  return { rpc, onDone };
}

async function fill(qty: string, pin: string, note = '') {
  await userEvent.type(await screen.findByLabelText('Quantity destroyed'), qty);
  await userEvent.selectOptions(screen.getByLabelText('Witness'), 'u-dana');
  await userEvent.type(screen.getByLabelText('Witness PIN'), pin);
  if (note) await userEvent.type(screen.getByLabelText('Note (how it was destroyed)'), note);
  await userEvent.click(screen.getByRole('button', { name: 'Record destruction' }));
}

describe('DestructionForm', () => {
  it('offers only staff whose PIN is not locked, and records the destruction of the chosen lot before the witness', async () => {
    const { rpc, onDone } = renderForm({ ok: true }, [{ id: 'lot-a', label: 'A12 exp. 2026-12-10' }, { id: 'lot-b', label: 'B07' }]);
    const witness = await screen.findByLabelText('Witness');
    expect([...witness.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['Choose a member of staff', 'Dana Manager (manager)']);
    await userEvent.selectOptions(screen.getByLabelText('Lot'), 'lot-b');
    await fill('2', '4739', 'Denatured and binned');
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(rpc).toHaveBeenCalledWith('destroy_controlled_stock', { _store_id: 's1', _variant_id: 'v1', _qty: 2,
      _witness_id: 'u-dana', _witness_pin: '4739', _lot_id: 'lot-b', _note: 'Denatured and binned' });
  });

  it('refuses a missing quantity, witness or a PIN that is not 4 to 6 digits without calling the database', async () => {
    const { rpc } = renderForm({ ok: true });
    await screen.findByLabelText('Witness');
    await userEvent.type(screen.getByLabelText('Witness PIN'), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Record destruction' }));
    expect(await screen.findByText('Enter the quantity destroyed (above zero).')).toBeInTheDocument();
    expect(screen.getByText('Choose the witness.')).toBeInTheDocument();
    expect(screen.getByText('The witness types their 4 to 6 digit PIN.')).toBeInTheDocument();
    expect(rpc.mock.calls.map(([fn]) => fn)).toEqual(['till_staff']);
  });

  it('says a wrong PIN in words with the tries left, keeps the quantity and clears the PIN', async () => {
    const { onDone } = renderForm({ ok: false, reason: 'wrong_pin', attempts_left: 2 });
    await fill('1', '0000');
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong PIN for the witness (2 tries left).');
    expect(screen.getByLabelText('Quantity destroyed')).toHaveValue('1');
    expect(screen.getByLabelText('Witness PIN')).toHaveValue('');
    expect(onDone).not.toHaveBeenCalled();
  });

  it.each([
    ['locked', 'The witness\u2019s PIN is locked for a while after too many wrong tries.'],
    ['no_pin', 'The witness has no till PIN yet: they set one in their profile.'],
  ])('says a %s refusal plainly', async (reason, said) => {
    renderForm({ ok: false, reason });
    await fill('1', '1234');
    expect(await screen.findByRole('alert')).toHaveTextContent(said);
  });
});
