import 'fake-indexeddb/auto';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { StorewiseClient } from '../../lib/supabase-client';
import { enqueue, openPosDb, pendingEntries, queuedEntry, syncOutbox } from './outbox';
import { entrySummary, plainRefusal, RefusedEntries } from './refused-entries';

/** ADR 0165: what the server refused is shown in plain words; a manager retries or discards it with a reason, recorded first. */
async function refusedDb() {
  const db = await openPosDb(`refused-${Math.random()}`);
  await enqueue(db, 'sale', { id: 's1', receipt_seq: 7, tenders: [{ kind: 'cash', amount: 1524 }] }, { id: 'u1', label: 'Ada' });
  await enqueue(db, 'cash', { id: 'm1', kind: 'out', amount: 300, reason: 'Bank' }, { id: 'u1', label: 'Ada' });
  await syncOutbox(db, async () => ({ status: 'rejected', error: 'permission denied: you do not have access to this store' }));
  return db;
}

function fakeSupabase(error: { message: string } | null = null) {
  const rpc = vi.fn(async (_fn: string, _args: Record<string, unknown>) => ({ data: null, error }));
  return { rpc, client: { rpc } as unknown as StorewiseClient };
}

function renderPanel(db: Awaited<ReturnType<typeof refusedDb>>, role: string, supabase = fakeSupabase()) {
  const onChanged = vi.fn();
  render(
    <ChakraProvider value={defaultSystem}>
      <RefusedEntries supabase={supabase.client} db={db} storeId="store-1" currency="USD" role={role} refusedCount={2} onChanged={onChanged} />
    </ChakraProvider>,
  );
  return { ...supabase, onChanged };
}

describe('plain words', () => {
  it('turns the server\'s refusals into what happened', () => {
    expect(plainRefusal('rejected: permission denied: you do not have access to this store')).toMatch(/no longer has access/);
    expect(plainRefusal('rejected: this register already has an open shift: close it first')).toMatch(/Another shift was already open/);
    expect(plainRefusal('rejected: permission denied: this sale id belongs to another business or store')).toMatch(/another business/);
    expect(plainRefusal('rejected: something new')).toBe('Something new');
    expect(entrySummary({ id: 's', seq: 1, kind: 'sale', payload: { receipt_seq: 7, tenders: [{ amount: 1524 }] }, createdAt: '', attempts: 1 }, 'USD'))
      .toMatch(/15\.24.*receipt 7/);
  });
});

describe('RefusedEntries', () => {
  it('shows each refused entry with its reason and author; a cashier cannot settle them', async () => {
    const db = await refusedDb();
    renderPanel(db, 'cashier');
    expect(await screen.findAllByTestId('refused-entry')).toHaveLength(2);
    expect(screen.getAllByTestId('refusal')[0]?.textContent).toMatch(/no longer has access to this store/);
    expect(screen.getAllByText(/by Ada/)).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Discard' })).toBeNull();
  });

  it('a manager discards with a reason: recorded on the server first, then removed from the register', async () => {
    const db = await refusedDb();
    const user = userEvent.setup();
    const { rpc, onChanged } = renderPanel(db, 'manager');
    await screen.findAllByTestId('refused-entry');
    await user.click(screen.getAllByRole('button', { name: 'Discard' })[0] as HTMLElement);
    expect((await screen.findByRole('alert')).textContent).toMatch(/Give a reason/);
    expect(rpc).not.toHaveBeenCalled();
    await user.type(screen.getAllByLabelText('Reason for retrying or discarding')[0] as HTMLElement, 'Rung up again online');
    await user.click(screen.getAllByRole('button', { name: 'Discard' })[0] as HTMLElement);
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(rpc).toHaveBeenCalledWith('pos_outbox_review', expect.objectContaining({
      _store_id: 'store-1', _entry_id: 's1', _kind: 'sale', _action: 'discard', _reason: 'Rung up again online', _author_id: 'u1' }));
    expect(await queuedEntry(db, 's1')).toBeUndefined();
    await waitFor(() => expect(screen.getAllByTestId('refused-entry')).toHaveLength(1));
  });

  it('a retry puts the entry back in the queue; when the trail cannot be written (offline) nothing changes', async () => {
    const db = await refusedDb();
    const user = userEvent.setup();
    const offline = renderPanel(db, 'owner', fakeSupabase({ message: 'Failed to fetch' }));
    await screen.findAllByTestId('refused-entry');
    await user.type(screen.getAllByLabelText('Reason for retrying or discarding')[1] as HTMLElement, 'Access restored');
    await user.click(screen.getAllByRole('button', { name: 'Retry' })[1] as HTMLElement);
    expect((await screen.findByRole('alert')).textContent).toMatch(/Not recorded: Failed to fetch/);
    expect(offline.onChanged).not.toHaveBeenCalled();
    expect((await queuedEntry(db, 'm1'))?.lastError).toMatch(/^rejected:/);
    offline.rpc.mockResolvedValue({ data: null, error: null });
    await user.click(screen.getAllByRole('button', { name: 'Retry' })[1] as HTMLElement);
    await waitFor(() => expect(offline.onChanged).toHaveBeenCalled());
    expect((await queuedEntry(db, 'm1'))?.lastError).toBeUndefined();
    expect((await pendingEntries(db)).map((e) => e.id)).toEqual(['s1', 'm1']);
  });
});
