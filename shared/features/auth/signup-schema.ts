import { z } from 'zod';
import { withPasswordMaximum } from '../../lib/password-limit';

export const businessTypes = ['Grocery', 'Clothing', 'Medical', 'Electronics', 'Others'] as const;

/** The sign-up table of spec section 5, messages word for word. The database checks the same bounds. */
export const signupSchema = z
  .object({
    fullName: z.string().trim().min(2, 'Name must be at least 2 characters').max(100, 'Name is too long'),
    businessName: z
      .string()
      .trim()
      .min(2, 'Business name is required')
      .max(100, 'Business name is too long'),
    businessType: z.enum(businessTypes, { error: 'Please select a business type' }),
    businessEmail: z.string().trim().max(255, 'Email is too long').pipe(z.email('Invalid email address')),
    phone: z
      .string()
      .trim()
      .min(10, 'Phone number must be at least 10 digits')
      .max(20, 'Phone number is too long'),
    password: withPasswordMaximum(z.string().min(8, 'Password must be at least 8 characters')),
    confirmPassword: z.string(),
    agreeToTerms: z.boolean().refine((value) => value, 'You must agree to the terms and privacy policy'),
  })
  .refine((values) => values.password === values.confirmPassword, {
    path: ['confirmPassword'],
    message: "Passwords don't match",
  });

export type SignupInput = z.input<typeof signupSchema>;
export type SignupValues = z.output<typeof signupSchema>;

export const emptySignup = {
  fullName: '',
  businessName: '',
  // An empty select is not a business type yet; the schema turns it into "Please select a business type".
  businessType: '' as SignupInput['businessType'],
  businessEmail: '',
  phone: '',
  password: '',
  confirmPassword: '',
  agreeToTerms: false,
} satisfies Record<keyof SignupInput, unknown>;
