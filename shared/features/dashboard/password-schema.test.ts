import { describe, expect, it } from 'vitest';
import { changePasswordSchema, newPasswordSchema } from './password-schema';

function issues(result: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) {
  return result.success ? [] : (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]);
}

describe('newPasswordSchema (settings)', () => {
  it('accepts 6 matching characters', () => {
    expect(newPasswordSchema.safeParse({ newPassword: 'abcdef', confirmPassword: 'abcdef' }).success).toBe(true);
  });

  it('rejects short passwords with the spec message', () => {
    expect(issues(newPasswordSchema.safeParse({ newPassword: 'abcde', confirmPassword: 'abcde' }))).toEqual([
      ['newPassword', 'Password must be at least 6 characters long.'],
    ]);
  });

  it('rejects a mismatch on the confirmation field with the spec message', () => {
    expect(issues(newPasswordSchema.safeParse({ newPassword: 'abcdef', confirmPassword: 'abcdeg' }))).toEqual([
      ['confirmPassword', 'Passwords do not match.'],
    ]);
  });

  it('rejects passwords over the sign-up maximum', () => {
    const long = 'x'.repeat(101);
    expect(issues(newPasswordSchema.safeParse({ newPassword: long, confirmPassword: long }))).toEqual([
      ['newPassword', 'Password is too long'],
    ]);
  });

  it('still reports a mismatch next to a too-long password', () => {
    const long = 'x'.repeat(101);
    expect(issues(newPasswordSchema.safeParse({ newPassword: long, confirmPassword: 'other' }))).toEqual([
      ['newPassword', 'Password is too long'],
      ['confirmPassword', 'Passwords do not match.'],
    ]);
  });

  it('rejects passwords past the auth service\'s 72 bytes, saying bytes', () => {
    const long = 'x'.repeat(73);
    expect(issues(newPasswordSchema.safeParse({ newPassword: long, confirmPassword: long }))).toEqual([
      ['newPassword', 'Password must be at most 72 bytes (fewer characters if it uses accents or symbols)'],
    ]);
  });
});

describe('changePasswordSchema (security)', () => {
  it('requires the current password', () => {
    expect(
      issues(changePasswordSchema.safeParse({ currentPassword: '', newPassword: 'abcdef', confirmPassword: 'abcdef' })),
    ).toEqual([['currentPassword', 'Enter your current password.']]);
  });

  it('applies the same new-password rules', () => {
    expect(
      issues(changePasswordSchema.safeParse({ currentPassword: 'old-one', newPassword: 'abc', confirmPassword: 'abd' })),
    ).toEqual([
      ['newPassword', 'Password must be at least 6 characters long.'],
      ['confirmPassword', 'Passwords do not match.'],
    ]);
    expect(
      changePasswordSchema.safeParse({ currentPassword: 'old-one', newPassword: 'abcdef', confirmPassword: 'abcdef' })
        .success,
    ).toBe(true);
  });
});
