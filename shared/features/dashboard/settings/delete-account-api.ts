// SQL and functions: supabase/functions/delete-account (docs/adr/0208), which calls supabase/schemas/auth.sql.
import type { StorewiseClient } from '../../../lib/supabase-client';

/**
 * Deletes the signed-in person's own login through the delete-account Edge Function: memberships end, the name
 * becomes "Former staff member", the books keep the actor id. An owner is refused (transfer the business first);
 * the refusal's message is returned, else null.
 */
export async function deleteOwnAccount(supabase: StorewiseClient): Promise<string | null> {
  const { error } = await supabase.functions.invoke('delete-account', { method: 'POST', body: {} });
  if (!error) return null;
  const context = (error as { context?: Response }).context;
  const body = context && typeof context.json === 'function'
    ? ((await context.json().catch(() => ({}))) as { message?: string })
    : {};
  // notify.error shows it as a sentence.
  return body.message ?? 'The account could not be deleted. Try again shortly.';
}
