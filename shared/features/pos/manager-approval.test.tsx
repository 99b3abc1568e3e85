import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { StorewiseClient } from '../../lib/supabase-client';
import { ManagerApproval } from './manager-approval';

/**
 * ADR 0350 (amended): in a business that requires two-factor sign-in for managers, a manager without a verified
 * factor is refused by approve_with_pin; the approval list leaves them out and says why, instead of letting the
 * person at the counter meet the refusal after typing the PIN. The client answers till_staff as the database does
 * (tests/db/till-pins.test.ts covers needs_two_factor over HTTP).
 */
const staff = [
  { user_id: '0c0a0000-0000-4000-8000-00000000000a', full_name: 'Ana Cashier', role: 'cashier', locked: false, needs_two_factor: false },
  { user_id: '0c0a0000-0000-4000-8000-00000000000b', full_name: 'Mo Manager', role: 'manager', locked: false, needs_two_factor: true },
  { user_id: '0c0a0000-0000-4000-8000-00000000000c', full_name: 'Kim Manager', role: 'manager', locked: false, needs_two_factor: false },
  { user_id: '0c0a0000-0000-4000-8000-00000000000d', full_name: 'Olu Owner', role: 'owner', locked: false, needs_two_factor: false },
];

function renderApproval(rows: unknown[]) {
  const rpc = vi.fn(async () => ({ data: rows, error: null }));
  render(
    <ChakraProvider value={defaultSystem}>
      <ManagerApproval supabase={{ rpc } as unknown as StorewiseClient} storeId="store-1" purpose="refund" maxPercent={0}
        onApproved={() => {}} onCancel={() => {}} />
    </ChakraProvider>,
  );
  return rpc;
}

describe('the manager approval list', { timeout: 30_000 }, () => {
  it('offers owners and managers whose PIN can approve, and names a manager left out for want of two-factor', async () => {
    const rpc = renderApproval(staff);
    const form = await screen.findByRole('form', { name: 'Manager approval' });
    expect(rpc).toHaveBeenCalledWith('till_staff', { _store_id: 'store-1' });
    expect(within(form).getAllByRole('option').map((o) => o.textContent))
      .toEqual(['Choose a person', 'Kim Manager (manager)', 'Olu Owner (owner)']);
    expect(screen.getByTestId('approval-two-factor-note'))
      .toHaveTextContent('Mo Manager cannot use a PIN here until they set up two-factor sign-in in their profile');
  });

  it('says nothing more when every manager can approve', async () => {
    renderApproval(staff.map((s) => ({ ...s, needs_two_factor: false })));
    const form = await screen.findByRole('form', { name: 'Manager approval' });
    expect(within(form).getAllByRole('option')).toHaveLength(4);
    expect(screen.queryByTestId('approval-two-factor-note')).toBeNull();
  });
});
