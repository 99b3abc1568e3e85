// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/inventory.sql: count_sheet() post_count() receive_transfer() send_transfer() lots
//     transfer_lines transfers
import type { Database } from '../../lib/database.types';
import type { StorewiseClient } from '../../lib/supabase-client';
import { unwrap } from './inventory-api';
import { parseQty, type ReceiveTransferValues, type SendTransferValues } from './inventory-schemas';
import { fetchVariantLabels } from './orders-api';

type Tables = Database['public']['Tables'];
export type Transfer = Tables['transfers']['Row'];
export type TransferLine = Tables['transfer_lines']['Row'];
export type SheetRow = Database['public']['Functions']['count_sheet']['Returns'][number];

/** Transfers sent from or to the store, newest first, with their lines, item labels and lot numbers. */
export async function fetchTransfers(supabase: StorewiseClient, storeId: string) {
  const transfers = unwrap(await supabase.from('transfers').select('*')
    .or(`from_store_id.eq.${storeId},to_store_id.eq.${storeId}`).order('sent_at', { ascending: false }).limit(50)) ?? [];
  const ids = transfers.map((t) => t.id);
  const lines = ids.length ? unwrap(await supabase.from('transfer_lines').select('*').in('transfer_id', ids)) ?? [] : [];
  const labels = await fetchVariantLabels(supabase, lines.map((l) => l.variant_id));
  const lotIds = [...new Set(lines.map((l) => l.lot_id).filter((x): x is string => Boolean(x)))];
  const lots = lotIds.length ? unwrap(await supabase.from('lots').select('id, lot_number').in('id', lotIds)) ?? [] : [];
  return { transfers, lines, labels, lots: new Map(lots.map((l) => [l.id, l.lot_number])) };
}

/** What the store holds of these items now (per lot for lot-tracked ones): the count sheet, reused. */
export async function fetchSheet(supabase: StorewiseClient, storeId: string, variantIds?: string[]): Promise<SheetRow[]> {
  return unwrap(await supabase.rpc('count_sheet', { _store_id: storeId, ...(variantIds ? { _variant_ids: variantIds } : {}) })) ?? [];
}

export async function sendTransfer(supabase: StorewiseClient, fromStoreId: string, values: SendTransferValues): Promise<string> {
  return unwrap(await supabase.rpc('send_transfer', {
    _from_store_id: fromStoreId, _to_store_id: values.toStoreId,
    _lines: values.lines.filter((l) => (parseQty(l.qty, l.unit) ?? 0) > 0)
      .map((l) => ({ variant_id: l.variantId, qty: parseQty(l.qty, l.unit), ...(l.lotId ? { lot_id: l.lotId } : {}) })),
    ...(values.note ? { _note: values.note } : {}),
  }));
}

export async function receiveTransfer(supabase: StorewiseClient, transferId: string, values: ReceiveTransferValues) {
  unwrap(await supabase.rpc('receive_transfer', {
    _transfer_id: transferId,
    _lines: values.lines.map((l) => ({ line_id: l.lineId, received: parseQty(l.received, l.unit), damaged: parseQty(l.damaged || '0', l.unit) })),
  }));
}

export type CountResult = Database['public']['Functions']['post_count']['Returns'][number];

/** Posts counted quantities; the database writes counted minus on hand (under lock) as 'count' movements. */
// A type, not an interface: supabase-js's Json accepts only types with an implicit index signature.
export type CountPostLine = {
  variant_id: string;
  counted: number;
  /** A lot on record; or, for a lot found on the shelf, its number and expiry (post_count creates it). */
  lot_id?: string | null;
  lot_number?: string;
  expires_on?: string;
};

export async function postCount(supabase: StorewiseClient, storeId: string, lines: CountPostLine[]) {
  return (unwrap(await supabase.rpc('post_count', { _store_id: storeId, _lines: lines })) ?? []) as CountResult[];
}
