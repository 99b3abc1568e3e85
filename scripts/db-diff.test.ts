import { describe, expect, it } from 'vitest';
import { nextVersion } from './db-diff';

describe('nextVersion', () => {
  it('is the UTC time as the CLI stamps migrations', () => {
    expect(nextVersion(new Date('2026-11-28T09:05:07Z'), ['20261127130000'])).toBe('20261128090507');
  });

  it('comes after the newest migration even when a branch stamped one ahead of the clock', () => {
    expect(nextVersion(new Date('2026-11-27T09:00:00Z'), ['20261127130000', '20261127120000'])).toBe('20261127130001');
  });
});
