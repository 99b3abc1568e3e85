// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/auth.sql: export_my_personal_data()
import { serviceMessage } from '../../../lib/service-message';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { ServiceError } from '../api-result';

/** Sets a new password for the signed-in user (the auth service applies its own rules too). */
export async function updatePassword(supabase: StorewiseClient, password: string): Promise<void> {
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw new ServiceError(serviceMessage(error), error.code);
}

/**
 * Everything Storewise holds about the signed-in person, as one JSON document (export_my_personal_data). A user with
 * an authenticator must have given its code in this session; the sign-in gate makes sure of that.
 */
export async function exportMyPersonalData(supabase: StorewiseClient): Promise<unknown> {
  const { data, error } = await supabase.rpc('export_my_personal_data');
  if (error) throw new ServiceError(error.message, error.code);
  return data;
}
