import bcrypt from 'bcryptjs';
import { z } from 'zod';
import { compareInPool, hashInPool } from './password-hash-pool';

/** GoTrue's bcrypt cost; pgcrypto's crypt(..., gen_salt('bf')) hashes in the seed verify the same way. */
const COST = 10;

// Compared against when the email is unknown, so a wrong email takes as long as a wrong password.
const DUMMY_HASH = bcrypt.hashSync('storewise-timing-equaliser', COST);

export function hashPassword(password: string): Promise<string> {
  return hashInPool(password, COST);
}

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    await compareInPool(password, DUMMY_HASH);
    return false;
  }
  try {
    return await compareInPool(password, hash);
  } catch {
    return false;
  }
}

/**
 * A new password as GoTrue accepts it: bcrypt reads only 72 bytes, so longer ones are refused (counted in
 * bytes, as GoTrue does, so "é" counts twice).
 */
export const newPasswordField = z
  .string()
  .refine((password) => Buffer.byteLength(password, 'utf8') <= 72, 'Password cannot be longer than 72 characters');
