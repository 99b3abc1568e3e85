import { readOnlySentence } from './read-only-refusal';
import { siteStateSchema } from './site-state/site-state';
import type { StorewiseClient } from './supabase-client';

/** storage-js's StorageApiError: `status` is the HTTP status (400 for most refusals), `statusCode` the body's. */
interface StorageErrorLike { message: string; statusCode?: string }

/**
 * The error to show for a refused Storage write. Storage answers read-only maintenance the way it answers any
 * policy refusal (statusCode "403", "new row violates row-level security policy", docs/adr/0280), so on a "403" this asks the
 * platform's public state once and, when read-only is on, says so with the admin's reason instead.
 */
export async function storageWriteError(supabase: StorewiseClient, error: StorageErrorLike): Promise<Error> {
  if (error.statusCode !== '403') return new Error(error.message);
  const { data } = await supabase.rpc('public_site_state');
  const state = siteStateSchema.safeParse(data);
  const readOnly = state.success ? state.data.read_only : null;
  if (!readOnly) return new Error(error.message);
  return new Error(readOnlySentence({ message: null, details: readOnly.message }));
}
