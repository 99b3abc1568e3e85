import { describe, expect, it } from 'vitest';
import { signupSchema, type SignupInput } from './signup-schema';

const valid: SignupInput = {
  fullName: 'Ada Lovelace',
  businessName: 'Ada Groceries',
  businessType: 'Grocery',
  businessEmail: 'shop@ada.example',
  phone: '+1 555 010 9999',
  password: 'correct-horse',
  confirmPassword: 'correct-horse',
  agreeToTerms: true,
};

/** The message zod reports for one field after a change to the valid form (undefined when accepted). */
function messageFor(field: keyof SignupInput, change: Partial<Record<keyof SignupInput, unknown>>) {
  const result = signupSchema.safeParse({ ...valid, ...change });
  if (result.success) return undefined;
  return result.error.issues.find((issue) => issue.path[0] === field)?.message;
}

describe('signupSchema (spec section 5, word for word)', () => {
  it('accepts a complete form and trims the text fields', () => {
    const result = signupSchema.parse({ ...valid, fullName: '  Ada Lovelace  ', businessEmail: ' shop@ada.example ' });
    expect(result.fullName).toBe('Ada Lovelace');
    expect(result.businessEmail).toBe('shop@ada.example');
  });

  it.each([
    ['fullName', { fullName: ' A ' }, 'Name must be at least 2 characters'],
    ['fullName', { fullName: 'x'.repeat(101) }, 'Name is too long'],
    ['businessName', { businessName: '' }, 'Business name is required'],
    ['businessName', { businessName: '  B  ' }, 'Business name is required'],
    ['businessName', { businessName: 'b'.repeat(101) }, 'Business name is too long'],
    ['businessType', { businessType: '' }, 'Please select a business type'],
    ['businessType', { businessType: 'Bakery' }, 'Please select a business type'],
    ['businessEmail', { businessEmail: 'not-an-email' }, 'Invalid email address'],
    ['businessEmail', { businessEmail: `${'a'.repeat(250)}@example.com` }, 'Email is too long'],
    ['phone', { phone: '555 0101' }, 'Phone number must be at least 10 digits'],
    ['phone', { phone: '1'.repeat(21) }, 'Phone number is too long'],
    ['password', { password: 'short', confirmPassword: 'short' }, 'Password must be at least 8 characters'],
    ['password', { password: 'p'.repeat(101), confirmPassword: 'p'.repeat(101) }, 'Password is too long'],
    // Within the spec's 100 characters but past the 72 bytes the auth service's bcrypt accepts.
    ['password', { password: 'p'.repeat(73), confirmPassword: 'p'.repeat(73) }, 'Password must be at most 72 bytes (fewer characters if it uses accents or symbols)'],
    ['password', { password: 'é'.repeat(37), confirmPassword: 'é'.repeat(37) }, 'Password must be at most 72 bytes (fewer characters if it uses accents or symbols)'],
    ['confirmPassword', { confirmPassword: 'something-else' }, "Passwords don't match"],
    ['agreeToTerms', { agreeToTerms: false }, 'You must agree to the terms and privacy policy'],
  ] as const)('%s: %j gives "%s"', (field, change, message) => {
    expect(messageFor(field, change)).toBe(message);
  });

  it('reports a too-long password and a mismatch together (one message each)', () => {
    for (const [password, tooLong] of [
      ['p'.repeat(101), 'Password is too long'],
      ['p'.repeat(73), 'Password must be at most 72 bytes (fewer characters if it uses accents or symbols)'],
    ] as const) {
      const result = signupSchema.safeParse({ ...valid, password, confirmPassword: 'different' });
      const issues = result.success ? [] : result.error.issues.map((issue) => [issue.path[0], issue.message]);
      expect(issues).toEqual([
        ['password', tooLong],
        ['confirmPassword', "Passwords don't match"],
      ]);
    }
  });

  it('accepts the boundaries of every length rule', () => {
    expect(
      signupSchema.safeParse({
        ...valid,
        fullName: 'Al',
        businessName: 'x'.repeat(100),
        phone: '1'.repeat(20),
        password: 'p'.repeat(8),
        confirmPassword: 'p'.repeat(8),
        businessEmail: `${'a'.repeat(243)}@example.com`,
      }).success,
    ).toBe(true);
  });

  it('reports every broken field of an empty form at once, including the mismatch', () => {
    const result = signupSchema.safeParse({ ...valid, fullName: '', phone: '', password: 'short', confirmPassword: 'x' });
    expect(result.success).toBe(false);
    const fields = result.error?.issues.map((issue) => issue.path[0]);
    expect(fields).toEqual(expect.arrayContaining(['fullName', 'phone', 'password', 'confirmPassword']));
  });
});
