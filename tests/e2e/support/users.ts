import { randomUUID } from 'node:crypto';
import { deriveApiKeys } from '../../../supabase/local/keys/api-keys';
import { e2e } from '../../helpers/e2e-env';
import { createNodeSupabaseClient } from '../../helpers/node-supabase-client';

/**
 * The service-role key of the throwaway e2e stack. Its gateway accepts only its own two keys, byte for byte,
 * so derive them exactly as the stack does from the fixed JWT secret of e2e-env.
 */
export async function serviceRoleKey(): Promise<string> {
  return (await deriveApiKeys(e2e.jwtSecret)).serviceRoleKey;
}

export async function adminClient() {
  return createNodeSupabaseClient(e2e.apiUrl, await serviceRoleKey());
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  fullName: string;
}

/**
 * A fresh confirmed owner for tests that change state (passwords, sessions, tickets), so tests never
 * disturb the demo accounts or each other.
 */
export async function createConfirmedUser(prefix = 'owner', fullName = 'Test Owner'): Promise<TestUser> {
  const email = `${prefix}-${randomUUID().slice(0, 8)}@e2e.storewise.test`;
  const password = `Pw-${randomUUID()}`;
  const admin = await adminClient();
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { full_name: fullName },
  });
  if (error || !data.user) throw new Error(`could not create test user: ${error?.message ?? 'no user'}`);
  return { id: data.user.id, email, password, fullName };
}

/** The demo accounts of supabase/seed.sql (also listed in the README). */
export const demo = {
  admin: { email: 'admin@storewise.local', password: 'storewise-admin' },
  owner1: { email: 'owner1@storewise.local', password: 'storewise-owner' },
  owner2: { email: 'owner2@storewise.local', password: 'storewise-owner' },
};
