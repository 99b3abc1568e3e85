import { describe, expect, it } from 'vitest';
import { actorName } from './actor-name';

describe('actorName', () => {
  it('puts the account email first and the chosen name second', () => {
    expect(actorName({ email: 'manager@shop.test', name: 'Olivia Owner' })).toBe('manager@shop.test (Olivia Owner)');
  });

  it('shows the email alone without a name, or when the name is the email', () => {
    expect(actorName({ email: 'jane@x.test', name: null })).toBe('jane@x.test');
    expect(actorName({ email: 'jane@x.test', name: 'JANE@x.test' })).toBe('jane@x.test');
  });

  it('falls back to the name, then System (entries written by the database itself)', () => {
    expect(actorName({ email: null, name: 'Old Entry' })).toBe('Old Entry');
    expect(actorName({})).toBe('System');
  });
});
