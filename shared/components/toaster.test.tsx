import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { notify, Toaster } from './toaster';

function renderToaster() {
  return render(
    <ChakraProvider value={defaultSystem}>
      <Toaster />
    </ChakraProvider>,
  );
}

/** The toast root carries its lifetime as the --duration custom property. */
async function durationOf(title: string): Promise<string> {
  const root = (await screen.findByText(title)).closest('[data-part="root"]');
  if (!(root instanceof HTMLElement)) throw new Error(`no toast root around "${title}"`);
  return root.style.getPropertyValue('--duration');
}

describe('notify', () => {
  it('keeps a success toast long enough to read (not zag\'s 2 s) and an error longer', async () => {
    renderToaster();
    notify.success('Sessions Ended', "You've been logged out from all other devices.");
    notify.error('Error', 'The service is unavailable.');
    expect(await durationOf('Sessions Ended')).toBe('5000ms');
    expect(await durationOf('Error')).toBe('8000ms');
    expect(screen.getByText("You've been logged out from all other devices.")).toBeTruthy();
  });
});
