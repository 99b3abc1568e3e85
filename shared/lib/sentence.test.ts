import { describe, expect, it } from 'vitest';
import { asSentence } from './sentence';

describe('asSentence', () => {
  it('turns the database\'s clauses into sentences, keeping the words', () => {
    expect(asSentence('permission denied: your role in this business does not allow this'))
      .toBe('Your role in this business does not allow this.');
    expect(asSentence('open a shift on this register first')).toBe('Open a shift on this register first.');
    expect(asSentence('Your Growth plan allows 3 stores.')).toBe('Your Growth plan allows 3 stores.');
    expect(asSentence('  ')).toBe('');
  });
});
