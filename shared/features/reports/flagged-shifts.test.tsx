import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { AuthStore } from '../../lib/auth-store';
import { PlatformProvider } from '../../lib/platform-context';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { Platform } from '../../platform/platform';
import { FlaggedShiftsSection } from './flagged-shifts';
import type { ReportRequest } from './reports-api';

/** ADR 0169: shifts opened in conflict beside the flagged sales; an owner or manager resolves each with a reason. */
const request: ReportRequest = {
  businessId: '00000000-0000-4000-8000-000000000001', from: '2026-11-01', to: '2026-11-23', grain: 'day', storeId: '',
};
const shift = {
  shift_id: '00000000-0000-4000-8000-0000000000a1', store_id: '00000000-0000-4000-8000-000000000002',
  store_name: 'Downtown', register_name: 'Front till', cashier_name: 'Ada', opened_at: '2026-11-20T09:00:00Z',
  closed_at: '2026-11-20T17:00:00Z', opening_float: 5000, sales_count: 3, gross: 4572, expected_cash: 9572,
  counted_total: 9500, difference: -72, currency: 'USD', review_reasons: ['open_conflict:00000000-0000-4000-8000-0000000000b2'],
  other_shift_id: '00000000-0000-4000-8000-0000000000b2', other_cashier_name: 'Ben', other_opened_at: '2026-11-20T08:30:00Z',
  other_closed_at: null, reviewed_at: null, reviewer_name: null, reason: null, total_count: 1,
};

function renderSection(rows: unknown[], reviewError: { message: string } | null = null) {
  let current = rows;
  const rpc = vi.fn(async (fn: string, _args: Record<string, unknown>) => {
    if (fn === 'review_shift') {
      if (!reviewError) current = [];
      return { data: null, error: reviewError };
    }
    return { data: current, error: null };
  });
  const supabase = { rpc } as unknown as StorewiseClient;
  // Marked fulfilled the way React's use() reads a settled promise, so the client is there on the first render.
  const client = Object.assign(Promise.resolve(supabase), { status: 'fulfilled', value: supabase });
  render(
    <ChakraProvider value={defaultSystem}>
      <PlatformProvider platform={{} as Platform} supabase={client} auth={{} as AuthStore}>
        <Suspense fallback="loading">
          <FlaggedShiftsSection request={request} />
        </Suspense>
      </PlatformProvider>
    </ChakraProvider>,
  );
  return { rpc };
}

// A first Chakra render in jsdom takes seconds on a loaded machine; the default 5 s is too tight.
describe('FlaggedShiftsSection', { timeout: 30_000 }, () => {
  it('lists the flagged shift with its register, cashier, totals and the shift it overlapped', async () => {
    const { rpc } = renderSection([shift]);
    const card = await screen.findByTestId('flagged-shift');
    expect(card).toHaveTextContent('Front till · Downtown · Ada');
    expect(within(card).getByTestId('flagged-shift-totals')).toHaveTextContent('3 sales, 45.72 USD; float 50.00 USD; counted 95.00 USD, difference -0.72 USD');
    expect(within(card).getByTestId('flagged-shift-other')).toHaveTextContent(/Overlapped the shift of Ben: .* still open/);
    expect(rpc).toHaveBeenCalledWith('flagged_shifts', expect.objectContaining({ _business_id: request.businessId, _include_reviewed: false }));
  });

  it('refuses a reason under 3 characters without asking the server, then resolves with one', async () => {
    const user = userEvent.setup();
    const { rpc } = renderSection([shift]);
    await screen.findByTestId('flagged-shift');
    await user.type(screen.getByLabelText('Reason'), 'ok');
    await user.click(screen.getByRole('button', { name: 'Resolve' }));
    expect(await screen.findByText('Give a reason (at least 3 characters).')).toBeInTheDocument();
    expect(rpc).not.toHaveBeenCalledWith('review_shift', expect.anything());
    await user.clear(screen.getByLabelText('Reason'));
    await user.type(screen.getByLabelText('Reason'), '  Both drawers counted  ');
    await user.click(screen.getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(rpc).toHaveBeenCalledWith('review_shift', { _shift_id: shift.shift_id, _reason: 'Both drawers counted' }));
    expect(await screen.findByText('No shifts waiting for review.')).toBeInTheDocument();
  });

  it('keeps the shift listed when the server refuses (a cashier gets 42501)', async () => {
    const user = userEvent.setup();
    const { rpc } = renderSection([shift], { message: 'permission denied' });
    await screen.findByTestId('flagged-shift');
    await user.type(screen.getByLabelText('Reason'), 'Counted twice');
    await user.click(screen.getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(rpc).toHaveBeenCalledWith('review_shift', expect.anything()));
    expect(screen.getByTestId('flagged-shift')).toHaveTextContent('To review');
  });

  it('shows a resolved shift with who resolved it and why', async () => {
    renderSection([{ ...shift, other_shift_id: null, other_cashier_name: null, other_opened_at: null,
      reviewed_at: '2026-11-21T10:00:00Z', reviewer_name: 'Mia', reason: 'Second drawer counted' }]);
    const card = await screen.findByTestId('flagged-shift');
    expect(card).toHaveTextContent('Resolved');
    expect(card).toHaveTextContent(/Mia on .*: Second drawer counted/);
    expect(card).toHaveTextContent('The shift it overlapped is no longer known.');
    expect(screen.queryByRole('button', { name: 'Resolve' })).toBeNull();
  });
});
