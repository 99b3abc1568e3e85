import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { AuthStore } from '../../lib/auth-store';
import { PlatformProvider } from '../../lib/platform-context';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { Platform } from '../../platform/platform';
import { FlaggedCashSection } from './flagged-cash';
import type { ReportRequest } from './reports-api';

/**
 * ADR 0402: cash in and out kept under an unverified till switch, beside the flagged sales (the database rules and
 * who may call flagged_cash_movements are tested over HTTP in tests/db/flagged-cash.test.ts).
 */
const request: ReportRequest = {
  businessId: '00000000-0000-4000-8000-000000000001', from: '2026-11-01', to: '2026-11-23', grain: 'day', storeId: '',
};
const row = {
  movement_id: '00000000-0000-4000-8000-0000000000c1', store_id: '00000000-0000-4000-8000-000000000002',
  store_name: 'Downtown', register_name: 'Front till', shift_id: '00000000-0000-4000-8000-0000000000a1', kind: 'out',
  amount: 1250, currency: 'USD', reason: 'Window cleaner', actor_name: 'Dana Manager', claimed_name: 'Carlos Cashier',
  at: '2026-11-20T09:00:00Z', review_reasons: ['till_switch_unverified'], total_count: 1,
};

function renderSection(result: { data: unknown; error: { message: string } | null }) {
  const rpc = vi.fn(async (_fn: string, _args: Record<string, unknown>) => result);
  const supabase = { rpc } as unknown as StorewiseClient;
  const client = Object.assign(Promise.resolve(supabase), { status: 'fulfilled', value: supabase });
  render(
    <ChakraProvider value={defaultSystem}>
      <PlatformProvider platform={{} as Platform} supabase={client} auth={{} as AuthStore}>
        <Suspense fallback="loading"><FlaggedCashSection request={{ ...request, storeId: row.store_id }} /></Suspense>
      </PlatformProvider>
    </ChakraProvider>,
  );
  return { rpc };
}

describe('FlaggedCashSection', { timeout: 30_000 }, () => {
  it('lists who, when, where, how much, the reason and the flag in words, for the chosen store', async () => {
    const { rpc } = renderSection({ data: [row], error: null });
    const card = await screen.findByTestId('flagged-cash');
    expect(card).toHaveTextContent('Cash out 12.50 USD · Downtown, Front till');
    expect(card).toHaveTextContent(/kept under Dana Manager \(the till had been switched to Carlos Cashier\)/);
    expect(card).toHaveTextContent('Reason given: “Window cleaner”');
    expect(card).toHaveTextContent('the offline PIN switch to another cashier could not be verified');
    expect(rpc).toHaveBeenCalledWith('flagged_cash_movements', { _business_id: request.businessId, _limit: 200, _store_id: row.store_id });
  });

  it('says when there is nothing to check', async () => {
    renderSection({ data: [], error: null });
    expect(await screen.findByText('No flagged cash in or out.')).toBeInTheDocument();
  });

  it('shows the server\'s refusal (a cashier gets 42501)', async () => {
    renderSection({ data: null, error: { message: 'permission denied for this business' } });
    expect(await screen.findByText(/permission denied for this business/)).toBeInTheDocument();
  });
});
