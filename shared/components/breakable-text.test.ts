import { describe, expect, it } from 'vitest';
import { breakParts } from './breakable-text';

describe('breakParts', () => {
  it('offers a break after "@" and before each "." of an email, never inside a word', () => {
    expect(breakParts('owner1@storewise.local')).toEqual(['owner1@', 'storewise', '.local']);
  });
  it('offers a break after each hyphen of an id (browsers keep "-2" together as a minus sign)', () => {
    expect(breakParts('22222222-2222-4222-8222-222222222222')).toEqual(['22222222-', '2222-', '4222-', '8222-', '222222222222']);
  });
  it('keeps the text whole when joined again', () => {
    for (const text of ['a.b@c.d-e', '', '@.-']) expect(breakParts(text).join('')).toBe(text);
  });
});
