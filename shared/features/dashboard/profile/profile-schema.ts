import { z } from 'zod';

/**
 * A text field that may be left empty, else must fit the sign-up bounds (spec section 5). The database
 * checks the same bounds on the trimmed value (profiles checks).
 */
function optionalBounded(min: number, max: number, tooShort: string, tooLong: string) {
  return z
    .string()
    .trim()
    .refine((value) => value === '' || value.length >= min, tooShort)
    .refine((value) => value.length <= max, tooLong);
}

export const profileSchema = z.object({
  fullName: optionalBounded(2, 100, 'Name must be at least 2 characters', 'Name is too long'),
  phone: optionalBounded(10, 20, 'Phone number must be at least 10 digits', 'Phone number is too long'),
});

export type ProfileValues = z.infer<typeof profileSchema>;
