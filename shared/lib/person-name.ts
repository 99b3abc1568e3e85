import { z } from 'zod';

/**
 * A person's full name as the profile keeps it (spec 9 limits, a database CHECK: 2-100 characters), with the sign-up
 * page's messages: one rule for every form that asks for a name, so a name is never accepted there and then
 * dropped from the profile.
 */
export const personNameSchema = z
  .string()
  .trim()
  .min(1, { error: 'Full name is required', abort: true })
  .min(2, 'Name must be at least 2 characters')
  .max(100, 'Name is too long');
