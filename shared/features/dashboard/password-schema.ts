import { z } from 'zod';
import { withPasswordMaximum } from '../../lib/password-limit';

/**
 * Password changes inside the dashboard (spec section 5, settings): at least 6 characters and a matching
 * confirmation. The upper bound is the sign-up one; the auth service enforces its own minimum again.
 */
const newPassword = withPasswordMaximum(z.string().min(6, 'Password must be at least 6 characters long.'));

const matches = (values: { newPassword: string; confirmPassword: string }) =>
  values.newPassword === values.confirmPassword;
const mismatch = { message: 'Passwords do not match.', path: ['confirmPassword'] };

/** Settings: new and confirm. */
export const newPasswordSchema = z
  .object({ newPassword, confirmPassword: z.string() })
  .refine(matches, mismatch);

/** Security: the current password is checked by the auth service before the change. */
export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, 'Enter your current password.'),
    newPassword,
    confirmPassword: z.string(),
  })
  .refine(matches, mismatch);

export type NewPasswordValues = z.infer<typeof newPasswordSchema>;
export type ChangePasswordValues = z.infer<typeof changePasswordSchema>;
