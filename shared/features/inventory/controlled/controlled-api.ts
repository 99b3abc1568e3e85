// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/catalog.sql: products
//   supabase/schemas/inventory.sql: controlled_register() destroy_controlled_stock()
//   supabase/schemas/pos.sql: till_staff()
import Papa from 'papaparse';
import { z } from 'zod';
import type { Database } from '../../../lib/database.types';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { unwrap } from '../inventory-api';

export type RegisterRow = Database['public']['Functions']['controlled_register']['Returns'][number];
export interface ControlledItem { variantId: string; label: string; hasLots: boolean }

/** The business's controlled items (one entry per variant), by name. */
export async function fetchControlledItems(supabase: StorewiseClient, businessId: string): Promise<ControlledItem[]> {
  const rows = unwrap(await supabase.from('products').select('name, has_lots, variants(id, sku, option1, option2, option3)')
    .eq('business_id', businessId).eq('controlled', true).is('archived_at', null).order('name')) ?? [];
  return rows.flatMap((p) => p.variants.map((v) => ({
    variantId: v.id, hasLots: p.has_lots,
    label: [p.name, [v.option1, v.option2, v.option3].filter(Boolean).join(' / '), v.sku ? `(${v.sku})` : ''].filter(Boolean).join(' '),
  })));
}

/** The item's register at the store, newest first with the running balance (at most 5000 rows). */
export async function fetchControlledRegister(supabase: StorewiseClient, storeId: string, variantId: string): Promise<RegisterRow[]> {
  return unwrap(await supabase.rpc('controlled_register', { _store_id: storeId, _variant_id: variantId, _limit: 5000 })) ?? [];
}

/** The register as CSV, oldest first as a paper register reads (papaparse, formula cells escaped). */
export function controlledRegisterCsv(rows: RegisterRow[]): string {
  return Papa.unparse({
    fields: ['date', 'kind', 'quantity', 'balance', 'lot', 'by', 'witness', 'prescription_number', 'receipt', 'note'],
    data: [...rows].reverse().map((r) => [r.occurred_at, r.kind, Number(r.qty), Number(r.balance), r.lot_number ?? '',
      r.actor_name ?? '', r.witness_name ?? '', r.prescription_number ?? '', r.receipt_number ?? '', r.note ?? '']),
  }, { escapeFormulae: true, newline: '\r\n' });
}

/** Staff of the store with a till PIN: who may witness a destruction. */
export async function fetchWitnesses(supabase: StorewiseClient, storeId: string) {
  return (unwrap(await supabase.rpc('till_staff', { _store_id: storeId })) ?? []).filter((p) => !p.locked);
}

export const destructionSchema = z.object({
  qty: z.coerce.number({ message: 'Enter the quantity destroyed.' }).positive('Enter the quantity destroyed (above zero).'),
  witnessId: z.string().min(1, 'Choose the witness.'),
  pin: z.string().regex(/^[0-9]{4,6}$/, 'The witness types their 4 to 6 digit PIN.'),
  note: z.string().trim().max(500, 'Keep the note under 500 characters.'),
});
export type DestructionValues = z.infer<typeof destructionSchema>;

const answerSchema = z.object({ ok: z.boolean(), reason: z.string().optional(), attempts_left: z.number().optional() });

/** Destroys stock before the witness; the database refuses oneself as witness and checks the witness's PIN. */
export async function destroyControlled(supabase: StorewiseClient, storeId: string, variantId: string, v: DestructionValues,
  lotId: string | null): Promise<string | null> {
  const answer = answerSchema.parse(unwrap(await supabase.rpc('destroy_controlled_stock', {
    _store_id: storeId, _variant_id: variantId, _qty: v.qty, _witness_id: v.witnessId, _witness_pin: v.pin,
    ...(lotId ? { _lot_id: lotId } : {}), ...(v.note ? { _note: v.note } : {}) })));
  if (answer.ok) return null;
  return answer.reason === 'locked' ? 'The witness\u2019s PIN is locked for a while after too many wrong tries.'
    : answer.reason === 'no_pin' ? 'The witness has no till PIN yet: they set one in their profile.'
      : `Wrong PIN for the witness${answer.attempts_left !== undefined ? ` (${answer.attempts_left} tries left)` : ''}.`;
}
