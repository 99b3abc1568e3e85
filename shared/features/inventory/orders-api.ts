// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/catalog.sql: search_catalog() barcodes products variants
//   supabase/schemas/inventory.sql: create_purchase_order() edit_purchase_order_draft() email_purchase_order()
//     receive_purchase_order() receive_serials() purchase_order_lines purchase_orders suppliers
import type { Database } from '../../lib/database.types';
import type { StorewiseClient } from '../../lib/supabase-client';
import { unwrap } from './inventory-api';
import {
  parseMoney, parseQty, serialList, type DraftLinesValues, type PurchaseOrderValues, type ReceiveValues, type SupplierValues,
} from './inventory-schemas';

type Tables = Database['public']['Tables'];
export type Supplier = Tables['suppliers']['Row'];
export type PurchaseOrder = Tables['purchase_orders']['Row'];
export type PurchaseOrderLine = Tables['purchase_order_lines']['Row'];
export type CatalogHit = Database['public']['Functions']['search_catalog']['Returns'][number];

/** What a line shows of its item: name with options, SKU, unit and the lot rules. */
export interface VariantLabel {
  id: string;
  label: string;
  sku: string;
  unit: string;
  hasLots: boolean;
  requiresExpiry: boolean;
  /** serial or imei when each unit is named (received with its serial), else null. */
  serialTracking: 'serial' | 'imei' | null;
  /** Its barcodes (a DataMatrix's GTIN finds the line when receiving). */
  barcodes: string[];
}

/** Items by name, SKU prefix or barcode (the catalog's search), for the pickers that add lines. */
export async function searchItems(supabase: StorewiseClient, businessId: string, query: string): Promise<CatalogHit[]> {
  return unwrap(await supabase.rpc('search_catalog', { _business_id: businessId, _query: query, _limit: 10 })) ?? [];
}

export const hitLabel = (hit: { product_name: string; option1: string | null; option2: string | null; option3: string | null }) =>
  [hit.product_name, hit.option1, hit.option2, hit.option3].filter(Boolean).join(' / ');

/** Labels of the variants named by lines (variants, then their products and barcodes). */
export async function fetchVariantLabels(supabase: StorewiseClient, ids: string[]): Promise<Map<string, VariantLabel>> {
  const unique = [...new Set(ids)];
  const map = new Map<string, VariantLabel>();
  if (unique.length === 0) return map;
  const variants = unwrap(await supabase.from('variants').select('id, sku, option1, option2, option3, product_id').in('id', unique)) ?? [];
  const productIds = [...new Set(variants.map((v) => v.product_id))];
  const [products, barcodes] = await Promise.all([
    supabase.from('products').select('id, name, unit, has_lots, requires_expiry, serial_tracking').in('id', productIds),
    supabase.from('barcodes').select('variant_id, code').in('variant_id', unique),
  ]);
  const byId = new Map((unwrap(products) ?? []).map((p) => [p.id, p]));
  const codes = new Map<string, string[]>();
  for (const b of unwrap(barcodes) ?? []) codes.set(b.variant_id, [...(codes.get(b.variant_id) ?? []), b.code]);
  for (const v of variants) {
    const p = byId.get(v.product_id);
    map.set(v.id, {
      id: v.id, sku: v.sku, unit: p?.unit ?? 'each', hasLots: Boolean(p?.has_lots), requiresExpiry: Boolean(p?.requires_expiry),
      serialTracking: (p?.serial_tracking ?? null) as VariantLabel['serialTracking'], barcodes: codes.get(v.id) ?? [],
      label: hitLabel({ product_name: p?.name ?? v.sku, option1: v.option1, option2: v.option2, option3: v.option3 }),
    });
  }
  return map;
}

// Suppliers -------------------------------------------------------------------------------------------

export async function fetchSuppliers(supabase: StorewiseClient, businessId: string): Promise<Supplier[]> {
  return unwrap(await supabase.from('suppliers').select('*').eq('business_id', businessId).is('archived_at', null).order('name')) ?? [];
}

const supplierRow = (v: SupplierValues) => ({
  name: v.name, contact_name: v.contactName || null, email: v.email || null, phone: v.phone || null, notes: v.notes || null,
});

export async function saveSupplier(supabase: StorewiseClient, businessId: string, values: SupplierValues, id?: string) {
  if (id) unwrap(await supabase.from('suppliers').update(supplierRow(values)).eq('id', id));
  else unwrap(await supabase.from('suppliers').insert({ business_id: businessId, ...supplierRow(values) }));
}

export async function archiveSupplier(supabase: StorewiseClient, id: string) {
  unwrap(await supabase.from('suppliers').update({ archived_at: new Date().toISOString() }).eq('id', id));
}

