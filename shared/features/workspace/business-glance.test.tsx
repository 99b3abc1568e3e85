import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { BusinessGlanceCard } from './business-glance';
import type { Workspace } from './workspace-api';

const base: Workspace = {
  id: 'b1', name: 'Corner Grocer', type: 'Grocery', role: 'owner', owner_id: 'u1', plan: 'Growth', max_stores: 3,
  max_products: 300, max_members: 0, stores_used: 2, members_used: 4, suspended_at: '', suspended_reason: '',
};

function renderCard(overrides: Partial<Workspace>) {
  return render(
    <ChakraProvider value={defaultSystem}>
      <MemoryRouter><BusinessGlanceCard workspace={{ ...base, ...overrides }} /></MemoryRouter>
    </ChakraProvider>,
  );
}

describe('BusinessGlanceCard', { timeout: 30_000 }, () => {
  it('shows the business, its plan, stores used of the limit and members', () => {
    renderCard({});
    const card = screen.getByRole('region', { name: 'Your business at a glance' });
    expect(card).toHaveTextContent('Corner Grocer');
    expect(card).toHaveTextContent('Growth');
    expect(card).toHaveTextContent('2 of 3 stores');
    expect(card).toHaveTextContent('4 people');
    expect(screen.queryByRole('link', { name: 'Choose a plan' })).toBeNull();
  });

  it('invites a Free owner to choose a plan, linking to the plan chooser', () => {
    renderCard({ plan: 'Free', max_stores: 1, stores_used: 1, members_used: 1 });
    expect(screen.getByRole('link', { name: 'Choose a plan' })).toHaveAttribute('href', '/dashboard/billing?choose=plan');
    expect(screen.getByRole('region', { name: 'Your business at a glance' })).toHaveTextContent('1 person');
  });

  it('does not ask a cashier of a Free business to buy a plan', () => {
    renderCard({ plan: 'Free', role: 'cashier' });
    expect(screen.queryByRole('link', { name: 'Choose a plan' })).toBeNull();
  });
});
