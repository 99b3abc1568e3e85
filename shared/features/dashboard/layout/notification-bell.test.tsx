import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NotificationBell } from './notification-bell';

function renderBell(unread: number) {
  return render(
    <ChakraProvider value={defaultSystem}>
      <NotificationBell unread={unread} />
    </ChakraProvider>,
  );
}

describe('NotificationBell', () => {
  it('shows no unread dot when nothing is unread', () => {
    renderBell(0);
    expect(screen.getByRole('img', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.queryByTestId('notification-dot')).toBeNull();
  });

  it('shows the dot and says how many are unread when there are some', () => {
    renderBell(3);
    expect(screen.getByRole('img', { name: 'Notifications, 3 unread' })).toBeInTheDocument();
    expect(screen.getByTestId('notification-dot')).toBeInTheDocument();
  });
});
