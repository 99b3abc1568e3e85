// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/auth.sql: profiles
//   supabase/schemas/pos.sql: set_my_pin()
//   supabase/schemas/workspace.sql: business_members
import { personMessage } from '../../../lib/database-messages';
import { serviceMessage } from '../../../lib/service-message';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { ServiceError, unwrap } from '../api-result';
import type { ProfileValues } from './profile-schema';

export async function fetchProfile(supabase: StorewiseClient, userId: string) {
  return unwrap(await supabase.from('profiles').select('full_name, phone').eq('id', userId).single());
}

/**
 * Saves the profile row, then the auth user's full_name (the header and the overview read the latter). One
 * after the other so that a failure leaves the two agreeing: the row goes first (the database checks its
 * bounds), and if the auth service then refuses, the row is put back to `previous`. The row update returns
 * the saved row, so an update that matched nothing is an error too.
 */
export async function saveProfile(supabase: StorewiseClient, userId: string, values: ProfileValues, previous: Profile) {
  const writeRow = async (fields: Profile) =>
    unwrap(await supabase.from('profiles').update(fields).eq('id', userId).select('full_name, phone').single());

  const saved = await writeRow({ full_name: values.fullName || null, phone: values.phone || null });
  const auth = await supabase.auth.updateUser({ data: { full_name: saved.full_name } });
  if (auth.error) {
    await writeRow(previous).catch((error: unknown) => console.error('Restoring the profile failed:', error));
    throw new ServiceError(serviceMessage(auth.error), auth.error.code);
  }
  return saved;
}

export type Profile = Awaited<ReturnType<typeof fetchProfile>>;

/** The businesses this person works in, for their own till PIN (one PIN per business, ADR 0300). */
export async function fetchMyMemberships(supabase: StorewiseClient, userId: string) {
  const rows = unwrap(await supabase.from('business_members').select('business_id, role, businesses(name)')
    .eq('user_id', userId).order('created_at'));
  return rows.map((r) => ({ businessId: r.business_id, role: r.role, name: r.businesses?.name ?? 'Business' }));
}
export type Membership = Awaited<ReturnType<typeof fetchMyMemberships>>[number];

/** Sets one's own till PIN in a business (set_my_pin: the database checks the rules again and audits without it). */
export async function setMyPin(supabase: StorewiseClient, businessId: string, pin: string): Promise<void> {
  const { error } = await supabase.rpc('set_my_pin', { _business_id: businessId, _pin: pin });
  if (error) throw new ServiceError(personMessage(error.message), error.code);
}
