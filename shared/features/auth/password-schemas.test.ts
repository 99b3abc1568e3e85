import { describe, expect, it } from 'vitest';
import { forgotPasswordSchema, resetPasswordSchema } from './password-schemas';
import { authSchemaFor } from './auth-schema';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [String(issue.path[0]), issue.message]));

describe('resetPasswordSchema (spec 5 and 8)', () => {
  it('accepts two equal passwords of at least 6 characters', () => {
    expect(resetPasswordSchema.safeParse({ password: 'abcdef', confirmPassword: 'abcdef' }).success).toBe(true);
  });
  it('rejects a 5-character password with the spec message', () => {
    expect(messages(resetPasswordSchema.safeParse({ password: 'abcde', confirmPassword: 'abcde' }))).toEqual({
      password: 'Password must be at least 6 characters long.',
    });
  });
  it("rejects different passwords with \"Passwords don't match\"", () => {
    expect(messages(resetPasswordSchema.safeParse({ password: 'abcdef', confirmPassword: 'abcdeg' }))).toEqual({
      confirmPassword: "Passwords don't match",
    });
  });
});

describe('forgotPasswordSchema', () => {
  it('requires an email and trims it', () => {
    expect(messages(forgotPasswordSchema.safeParse({ email: '  ' }))).toEqual({ email: 'Email is required' });
    expect(forgotPasswordSchema.parse({ email: ' a@b.example ' }).email).toBe('a@b.example');
  });
  it('rejects something that is not an email', () => {
    expect(messages(forgotPasswordSchema.safeParse({ email: 'nope' }))).toEqual({
      email: 'Please enter a valid email address',
    });
  });
});

describe('auth form schema (spec 5: full name only when creating an account)', () => {
  it('signs in without a full name', () => {
    expect(authSchemaFor('sign-in').safeParse({ fullName: '', email: 'a@b.example', password: 'x' }).success).toBe(true);
  });
  it('requires a full name, email and password to create an account', () => {
    expect(messages(authSchemaFor('sign-up').safeParse({ fullName: ' ', email: '', password: '' }))).toEqual({
      fullName: 'Full name is required',
      email: 'Email is required',
      password: 'Password is required',
    });
  });
  it('keeps a created account\'s name within the profile\'s 2-100 characters', () => {
    const withName = (fullName: string) => authSchemaFor('sign-up').safeParse({ fullName, email: 'a@b.example', password: 'x' });
    expect(messages(withName('A'))).toEqual({ fullName: 'Name must be at least 2 characters' });
    expect(messages(withName('A'.repeat(101)))).toEqual({ fullName: 'Name is too long' });
    expect(withName(' Al ').success).toBe(true);
  });
});

describe('the auth service\'s 72-byte password limit', () => {
  it('is checked on the reset form too, counting bytes', () => {
    const reset = (password: string) => resetPasswordSchema.safeParse({ password, confirmPassword: password });
    expect(reset('p'.repeat(72)).success).toBe(true);
    expect(reset('é'.repeat(36)).success).toBe(true);
    expect(messages(reset('é'.repeat(37)))).toEqual({ password: 'Password must be at most 72 bytes (fewer characters if it uses accents or symbols)' });
    // 30 characters, 90 bytes: refused, and the words say bytes, not "72 characters".
    expect(messages(reset('€'.repeat(30))).password).toMatch(/at most 72 bytes/);
    expect(messages(reset('€'.repeat(30))).password).not.toMatch(/72 characters/);
  });
});
