import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AuthStore } from '../../lib/auth-store';
import { PlatformProvider } from '../../lib/platform-context';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { Platform } from '../../platform/platform';
import { UpdateReady } from './update-ready';

function renderWith(platform: Partial<Platform>) {
  return render(
    <ChakraProvider value={defaultSystem}>
      <PlatformProvider platform={platform as Platform} supabase={Promise.resolve({} as StorewiseClient)} auth={{} as AuthStore}>
        <UpdateReady />
      </PlatformProvider>
    </ChakraProvider>,
  );
}

describe('the dashboard and the offline copy (docs/adr/0200)', () => {
  it('starts the worker, says nothing until a newer build waits, then switches to it on request', async () => {
    let ready: (apply: () => void) => void = () => undefined;
    const stop = vi.fn();
    const start = vi.fn((onUpdateReady: (apply: () => void) => void) => { ready = onUpdateReady; return stop; });
    const { unmount } = renderWith({ offlineShell: { start } });
    expect(start).toHaveBeenCalled();
    expect(screen.queryByTestId('update-ready')).toBeNull();

    const apply = vi.fn();
    act(() => ready(apply));
    expect(screen.getByRole('status')).toHaveTextContent('A new version of Storewise is ready.');
    await userEvent.click(screen.getByRole('button', { name: 'Reload to update' }));
    expect(apply).toHaveBeenCalledTimes(1);
    unmount();
    expect(stop).toHaveBeenCalled();
  });

  it('does nothing where there is no offline copy (the desktop)', () => {
    renderWith({});
    expect(screen.queryByTestId('update-ready')).toBeNull();
  });
});
