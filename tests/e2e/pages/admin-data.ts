import { createClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import { e2e } from '../../helpers/e2e-env';
import { nodeClientOptions } from '../../helpers/node-supabase-client';
import { deriveApiKeys } from '../../../supabase/local/keys/api-keys';
import type { Database } from '../../../shared/lib/database.types';

/**
 * Data for the admin tests, through the public API: expected figures computed as the service role
 * (independently of the admin functions under test), users created with the auth admin API.
 */

const clientOptions = nodeClientOptions;

// The gateway accepts exactly the keys the stack derives from its secret (no iat, fixed expiry), so they
// are derived the same way from the e2e stack's fixed secret.
const keys = () => deriveApiKeys(e2e.jwtSecret);

export async function serviceClient() {
  return createClient<Database>(e2e.apiUrl, (await keys()).serviceRoleKey, clientOptions);
}

export async function anonClient() {
  return createClient<Database>(e2e.apiUrl, (await keys()).anonKey, clientOptions);
}

export async function signedInClient(email: string, password: string) {
  const client = await anonClient();
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw new Error(`sign-in of ${email} failed: ${error.message}`);
  return client;
}

export interface ExpectedFigures {
  totalUsers: string;
  activeUsers: string;
  totalRevenue: string;
  openTickets: string;
}

const integer = new Intl.NumberFormat('en-US');
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });

/** The overview's four figures as the screen should show them, from the tables (the e2e data set is small). */
export async function expectedFigures(): Promise<ExpectedFigures> {
  const service = await serviceClient();
  const count = async (query: PromiseLike<{ count: number | null; error: { message: string } | null }>) => {
    const { count: value, error } = await query;
    if (error || value === null) throw new Error(`count failed: ${error?.message ?? 'no count'}`);
    return value;
  };
  const profiles = await count(service.from('profiles').select('id', { count: 'exact', head: true }));
  const active = await count(service.from('user_plans').select('id', { count: 'exact', head: true }).eq('auto_renew', true));
  const open = await count(service.from('support_tickets').select('id', { count: 'exact', head: true }).eq('status', 'open'));
  const { data: amounts, error } = await service.from('billing_history').select('amount');
  if (error) throw new Error(`billing read failed: ${error.message}`);
  // Sum in cents so the expected total has no floating-point drift.
  const cents = amounts.reduce((sum, row) => sum + Math.round(Number(row.amount) * 100), 0);
  return {
    totalUsers: integer.format(profiles),
    activeUsers: integer.format(active),
    totalRevenue: money.format(cents / 100),
    openTickets: integer.format(open),
  };
}

export interface CreatedUser {
  id: string;
  email: string;
  password: string;
  fullName: string;
}

/** Confirmed users with the given full names, created through the auth admin API. */
export async function createUsers(fullNames: string[]): Promise<CreatedUser[]> {
  const service = await serviceClient();
  const users: CreatedUser[] = [];
  for (const fullName of fullNames) {
    const email = `admin-e2e-${randomUUID().slice(0, 8)}@e2e.storewise.test`;
    const password = `Pw-${randomUUID()}`;
    const { data, error } = await service.auth.admin.createUser({
      email,
      password,
      email_confirm: true,
      user_metadata: { full_name: fullName },
    });
    if (error || !data.user) throw new Error(`could not create ${fullName}: ${error?.message ?? 'no user'}`);
    users.push({ id: data.user.id, email, password, fullName });
  }
  return users;
}

/** Letters only (names are searched as text), unique enough for one test run. */
export function uniqueWord(length = 6): string {
  return Array.from({ length }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
}
