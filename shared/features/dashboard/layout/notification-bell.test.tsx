import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { NotificationBellView, trialEndsText } from './notification-bell';
import type { BellItem, TrialNotice } from './use-notifications';

const items: BellItem[] = [
  { id: 'n1', kind: 'invitation.accepted', title: 'casey@shop.test joined Corner Shop', body: 'They joined as cashier.',
    link: '/dashboard/business/team', created_at: '2026-11-20T10:00:00Z', read_at: null },
  { id: 'n2', kind: 'plan.changed', title: 'Your plan changed from Starter to Growth', body: null,
    link: '/dashboard/billing', created_at: '2026-11-19T10:00:00Z', read_at: '2026-11-19T11:00:00Z' },
];
const trial: TrialNotice = { plan_name: 'Starter', trial_ends_at: '2026-11-22T10:00:00Z', days_left: 2 };

function renderBell(props: { items?: BellItem[]; unread?: number; trial?: TrialNotice | null }, onMarkRead = vi.fn()) {
  render(
    <ChakraProvider value={defaultSystem}>
      <MemoryRouter>
        <NotificationBellView items={props.items ?? []} unread={props.unread ?? 0} trial={props.trial ?? null}
          onMarkRead={onMarkRead} />
      </MemoryRouter>
    </ChakraProvider>,
  );
  return onMarkRead;
}

const openList = async (name: RegExp | string) => {
  fireEvent.click(screen.getByRole('button', { name }));
  // The menu is labelled by its trigger (the bell's label).
  return screen.findByRole('menu');
};

// A first Chakra render in jsdom takes seconds on a loaded machine; the default 5 s is too tight.
describe('NotificationBell', { timeout: 30_000 }, () => {
  it('shows no dot and says so when there is nothing', async () => {
    renderBell({});
    expect(screen.queryByTestId('notification-dot')).toBeNull();
    const menu = await openList('Notifications');
    expect(menu).toHaveTextContent('No notifications yet.');
  });

  it('lists the items, unread first marked, each linking to its page', async () => {
    renderBell({ items, unread: 1 });
    expect(screen.getByTestId('notification-dot')).toBeInTheDocument();
    const menu = await openList('Notifications, 1 unread');
    const [first, second] = within(menu).getAllByRole('menuitem').filter((el) => el.hasAttribute('data-unread'));
    expect(first).toHaveTextContent('Unread: casey@shop.test joined Corner Shop');
    expect(first).toHaveAttribute('href', '/dashboard/business/team');
    expect(first).toHaveAttribute('data-unread', 'true');
    expect(second).toHaveTextContent('Your plan changed from Starter to Growth');
    expect(second).not.toHaveTextContent('Unread');
    expect(second).toHaveAttribute('href', '/dashboard/billing');
  });

  it('marks all unread items read on request', async () => {
    const onMarkRead = renderBell({ items, unread: 1 });
    const menu = await openList('Notifications, 1 unread');
    fireEvent.click(within(menu).getByRole('button', { name: 'Mark all as read' }));
    expect(onMarkRead).toHaveBeenCalledWith(['n1']);
  });

  it('a trial ending soon is an item with a dot, linking to billing', async () => {
    renderBell({ trial });
    expect(screen.getByTestId('notification-dot')).toBeInTheDocument();
    const menu = await openList('Notifications, 1 unread');
    const notice = within(menu).getByTestId('trial-notice');
    expect(notice).toHaveTextContent('Your Starter trial ends in 2 days');
    expect(notice).toHaveAttribute('href', '/dashboard/billing');
    await waitFor(() => expect(menu).not.toHaveTextContent('No notifications yet.'));
  });

  it('says today and tomorrow in words', () => {
    expect(trialEndsText({ ...trial, days_left: 0 })).toBe('Your Starter trial ends today');
    expect(trialEndsText({ ...trial, days_left: 1 })).toBe('Your Starter trial ends tomorrow');
  });
});