// Purchase orders -------------------------------------------------------------------------------------

export async function fetchPurchaseOrders(supabase: StorewiseClient, storeId: string): Promise<PurchaseOrder[]> {
  return unwrap(await supabase.from('purchase_orders').select('*').eq('store_id', storeId)
    .order('created_at', { ascending: false }).limit(100)) ?? [];
}

export async function fetchPurchaseOrder(supabase: StorewiseClient, id: string) {
  const order = unwrap<PurchaseOrder | null>(await supabase.from('purchase_orders').select('*').eq('id', id).maybeSingle());
  if (!order) return null;
  const lines = unwrap(await supabase.from('purchase_order_lines').select('*').eq('purchase_order_id', id)) ?? [];
  const supplier = unwrap<Supplier | null>(await supabase.from('suppliers').select('*').eq('id', order.supplier_id).maybeSingle());
  const labels = await fetchVariantLabels(supabase, lines.map((l) => l.variant_id));
  lines.sort((a, b) => (labels.get(a.variant_id)?.label ?? '').localeCompare(labels.get(b.variant_id)?.label ?? ''));
  return { order, lines, supplier, labels };
}

/** The short number printed on the order and in the supplier's email (as email_purchase_order writes it). */
export const orderNumber = (id: string) => id.replace(/-/g, '').slice(0, 8).toUpperCase();

/** Lines as the order functions take them: a blank cost means "the line's or the average cost". */
const orderLines = (lines: PurchaseOrderValues['lines']) => lines.map((l) => ({
  variant_id: l.variantId, qty: parseQty(l.qty, l.unit),
  ...(l.unitCost.trim() ? { unit_cost: parseMoney(l.unitCost) } : {}),
}));

export async function createPurchaseOrder(supabase: StorewiseClient, storeId: string, values: PurchaseOrderValues): Promise<string> {
  return unwrap(await supabase.rpc('create_purchase_order', {
    _store_id: storeId, _supplier_id: values.supplierId,
    _lines: orderLines(values.lines),
    ...(values.notes ? { _notes: values.notes } : {}),
    ...(values.expectedOn ? { _expected_on: values.expectedOn } : {}),
  }));
}

/** Replaces a draft's lines (quantities, costs, removed and added items) in one audited call; returns the line count. */
export async function saveDraftLines(supabase: StorewiseClient, id: string, values: DraftLinesValues): Promise<number> {
  return unwrap(await supabase.rpc('edit_purchase_order_draft', { _purchase_order_id: id, _lines: orderLines(values.lines) }));
}

export async function setOrderStatus(supabase: StorewiseClient, id: string, status: 'ordered' | 'closed') {
  unwrap(await supabase.from('purchase_orders').update({ status }).eq('id', id));
}

export async function deleteDraft(supabase: StorewiseClient, id: string) {
  unwrap(await supabase.from('purchase_orders').delete().eq('id', id));
}

/**
 * Receives what arrived, then names the units of serial-tracked lines (receive_serials, all or nothing per item).
 * The serials were checked in the form; if the database still refuses them (one already known), the goods stay
 * received and the refusal says which serials to record again.
 */
export async function receiveOrder(supabase: StorewiseClient, id: string, storeId: string, values: ReceiveValues): Promise<string> {
  const arrived = values.lines.filter((l) => (parseQty(l.qty, l.unit) ?? 0) > 0);
  const lines = arrived.map((l) => ({
    line_id: l.lineId, qty: parseQty(l.qty, l.unit),
    ...(l.hasLots ? { lot_number: l.lotNumber } : {}),
    ...(l.expiresOn ? { expires_on: l.expiresOn } : {}),
  }));
  const status = unwrap(await supabase.rpc('receive_purchase_order', { _purchase_order_id: id, _lines: lines })) as string;
  for (const l of arrived.filter((x) => x.serialTracking)) {
    const { error } = await supabase.rpc('receive_serials', { _store_id: storeId, _variant_id: l.variantId, _serials: serialList(l.serials),
      _purchase_order_id: id });
    if (error) throw new Error(`The goods were received, but the serials of ${l.label} were not recorded: ${error.message}`);
  }
  return status;
}

export async function emailOrder(supabase: StorewiseClient, id: string): Promise<string> {
  return unwrap(await supabase.rpc('email_purchase_order', { _purchase_order_id: id }));
}

export const STATUS_LABEL: Record<string, string> = {
  draft: 'Draft', ordered: 'Ordered', partly_received: 'Partly received', received: 'Received', closed: 'Closed',
};
