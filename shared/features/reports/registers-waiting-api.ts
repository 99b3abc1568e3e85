// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/pos.sql: register_sync_states
//   supabase/schemas/workspace.sql: registers stores
import { z } from 'zod';
import type { StorewiseClient } from '../../lib/supabase-client';

const stateRow = z.object({
  register_id: z.string(),
  store_id: z.string(),
  waiting: z.coerce.number(),
  oldest_waiting_at: z.string().nullable(),
  reported_at: z.string(),
});
const named = z.array(z.object({ id: z.string(), name: z.string() }));

export type RegisterSyncState = z.infer<typeof stateRow> & { register_name: string; store_name: string };

/** The latest outbox report of each register of the business the caller may see (owners and managers; RLS). */
export async function fetchRegisterSyncStates(supabase: StorewiseClient, businessId: string): Promise<RegisterSyncState[]> {
  const states = await supabase.from('register_sync_states').select('register_id, store_id, waiting, oldest_waiting_at, reported_at')
    .eq('business_id', businessId).order('reported_at', { ascending: false }).limit(200);
  if (states.error) throw new Error(states.error.message);
  const rows = z.array(stateRow).parse(states.data ?? []);
  if (rows.length === 0) return [];
  const [registers, stores] = await Promise.all([
    supabase.from('registers').select('id, name').in('id', rows.map((row) => row.register_id)),
    supabase.from('stores').select('id, name').in('id', [...new Set(rows.map((row) => row.store_id))]),
  ]);
  if (registers.error) throw new Error(registers.error.message);
  if (stores.error) throw new Error(stores.error.message);
  const registerNames = new Map(named.parse(registers.data ?? []).map((r) => [r.id, r.name]));
  const storeNames = new Map(named.parse(stores.data ?? []).map((s) => [s.id, s.name]));
  return rows.map((row) => ({ ...row, register_name: registerNames.get(row.register_id) ?? 'A register', store_name: storeNames.get(row.store_id) ?? 'A store' }));
}
