// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/auth.sql: profiles
//   supabase/schemas/pos.sql: set_my_pin() set_staff_pin()
//   supabase/schemas/shared.sql: add_sample_catalog() dismiss_setup() setup_progress()
//   supabase/schemas/workspace.sql: accept_invitation() business_team() create_invitation() invitation_preview()
//     my_workspaces() remove_member() revoke_invitation() set_managers_need_two_factor() set_member_role()
//     transfer_ownership_confirmed() activity businesses invitations registers stores
import { serviceMessage } from '../../lib/service-message';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { Database } from '../../lib/database.types';

type Functions = Database['public']['Functions'];
export type Workspace = Functions['my_workspaces']['Returns'][number];
export type TeamMember = Functions['business_team']['Returns'][number];
export type Store = Database['public']['Tables']['stores']['Row'];
export type Register = Database['public']['Tables']['registers']['Row'];
export type Invitation = Database['public']['Tables']['invitations']['Row'];
export type ActivityEntry = Database['public']['Tables']['activity']['Row'];

/** A refusal from the database, with its SQLSTATE and hint (a plan limit is SW001). */
export class WorkspaceError extends Error {
  constructor(message: string, readonly code?: string, readonly hint?: string | null) {
    super(message);
    this.name = 'WorkspaceError';
  }
}

interface Result<T> {
  data: T | null;
  error: { message: string; code?: string; hint?: string | null } | null;
}

/** For functions that return nothing: only the error matters. */
function check(result: Result<unknown>): void {
  if (result.error) throw new WorkspaceError(result.error.message, result.error.code, result.error.hint);
}

function unwrap<T>(result: Result<T>): T {
  if (result.error) throw new WorkspaceError(result.error.message, result.error.code, result.error.hint);
  if (result.data === null) throw new WorkspaceError('The service returned no data.');
  return result.data;
}

export const fetchWorkspaces = async (supabase: StorewiseClient) => unwrap(await supabase.rpc('my_workspaces'));

type BusinessRow = Database['public']['Tables']['businesses']['Row'];

export async function fetchBusiness(
  supabase: StorewiseClient,
  id: string,
): Promise<Pick<BusinessRow, 'email' | 'phone' | 'country' | 'managers_need_two_factor' | 'packs'>> {
  return unwrap(await supabase.from('businesses').select('email, phone, country, managers_need_two_factor, packs').eq('id', id).single());
}

/** The owner (with a second factor in this session) requires managers to sign in with one (docs/adr/0207). */
export async function setManagersNeedTwoFactor(supabase: StorewiseClient, businessId: string, required: boolean) {
  const { error } = await supabase.rpc('set_managers_need_two_factor', { _business_id: businessId, _required: required });
  if (error?.code === '42501') throw new Error('Set up two-factor sign-in for yourself first (Dashboard > Security), then sign in with your code.');
  if (error) throw new Error(error.message);
}

export async function updateBusiness(supabase: StorewiseClient, id: string,
  values: { name: string; type: string; email: string | null; phone: string | null; country: string | null }) {
  return unwrap(await supabase.from('businesses').update(values).eq('id', id).select('id').single());
}

export async function fetchStores(supabase: StorewiseClient, businessId: string) {
  return unwrap(await supabase.from('stores').select('*').eq('business_id', businessId).order('created_at'));
}

export type StoreValues = Pick<Store, 'name' | 'address' | 'phone' | 'time_zone' | 'currency' | 'tax_inclusive'
  | 'default_tax_rate' | 'receipt_header' | 'receipt_footer' | 'offline_refund_limit' | 'cash_rounding_step'>;

export async function createStore(supabase: StorewiseClient, businessId: string, values: StoreValues) {
  return unwrap(await supabase.from('stores').insert({ business_id: businessId, ...values }).select('*').single());
}

export async function updateStore(supabase: StorewiseClient, id: string, values: Partial<StoreValues> & {
  archived_at?: string | null;
}) {
  return unwrap(await supabase.from('stores').update(values).eq('id', id).select('*').single());
}

export async function fetchRegisters(supabase: StorewiseClient, businessId: string) {
  return unwrap(await supabase.from('registers').select('*').eq('business_id', businessId).order('created_at'));
}

export async function createRegister(supabase: StorewiseClient, store: Pick<Store, 'id' | 'business_id'>,
  values: { name: string; receipt_prefix: string }) {
  return unwrap(await supabase.from('registers')
    .insert({ business_id: store.business_id, store_id: store.id, ...values }).select('*').single());
}

export const fetchTeam = async (supabase: StorewiseClient, businessId: string) =>
  unwrap(await supabase.rpc('business_team', { _business_id: businessId }));

export async function fetchInvitations(supabase: StorewiseClient, businessId: string) {
  return unwrap(await supabase.from('invitations').select('*').eq('business_id', businessId)
    .is('accepted_at', null).is('revoked_at', null).order('created_at', { ascending: false }));
}

export interface AccessValues {
  role: 'manager' | 'cashier';
  allStores: boolean;
  storeIds: string[];
}

