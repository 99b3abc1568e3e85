import 'fake-indexeddb/auto';
import bcrypt from 'bcryptjs';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { openPosDb } from '../outbox';
import { verifierSetSchema } from './offline-verifier';
import { OFFLINE_CASHIERS_ONLY, SwitchCashierPanel } from './switch-cashier-panel';
import { keepVerifiers } from './verifier-store';

/**
 * ADR 0350: online, the switch list offers everyone of the store with a PIN (till_staff), managers included, whose
 * PIN the database checks; offline it can offer only the register's verifiers (cashiers), and says so in the list.
 * The supabase client is a stand-in answering till_staff as the database does (tests/db/till-pins.test.ts covers
 * the function itself); the register's IndexedDB is fake-indexeddb.
 */
const register = '0c0a0000-0000-4000-8000-0000000000ff';
const ana = { user_id: '0c0a0000-0000-4000-8000-00000000000a', full_name: 'Ana Cashier', role: 'cashier' };
const mo = { user_id: '0c0a0000-0000-4000-8000-00000000000b', full_name: 'Mo Manager', role: 'manager' };

async function registerDb() {
  const db = await openPosDb(`switch-${Math.random()}`);
  // What till_pin_verifiers issued when the till was last online: cashiers only (bf cost 4 to keep the test quick).
  await keepVerifiers(db, verifierSetSchema.parse({ register_id: register, issued_at: '2026-12-01T10:00:00Z', staff: [{
    ...ana, verifier: await bcrypt.hash('4826', await bcrypt.genSalt(4)), proof_salt: await bcrypt.genSalt(4) }] }));
  return db;
}

function supabaseAnswering(staff: unknown[] | Error) {
  const rpc = vi.fn(async (fn: string) => {
    if (fn !== 'till_staff') return { data: null, error: { message: `unexpected ${fn}` } };
    if (staff instanceof Error) throw staff;
    return { data: staff, error: null };
  });
  return { rpc, client: { rpc } as unknown as StorewiseClient };
}

async function renderPanel(online: boolean, supabase: ReturnType<typeof supabaseAnswering>) {
  const db = await registerDb();
  const onSwitched = vi.fn();
  render(
    <ChakraProvider value={defaultSystem}>
      <SwitchCashierPanel supabase={supabase.client} db={db} storeId="store-1" registerId={register} online={online}
        onSwitched={onSwitched} onCancel={() => {}} />
    </ChakraProvider>,
  );
  const form = await screen.findByRole('form', { name: 'Switch cashier' });
  const options = within(form).getAllByRole('option').map((o) => o.textContent);
  return { form, options, onSwitched };
}

// Rendering Chakra and hashing on two shared cores: the default 5 s is not enough under load.
describe('who the switch list offers', { timeout: 30_000 }, () => {
  it('online: every PIN holder of the store, managers included, and the offline rule said plainly', async () => {
    const supabase = supabaseAnswering([{ ...ana, locked: false }, { ...mo, locked: false }]);
    const { options } = await renderPanel(true, supabase);
    expect(supabase.rpc).toHaveBeenCalledWith('till_staff', { _store_id: 'store-1' });
    expect(options).toEqual(['Choose a person', 'Ana Cashier (cashier)', 'Mo Manager (manager)']);
    expect(screen.getByTestId('switch-offline-rule')).toHaveTextContent(OFFLINE_CASHIERS_ONLY);
    expect(OFFLINE_CASHIERS_ONLY).toMatch(/^Only cashiers can switch in while offline/);
  });

  it('offline: the cashiers the register can verify, never asking the server', async () => {
    const supabase = supabaseAnswering([{ ...ana, locked: false }, { ...mo, locked: false }]);
    const { form, options, onSwitched } = await renderPanel(false, supabase);
    expect(supabase.rpc).not.toHaveBeenCalled();
    expect(options).toEqual(['Choose a person', 'Ana Cashier (cashier)']);
    expect(within(form).getByText(/offline: checked again when the sales sync/)).toBeInTheDocument();
    // And the cashier does switch in offline, with a proof for the server.
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: 'Who' }), ana.user_id);
    await userEvent.type(within(form).getByLabelText('PIN'), '4826');
    await userEvent.click(within(form).getByRole('button', { name: 'Switch' }));
    await vi.waitFor(() => expect(onSwitched).toHaveBeenCalledTimes(1));
    expect(onSwitched.mock.calls[0]?.[0]).toMatchObject({ user_id: ana.user_id, role: 'cashier', proof: expect.stringMatching(/^\$2[ab]\$04\$/) });
  });

  it('online but the server unreachable: the offline list, marked as offline', async () => {
    const { options, form } = await renderPanel(true, supabaseAnswering(new TypeError('Failed to fetch')));
    expect(options).toEqual(['Choose a person', 'Ana Cashier (cashier)']);
    expect(within(form).getByText(/offline: checked again/)).toBeInTheDocument();
  });
});
