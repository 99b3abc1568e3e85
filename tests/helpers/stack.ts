/**
 * One local Storewise stack per test file: PGlite in memory (seeded from supabase/seed.sql unless
 * seed: false), the gateway and the inbox on free ports. Use the official supabase-js against apiUrl.
 *
 *   const stack = await startStack();            // in beforeAll
 *   const client = createTestClient(stack);          // anon key; createTestClient(stack, 'service') for admin
 *   await stack.stop();                            // in afterAll
 */
import type { SupabaseClient, SupabaseClientOptions } from '@supabase/supabase-js';
import { createNodeSupabaseClient, nodeClientOptions } from './node-supabase-client';
import { startLocalStack, type RunningStack } from '../../supabase/local/server';
import type { AuthConfig, RateLimits } from '../../supabase/local/config';
import type { Db } from '../../supabase/local/db/types';
import type { RealtimeLimits } from '../../supabase/local/realtime/socket-session';

export interface StackHandle {
  apiUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  inboxUrl: string;
  jwtSecret: string;
  db: Db;
  /** The whole running stack (mailbox, auth config), for tests that need more. */
  stack: RunningStack;
  stop(): Promise<void>;
}

export interface StartStackOptions {
  /** Apply supabase/seed.sql (default true). */
  seed?: boolean;
  /** Email confirmations off: sign-up returns a session (default false, as on hosted Supabase). */
  autoconfirm?: boolean;
  rateLimits?: Partial<RateLimits>;
  /** Any other auth setting (site URL, redirect allow list, reuse interval...). */
  auth?: Partial<AuthConfig>;
  siteUrl?: string;
  maxBodyBytes?: number;
  /** The Edge Functions' log lines (billing tests check what is and is not logged). */
  functionLog?: (line: string) => void;
  /** Realtime's per-socket limits (a short idle timeout, few channels). */
  realtime?: Partial<RealtimeLimits>;
}

export async function startStack(opts: StartStackOptions = {}): Promise<StackHandle> {
  const auth: Partial<AuthConfig> = { ...opts.auth };
  if (opts.autoconfirm !== undefined) auth.autoconfirm = opts.autoconfirm;
  if (opts.rateLimits) {
    auth.rateLimits = { windowSeconds: 300, token: 150, signupRecover: 30, verify: 30, ...opts.auth?.rateLimits, ...opts.rateLimits };
  }
  const stack = await startLocalStack({
    memory: true,
    seed: opts.seed !== false,
    apiPort: 0,
    inboxPort: 0,
    auth,
    ...(opts.siteUrl ? { siteUrl: opts.siteUrl } : {}),
    ...(opts.maxBodyBytes ? { maxBodyBytes: opts.maxBodyBytes } : {}),
    ...(opts.functionLog ? { functionLog: opts.functionLog } : {}),
    ...(opts.realtime ? { realtime: opts.realtime } : {}),
  });
  return {
    apiUrl: stack.apiUrl,
    anonKey: stack.anonKey,
    serviceRoleKey: stack.serviceRoleKey,
    inboxUrl: stack.inboxUrl,
    jwtSecret: stack.jwtSecret,
    db: stack.db,
    stack,
    stop: () => stack.stop(),
  };
}

export const testClientOptions = nodeClientOptions;

/** A supabase-js client on the stack, with the anon key (default) or the service-role key. */
export function createTestClient(
  stack: Pick<StackHandle, 'apiUrl' | 'anonKey' | 'serviceRoleKey'>,
  key: 'anon' | 'service' = 'anon',
  options: SupabaseClientOptions<'public'> = {},
): SupabaseClient {
  return createNodeSupabaseClient(stack.apiUrl, key === 'anon' ? stack.anonKey : stack.serviceRoleKey, options);
}
