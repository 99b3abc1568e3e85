import { z } from 'zod';
import { personNameSchema } from '../../lib/person-name';

/** The /auth form: email and password always, a full name only when creating an account (spec 5). */
const email = z.string().trim().min(1, 'Email is required').pipe(z.email('Please enter a valid email address'));
const password = z.string().min(1, 'Password is required');

export const signInSchema = z.object({ fullName: z.string(), email, password });
export const createAccountSchema = z.object({
  fullName: personNameSchema,
  email,
  password,
});

export type AuthMode = 'sign-in' | 'sign-up';
export type AuthFormValues = z.output<typeof createAccountSchema>;

export const authSchemaFor = (mode: AuthMode) => (mode === 'sign-in' ? signInSchema : createAccountSchema);
