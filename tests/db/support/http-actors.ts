import type { SupabaseClient } from '@supabase/supabase-js';
import { createTestClient, type StackHandle } from '../../helpers/stack';
import type { Actor, ApiResult, Match, RpcResult } from './actors';

interface PostgrestLikeError {
  code?: string;
  message?: string;
}

const toError = (error: PostgrestLikeError | null) =>
  error ? { code: error.code ?? '', message: error.message ?? '' } : null;

const result = (data: unknown, error: PostgrestLikeError | null): ApiResult => ({
  rows: Array.isArray(data) ? (data as Record<string, unknown>[]) : [],
  error: toError(error),
});

/**
 * An actor calling the stack's data API over HTTP with the official client. The client is deliberately
 * untyped (no Database generic): the matrix sends columns the generated types would reject at compile
 * time, to prove the database rejects them too.
 */
export function httpActor(name: string, client: SupabaseClient, userId: string | null): Actor {
  return {
    name,
    userId,
    async select(table) {
      const { data, error } = await client.from(table).select('*');
      return result(data, error);
    },
    async insert(table, row) {
      const { data, error } = await client.from(table).insert(row).select();
      return result(data, error);
    },
    async update(table, patch, match: Match) {
      const { data, error } = await client.from(table).update(patch).match(match).select('id');
      return result(data, error);
    },
    async remove(table, match: Match) {
      const { data, error } = await client.from(table).delete().match(match).select('id');
      return result(data, error);
    },
    async rpc(fn, args): Promise<RpcResult> {
      const { data, error } = await client.rpc(fn, args);
      return { data, error: toError(error) };
    },
  };
}

/** Signs in with email and password (the stack's auth server) and returns an actor for that user. */
export async function signedInActor(stack: StackHandle, name: string, email: string, password: string): Promise<Actor> {
  const client = createTestClient(stack);
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error || !data.user) throw new Error(`sign-in as ${email} failed: ${error?.message ?? 'no user'}`);
  return httpActor(name, client, data.user.id);
}
