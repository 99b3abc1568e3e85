import { describe, expect, it } from 'vitest';
import { avatarInitials, displayName } from './initials';

describe('avatarInitials', () => {
  it.each([
    ['Olivia Grocer', 'olivia@example.com', 'OG'],
    ['  marco   tailor ', null, 'MT'],
    ['Anna Maria Lopez', null, 'AL'],
    ['Cher', 'cher@example.com', 'C'],
    ['Élodie Ünal', null, 'ÉÜ'],
    [null, 'owner1@storewise.local', 'OW'],
    ['   ', 'x@y.z', 'X@'],
    [undefined, 'a', 'A'],
    [null, null, 'U'],
    ['', '  ', 'U'],
  ])('%s / %s gives %s', (name, email, expected) => {
    expect(avatarInitials(name, email)).toBe(expected);
  });
});

describe('displayName', () => {
  it('uses the full name, else User', () => {
    expect(displayName(' Olivia Grocer ')).toBe('Olivia Grocer');
    expect(displayName('')).toBe('User');
    expect(displayName(null)).toBe('User');
  });
});
