import { e2e } from '../../helpers/e2e-env';
import { createNodeSupabaseClient } from '../../helpers/node-supabase-client';

/**
 * Data set-up for dashboard tests, through the public API as the user would (anon key + their own
 * session), so row level security applies exactly as in the app.
 */
async function anonKey(): Promise<string> {
  const response = await fetch(`${e2e.webUrl}/config.json`);
  const config = (await response.json()) as { anonKey: string };
  return config.anonKey;
}

export async function userClient(email: string, password: string) {
  const client = createNodeSupabaseClient(e2e.apiUrl, await anonKey());
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw new Error(`sign-in of ${email} failed: ${error.message}`);
  return client;
}

/** Gives a fresh user a plan through choose_plan, the way the pricing section does. */
export async function choosePlan(email: string, password: string, plan: 'Starter' | 'Growth' | 'Pro'): Promise<void> {
  const client = await userClient(email, password);
  const { error } = await client.rpc('choose_plan', { _plan_name: plan });
  if (error) throw new Error(`choose_plan failed: ${error.message}`);
  await client.auth.signOut({ scope: 'local' });
}
