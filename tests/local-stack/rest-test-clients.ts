/**
 * supabase-js clients for the data-API suites (tests/local-stack/rest-*.test.ts): one per role, with
 * access tokens minted with the test stack's own secret, so these suites exercise /rest/v1 without
 * depending on the auth flows (which have their own suites).
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import { nodeClientOptions } from '../helpers/node-supabase-client';
import type { StackHandle } from '../helpers/stack';

/** Seeded users (supabase/seed.sql). */
export const users = {
  admin: '11111111-1111-4111-8111-111111111111',
  owner1: '22222222-2222-4222-8222-222222222222',
  owner2: '33333333-3333-4333-8333-333333333333',
  owner3: '44444444-4444-4444-8444-444444444444',
} as const;

const noSession = nodeClientOptions;

export async function userToken(stack: StackHandle, sub: string): Promise<string> {
  return new SignJWT({ role: 'authenticated', aud: 'authenticated', sub, email: `${sub}@test.local` })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(stack.jwtSecret));
}

export async function userClient(stack: StackHandle, sub: string): Promise<SupabaseClient> {
  const token = await userToken(stack, sub);
  return createClient(stack.apiUrl, stack.anonKey, { ...noSession, global: { headers: { Authorization: `Bearer ${token}` } } });
}

export function anonClient(stack: StackHandle): SupabaseClient {
  return createClient(stack.apiUrl, stack.anonKey, noSession);
}

export function serviceClient(stack: StackHandle): SupabaseClient {
  return createClient(stack.apiUrl, stack.serviceRoleKey, noSession);
}

/** A raw request to /rest/v1 with the service role key, for what supabase-js cannot send (bad JSON...). */
export function rawRest(stack: StackHandle, path: string, init: RequestInit = {}, key = stack.serviceRoleKey): Promise<Response> {
  return fetch(`${stack.apiUrl}/rest/v1/${path}`, {
    ...init,
    headers: { apikey: key, Authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
}
