import { ChakraProvider } from '@chakra-ui/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { HydrationGate, InertUntilHydrated } from '../shared/app/hydration-gate';
import { system } from '../shared/app/theme';

// What the prerender writes (renderToString sees the gate's server snapshot, as the prerender does):
// the auth shells stay inert until they hydrate, the landing never is (docs/adr/0160).
function prerendered(inert: boolean) {
  return renderToString(
    <ChakraProvider value={system}>
      <InertUntilHydrated.Provider value={inert}>
        <HydrationGate>
          <a href="/auth">Sign In</a>
        </HydrationGate>
      </InertUntilHydrated.Provider>
    </ChakraProvider>,
  );
}

describe('InertUntilHydrated', () => {
  it('keeps a page with forms inert until it hydrates', () => {
    expect(prerendered(true)).toMatch(/<div[^>]* inert=""/);
  });

  it('leaves a page without forms usable, so hydration has no inert to lift', () => {
    const html = prerendered(false);
    expect(html).toContain('Sign In');
    expect(html).not.toContain('inert');
  });
});
