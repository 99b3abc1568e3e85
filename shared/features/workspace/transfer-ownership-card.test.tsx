import { Suspense } from 'react';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AuthStore } from '../../lib/auth-store';
import { PlatformProvider } from '../../lib/platform-context';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { Platform } from '../../platform/platform';
import { nameMatches, TransferOwnershipCard } from './transfer-ownership-card';
import type { TeamMember, Workspace } from './workspace-api';

const workspace: Workspace = {
  id: 'b1', name: 'Corner Grocer', type: 'Grocery', role: 'owner', owner_id: 'u1', plan: 'Growth', max_stores: 3,
  max_products: 300, max_members: 0, stores_used: 2, members_used: 2, suspended_at: '', suspended_reason: '',
};
const member = (user_id: string, role: string, full_name: string): TeamMember =>
  ({ user_id, role, full_name, email: `${user_id}@shop.test`, all_stores: true, store_ids: [], joined_at: '' });
const team = [member('u1', 'owner', 'Olga Owner'), member('u2', 'manager', 'Max Manager')];

function renderCard(members = team) {
  const rpc = vi.fn(async () => ({ data: null, error: null }));
  const client = { rpc } as unknown as StorewiseClient;
  // Marked fulfilled the way React's use() reads a settled promise, so the client is there on the first render.
  const loaded = Object.assign(Promise.resolve(client), { status: 'fulfilled', value: client });
  const onTransferred = vi.fn();
  render(
    <ChakraProvider value={defaultSystem}>
      <PlatformProvider platform={{} as Platform} supabase={loaded} auth={{} as AuthStore}>
        <Suspense fallback="loading">
          <TransferOwnershipCard workspace={workspace} members={members} onTransferred={onTransferred} />
        </Suspense>
      </PlatformProvider>
    </ChakraProvider>,
  );
  return { rpc, onTransferred };
}

// A first Chakra render in jsdom takes seconds on a loaded machine; the default 5 s is too tight.
describe('TransferOwnershipCard', { timeout: 30_000 }, () => {
  it('stays disabled until a member is chosen and the business name typed back, then asks the database', async () => {
    const { rpc, onTransferred } = renderCard();
    const submit = screen.getByRole('button', { name: 'Transfer ownership' });
    expect(screen.queryByRole('option', { name: /Olga Owner/ })).toBeNull();
    fireEvent.change(screen.getByRole('combobox', { name: /New owner/ }), { target: { value: 'u2' } });
    expect(submit).toBeDisabled();
    const confirm = screen.getByRole('textbox', { name: /Type "Corner Grocer" to confirm/ });
    fireEvent.change(confirm, { target: { value: 'Corner Groce' } });
    expect(submit).toBeDisabled();
    fireEvent.change(confirm, { target: { value: 'Corner Grocer' } });
    expect(submit).toBeEnabled();
    fireEvent.click(submit);
    await waitFor(() => expect(onTransferred).toHaveBeenCalledTimes(1));
    expect(rpc).toHaveBeenCalledWith('transfer_ownership_confirmed',
      { _business_id: 'b1', _new_owner: 'u2', _confirm_name: 'Corner Grocer' });
  });

  it('asks for a member first when the owner is alone', () => {
    renderCard([team[0]!]);
    expect(screen.getByText(/Invite someone first/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Transfer ownership' })).toBeNull();
  });

  it('compares the typed name as the database does', () => {
    expect(nameMatches('  corner GROCER ', 'Corner Grocer')).toBe(true);
    expect(nameMatches('Corner', 'Corner Grocer')).toBe(false);
  });
});
