import { z } from 'zod';

/** The /auth form: email and password always, a full name only when creating an account (spec 5). */
const email = z.string().trim().min(1, 'Email is required').pipe(z.email('Please enter a valid email address'));
const password = z.string().min(1, 'Password is required');

export const signInSchema = z.object({ fullName: z.string(), email, password });
export const createAccountSchema = z.object({
  // The profile keeps names of 2-100 characters (spec 9 limits, a database CHECK): same bounds and messages
  // as the sign-up page, so a name is never accepted here and then dropped from the profile.
  fullName: z
    .string()
    .trim()
    .min(1, { error: 'Full name is required', abort: true })
    .min(2, 'Name must be at least 2 characters')
    .max(100, 'Name is too long'),
  email,
  password,
});

export type AuthMode = 'sign-in' | 'sign-up';
export type AuthFormValues = z.output<typeof createAccountSchema>;

export const authSchemaFor = (mode: AuthMode) => (mode === 'sign-in' ? signInSchema : createAccountSchema);
