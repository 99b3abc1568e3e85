import { serviceMessage } from '../../../lib/service-message';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { ServiceError } from '../api-result';

/** Sets a new password for the signed-in user (the auth service applies its own rules too). */
export async function updatePassword(supabase: StorewiseClient, password: string): Promise<void> {
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw new ServiceError(serviceMessage(error), error.code);
}
