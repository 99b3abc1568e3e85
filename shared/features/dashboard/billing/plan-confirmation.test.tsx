import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { PAYMENT_NOTE, type CatalogPlan } from './plan-change';
import { PlanConfirmation } from './plan-chooser';

const catalog: CatalogPlan[] = [
  { plan: 'Free', price: 0, max_stores: 1, max_products: 25, max_members: 1, self_service: false },
  { plan: 'Starter', price: 9.99, max_stores: 1, max_products: 100, max_members: null, self_service: true },
  { plan: 'Growth', price: 29.99, max_stores: 3, max_products: 300, max_members: null, self_service: true },
];
const growth = { plan_name: 'Growth', status: 'active', price: 29.99, next_billing_date: '2026-12-01T00:00:00Z' };
const usage = [{ business_name: 'Fresh Corner', stores_used: 3, products_used: 20, members_used: 2 }];

function renderConfirmation(target: string, onConfirm = vi.fn(), onBack = vi.fn()) {
  render(
    <ChakraProvider value={defaultSystem}>
      <MemoryRouter>
        <PlanConfirmation current={growth} catalog={catalog} usage={usage} target={target} saving={false}
          onBack={onBack} onConfirm={onConfirm} />
      </MemoryRouter>
    </ChakraProvider>,
  );
  return { onConfirm, onBack };
}

// A first Chakra render in jsdom takes seconds on a loaded machine; the default 5 s is too tight.
describe('PlanConfirmation', { timeout: 30_000 }, () => {
  it('shows the limits before and after, the price, that no payment is taken, and confirms on request', () => {
    const { onConfirm } = renderConfirmation('Starter');
    expect(screen.getByText('Change from Growth to Starter')).toBeInTheDocument();
    const stores = within(screen.getByRole('table', { name: 'Limits before and after' })).getByRole('row', { name: /Stores/ });
    expect(stores).toHaveTextContent('Stores3 stores1 store');
    expect(screen.getByText('$29.99 per month now, $9.99 per month on Starter, billed annually.')).toBeInTheDocument();
    expect(screen.getByText(PAYMENT_NOTE)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Starter' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('warns about a business over the smaller plan and says nothing is deleted', () => {
    renderConfirmation('Starter');
    const warning = screen.getByRole('alert', { name: 'Over the new limits' });
    expect(warning).toHaveTextContent("Over the Starter plan's limits");
    expect(warning).toHaveTextContent('Fresh Corner has 3 open stores; Starter allows 1. Nothing is deleted');
    expect(warning).toHaveTextContent('until you archive 2 stores');
  });

  it('an upgrade within the limits has no warning; Back goes back without changing anything', () => {
    const { onConfirm, onBack } = renderConfirmation('Growth');
    expect(screen.queryByText(/Over the .* plan's limits/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(onBack).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
