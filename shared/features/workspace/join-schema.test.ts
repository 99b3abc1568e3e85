import { describe, expect, it } from 'vitest';
import { firstScreenFor, joinSchema, mustChooseCredentials } from './join-schema';

describe('joinSchema', () => {
  it('accepts a name and two equal passwords of at least 6 characters', () => {
    expect(joinSchema.safeParse({ fullName: ' Casey ', password: 'abcdef', confirmPassword: 'abcdef' }).data)
      .toEqual({ fullName: 'Casey', password: 'abcdef', confirmPassword: 'abcdef' });
  });
  it('refuses a missing name, a short password and passwords that differ, with the sign-up messages', () => {
    const result = joinSchema.safeParse({ fullName: ' ', password: 'abc', confirmPassword: 'abd' });
    const messages = result.error?.issues.map((issue) => issue.message) ?? [];
    expect(messages).toContain('Full name is required');
    expect(messages).toContain('Password must be at least 6 characters long.');
  });
  it('refuses passwords that differ', () => {
    const result = joinSchema.safeParse({ fullName: 'Casey', password: 'abcdef', confirmPassword: 'abcdeg' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(["Passwords don't match"]);
  });
});

describe('mustChooseCredentials', () => {
  it('asks only accounts the invitation created that have not chosen a password', () => {
    expect(mustChooseCredentials({ invited: true })).toBe(true);
    expect(mustChooseCredentials({ invited: true, password_chosen: true })).toBe(false);
    expect(mustChooseCredentials({ full_name: 'Owner' })).toBe(false);
    expect(mustChooseCredentials(undefined)).toBe(false);
  });
});

describe('firstScreenFor', () => {
  it('sends a cashier to the register and a manager to the Overview', () => {
    expect(firstScreenFor('cashier')).toBe('/dashboard/pos');
    expect(firstScreenFor('manager')).toBe('/dashboard');
  });
});
