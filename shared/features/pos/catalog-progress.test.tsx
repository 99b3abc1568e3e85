import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogProgress, progressLabel } from './catalog-progress';

afterEach(cleanup);

const show = (p: Parameters<typeof CatalogProgress>[0]['progress']) =>
  render(<ChakraProvider value={defaultSystem}><CatalogProgress progress={p} /></ChakraProvider>);

describe('the register\'s catalog progress bar (issue 32)', () => {
  it('shows the share read and the items counted, with an accessible label', () => {
    show({ loaded: 340_000, fraction: 0.34, total: 1_000_000, done: false });
    const bar = screen.getByRole('progressbar', { name: /^(Loading catalog|Catalog loaded)/ });
    expect(bar.getAttribute('aria-valuenow')).toBe('34');
    expect(screen.getByRole('status').textContent).toBe('Loading catalog 340,000 of about 1,000,000');
  });

  it('reaches the end with the exact count', () => {
    show({ loaded: 1_000_000, fraction: 1, total: 1_000_000, done: true });
    expect(screen.getByRole('progressbar', { name: /^(Loading catalog|Catalog loaded)/ }).getAttribute('aria-valuenow')).toBe('100');
    expect(screen.getByRole('status').textContent).toBe('Catalog loaded: 1,000,000 items');
    expect(screen.getByTestId('pos-catalog-progress').getAttribute('data-done')).toBe('true');
  });

  it('counts items before an estimate exists, and never shows a total below the count', () => {
    expect(progressLabel({ loaded: 3_000, fraction: 0.03, total: null, done: false })).toBe('Loading catalog: 3,000 items');
    expect(progressLabel({ loaded: 500, fraction: 0.5, total: 400, done: false })).toBe('Loading catalog 500 of about 500');
  });
});
