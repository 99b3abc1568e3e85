import { describe, expect, it } from 'vitest';
import { profileSchema } from './profile-schema';

function messages(input: { fullName: string; phone: string }): string[] {
  const result = profileSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('profileSchema', () => {
  it('accepts empty fields: nothing on the profile is required', () => {
    expect(profileSchema.parse({ fullName: '  ', phone: '' })).toEqual({ fullName: '', phone: '' });
  });

  it('trims and accepts values inside the sign-up bounds', () => {
    expect(profileSchema.parse({ fullName: ' Olivia Grocer ', phone: ' +1 555 010 0101 ' })).toEqual({
      fullName: 'Olivia Grocer',
      phone: '+1 555 010 0101',
    });
  });

  it('uses the sign-up messages for names', () => {
    expect(messages({ fullName: 'O', phone: '' })).toEqual(['Name must be at least 2 characters']);
    expect(messages({ fullName: 'x'.repeat(101), phone: '' })).toEqual(['Name is too long']);
    expect(messages({ fullName: 'x'.repeat(100), phone: '' })).toEqual([]);
  });

  it('uses the sign-up messages for phone numbers', () => {
    expect(messages({ fullName: '', phone: '555 0101' })).toEqual(['Phone number must be at least 10 digits']);
    expect(messages({ fullName: '', phone: '1'.repeat(21) })).toEqual(['Phone number is too long']);
    expect(messages({ fullName: '', phone: '1'.repeat(10) })).toEqual([]);
  });
});
