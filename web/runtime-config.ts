import type { SupabaseConfig } from '../shared/platform/platform';

/**
 * Where the web app finds its Supabase project. A hosted build bakes VITE_SUPABASE_URL and
 * VITE_SUPABASE_ANON_KEY in; without them the app asks the server that served it (`npm start` serves
 * /config.json with the local stack's URL and anon key, so nobody copies keys by hand).
 */
export async function loadSupabaseConfig(): Promise<SupabaseConfig> {
  const url = import.meta.env.VITE_SUPABASE_URL as string | undefined;
  const anonKey = import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined;
  if (url && anonKey) return { url, anonKey };
  const response = await fetch('/config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`Storewise could not load its configuration (HTTP ${response.status}).`);
  const config = (await response.json()) as Partial<SupabaseConfig>;
  if (typeof config.url !== 'string' || typeof config.anonKey !== 'string') {
    throw new Error('Storewise configuration is incomplete: url and anonKey are required.');
  }
  return { url: config.url, anonKey: config.anonKey };
}
