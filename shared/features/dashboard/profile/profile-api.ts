import type { StorewiseClient } from '../../../lib/supabase-client';
import { ServiceError, unwrap } from '../api-result';
import type { ProfileValues } from './profile-schema';

export async function fetchProfile(supabase: StorewiseClient, userId: string) {
  return unwrap(await supabase.from('profiles').select('full_name, phone').eq('id', userId).single());
}

/**
 * Saves the profile row and the auth user's full_name (the header and the overview read the latter), in
 * parallel. The row update returns the saved row, so an update that matched nothing is an error too.
 */
export async function saveProfile(supabase: StorewiseClient, userId: string, values: ProfileValues) {
  const fullName = values.fullName || null;
  const [row, auth] = await Promise.all([
    supabase
      .from('profiles')
      .update({ full_name: fullName, phone: values.phone || null })
      .eq('id', userId)
      .select('full_name, phone')
      .single(),
    supabase.auth.updateUser({ data: { full_name: fullName } }),
  ]);
  if (auth.error) throw new ServiceError(auth.error.message, auth.error.code);
  return unwrap(row);
}

export type Profile = Awaited<ReturnType<typeof fetchProfile>>;