export async function inviteMember(supabase: StorewiseClient, businessId: string, email: string, access: AccessValues) {
  const rows = unwrap(await supabase.rpc('create_invitation', { _business_id: businessId, _email: email,
    _role: access.role, _all_stores: access.allStores, _store_ids: access.storeIds }));
  const row = rows[0];
  if (!row) throw new WorkspaceError('The invitation was not created.');
  return row;
}

export async function changeMember(supabase: StorewiseClient, businessId: string, userId: string, access: AccessValues) {
  check(await supabase.rpc('set_member_role', { _business_id: businessId, _user_id: userId, _role: access.role,
    _all_stores: access.allStores, _store_ids: access.storeIds }));
}

export async function removeMember(supabase: StorewiseClient, businessId: string, userId: string) {
  check(await supabase.rpc('remove_member', { _business_id: businessId, _user_id: userId }));
}

/** Till PINs (ADR 0300): one's own (set_my_pin), or a staff member's as an owner or manager (set_staff_pin, lifts a lockout). */
export async function setTillPin(supabase: StorewiseClient, businessId: string, userId: string, pin: string, mine: boolean) {
  check(mine ? await supabase.rpc('set_my_pin', { _business_id: businessId, _pin: pin })
    : await supabase.rpc('set_staff_pin', { _business_id: businessId, _user_id: userId, _pin: pin }));
}

export async function revokeInvitation(supabase: StorewiseClient, invitationId: string) {
  check(await supabase.rpc('revoke_invitation', { _invitation_id: invitationId }));
}

export const previewInvitation = async (supabase: StorewiseClient, token: string) =>
  unwrap(await supabase.rpc('invitation_preview', { _token: token }))[0] ?? null;

export const acceptInvitation = async (supabase: StorewiseClient, token: string) =>
  unwrap(await supabase.rpc('accept_invitation', { _token: token }));

/**
 * An invitee whose account the invitation created sets their own name and password (they could not sign in
 * again otherwise). The password and the auth user's name first (the header reads it), then the profile row
 * (the team list reads it); password_chosen stops the accept page asking again.
 */
export async function chooseCredentials(supabase: StorewiseClient, userId: string, fullName: string, password: string) {
  const auth = await supabase.auth.updateUser({ password, data: { full_name: fullName, password_chosen: true } });
  if (auth.error) throw new WorkspaceError(serviceMessage(auth.error), auth.error.code);
  unwrap(await supabase.from('profiles').update({ full_name: fullName }).eq('id', userId).select('id').single());
}

export interface ActivityFilters {
  actorId?: string;
  storeId?: string;
  kind?: string;
  /** yyyy-mm-dd, inclusive, in the browser's time zone. */
  from?: string;
  to?: string;
}

export const ACTIVITY_PAGE_SIZE = 25;

/**
 * One page of the trail, newest first. One row more than the page says whether a next page exists: an exact
 * count would visit every entry of a long trail through its policy on each page turn (see bench/workspace).
 */
export async function fetchActivity(supabase: StorewiseClient, businessId: string, filters: ActivityFilters,
  page: number, pageSize = ACTIVITY_PAGE_SIZE) {
  let query = supabase.from('activity').select('*').eq('business_id', businessId);
  if (filters.actorId) query = query.eq('actor_id', filters.actorId);
  if (filters.storeId) query = query.eq('store_id', filters.storeId);
  if (filters.kind) query = query.like('kind', `${filters.kind}.%`);
  if (filters.from) query = query.gte('at', new Date(`${filters.from}T00:00:00`).toISOString());
  if (filters.to) query = query.lt('at', new Date(new Date(`${filters.to}T00:00:00`).getTime() + 86_400_000).toISOString());
  const result = await query.order('at', { ascending: false }).order('id', { ascending: false })
    .range(page * pageSize, page * pageSize + pageSize);
  const rows = unwrap(result);
  return { rows: rows.slice(0, pageSize), hasMore: rows.length > pageSize };
}

/** Hands the business to another member; the database checks the typed name and writes the trail line. */
export async function transferOwnership(supabase: StorewiseClient, businessId: string, newOwner: string, typedName: string) {
  check(await supabase.rpc('transfer_ownership_confirmed', { _business_id: businessId, _new_owner: newOwner,
    _confirm_name: typedName }));
}

/** The owner's first-day steps (the Overview's setup guide, issue 25). */
export interface SetupProgress {
  business_type: string; dismissed: boolean;
  details: boolean; store: boolean; register: boolean; products: boolean; team: boolean; sale: boolean;
}

export async function fetchSetupProgress(supabase: StorewiseClient, businessId: string): Promise<SetupProgress> {
  return unwrap(await supabase.rpc('setup_progress', { _business_id: businessId })) as unknown as SetupProgress;
}

export async function dismissSetup(supabase: StorewiseClient, businessId: string, dismissed = true): Promise<void> {
  const { error } = await supabase.rpc('dismiss_setup', { _business_id: businessId, _dismissed: dismissed });
  if (error) throw new WorkspaceError(error.message, error.code, error.hint);
}

/** Eight sample products of the business's type; how many were added. */
export async function addSampleCatalog(supabase: StorewiseClient, businessId: string): Promise<number> {
  return unwrap(await supabase.rpc('add_sample_catalog', { _business_id: businessId })) as number;
}
