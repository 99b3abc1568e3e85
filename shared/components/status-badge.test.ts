import { describe, expect, it } from 'vitest';
import { statusLabel, statusPalette } from './status-badge';

describe('status badges', () => {
  it('colours tickets as the spec says: open blue, resolved green, others grey', () => {
    expect(statusPalette('open')).toBe('blue');
    expect(statusPalette('resolved')).toBe('green');
    expect(statusPalette('in_progress')).toBe('gray');
    expect(statusPalette('closed')).toBe('gray');
  });

  it('labels snake_case values in words', () => {
    expect(statusLabel('in_progress')).toBe('In progress');
    expect(statusLabel('past_due')).toBe('Past due');
    expect(statusLabel('paid')).toBe('Paid');
  });
});
