/**
 * The database's refusals as the functions' answers, shared by the Edge Functions that call RPCs for an owner
 * (business-deletion, business-export): a refusal passes on with its sentence and a 4xx; an expired or rejected
 * token is a 401; anything else stays an error (a 5xx, logged without details).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpRefusal } from './billing/http.ts';

/** Keyed by SQLSTATE; "not found" is PT404, which PostgREST answers with an HTTP 404 too (ADR 0331). */
const refusals: Record<string, 400 | 403 | 404 | 409> = { '42501': 403, PT404: 404, '22023': 400, P0001: 409 };

/** PostgREST's "JWT expired/invalid" (PGRST301) and "JWT claims invalid" (PGRST303), and a bare 401. */
const signInAgain = new Set(['PGRST301', 'PGRST303', '401']);

export function refusalOf(error: { code?: string; message: string }): HttpRefusal | null {
  if (error.code && signInAgain.has(error.code)) return new HttpRefusal(401, 'Sign in again.');
  const status = error.code ? refusals[error.code] : undefined;
  return status ? new HttpRefusal(status, error.message.charAt(0).toUpperCase() + error.message.slice(1) + '.') : null;
}

/** supabase-js options for a function's clients: no session kept, no refresh timer. */
export const clientOptions = { auth: { persistSession: false, autoRefreshToken: false } };

/** Calls an RPC; a refusal becomes its HttpRefusal, another error an Error naming only the function and code. */
export async function callRpc<T>(client: SupabaseClient, name: string, args: Record<string, unknown>): Promise<T> {
  const { data, error } = await client.rpc(name, args);
  if (error) throw refusalOf(error) ?? new Error(`${name}: ${error.code ?? ''}`);
  return data as T;
}
