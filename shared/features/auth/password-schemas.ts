import { z } from 'zod';
import { fitsPasswordHash, passwordTooLongForService } from '../../lib/password-limit';

/** /forgot-password: the email the reset link goes to. */
export const forgotPasswordSchema = z.object({
  email: z.string().trim().min(1, 'Email is required').pipe(z.email('Please enter a valid email address')),
});
export type ForgotPasswordValues = z.output<typeof forgotPasswordSchema>;

export const RESET_MIN_LENGTH = 6;

/** /reset-password: spec 5 and 8 (at least 6 characters, both equal); messages word for word. */
export const resetPasswordSchema = z
  .object({
    password: z
      .string()
      .min(RESET_MIN_LENGTH, 'Password must be at least 6 characters long.')
      .refine(fitsPasswordHash, passwordTooLongForService),
    confirmPassword: z.string(),
  })
  .refine((values) => values.password === values.confirmPassword, {
    path: ['confirmPassword'],
    message: "Passwords don't match",
  });
export type ResetPasswordValues = z.output<typeof resetPasswordSchema>;
