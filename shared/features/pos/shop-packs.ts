// SQL (supabase/schemas, docs/adr/0250): workspace.sql businesses.packs; catalog.sql scale_barcode_rules;
// inventory.sql serial_numbers, products.serial_tracking, lots, stock_balances; products.prescription_only (ADR 0390)
import { useEffect, useState } from 'react';
import type { StorewiseClient } from '../../lib/supabase-client';
import { getMeta, setMeta, type PosDatabase } from './outbox';
import type { ScaleRule } from '../../lib/scale-barcode';
import type { SerialTracking } from './serial-number';

/**
 * What the register needs of the business's packs (issue 29), kept on the device beside the catalog so scale
 * labels and serials work offline: the packs switched on, the scale-label rules, which items are sold by serial,
 * and the serials in stock at this store (a scanned IMEI finds its item).
 */
export interface ShopPacks {
  packs: string[];
  scaleRules: ScaleRule[];
  /** variant id -> how its units are tracked. */
  serialItems: Record<string, SerialTracking>;
  /** serial in stock at this store -> variant id. */
  serials: Record<string, string>;
  /** `${variant id}|${lot number}` -> lot id, for the lots this store holds (a DataMatrix scan names its lot). */
  lots?: Record<string, string>;
  /** Variants of prescription-only products (ADR 0390): a line of one asks for its prescription. */
  prescriptionItems?: Record<string, true>;
}

export const noPacks: ShopPacks = { packs: [], scaleRules: [], serialItems: {}, serials: {}, lots: {}, prescriptionItems: {} };

/** The key of a lot in ShopPacks.lots. */
export const lotKey = (variantId: string, lotNumber: string) => `${variantId}|${lotNumber}`;

/** At most this many in-stock serials are kept on the device (a shop's shelf, not a warehouse). */
const SERIALS_KEPT = 5000;

interface Result<T> { data: T | null; error: { message: string } | null }
function unwrap<T>(result: Result<T>): T {
  if (result.error) throw new Error(result.error.message);
  return result.data as T;
}

export async function fetchShopPacks(supabase: StorewiseClient, businessId: string, storeId: string): Promise<ShopPacks> {
  const [business, rules, products, serials, lots, prescribed] = await Promise.all([
    supabase.from('businesses').select('packs').eq('id', businessId).maybeSingle(),
    supabase.from('scale_barcode_rules').select('pattern, kind').eq('business_id', businessId),
    supabase.from('products').select('serial_tracking, variants(id)').eq('business_id', businessId)
      .not('serial_tracking', 'is', null).is('archived_at', null),
    supabase.from('serial_numbers').select('serial, variant_id').eq('store_id', storeId).eq('status', 'in_stock')
      .order('received_at', { ascending: false }).limit(SERIALS_KEPT),
    supabase.from('stock_balances').select('variant_id, lot_id, lots(lot_number)').eq('store_id', storeId)
      .not('lot_id', 'is', null).gt('qty', 0).limit(SERIALS_KEPT),
    supabase.from('products').select('variants(id)').eq('business_id', businessId).eq('prescription_only', true)
      .is('archived_at', null),
  ]);
  const serialItems: Record<string, SerialTracking> = {};
  for (const p of unwrap(products) as { serial_tracking: SerialTracking; variants: { id: string }[] }[]) {
    for (const v of p.variants) serialItems[v.id] = p.serial_tracking;
  }
  return {
    packs: (unwrap(business) as { packs: string[] } | null)?.packs ?? [],
    scaleRules: unwrap(rules) as ScaleRule[],
    serialItems,
    serials: Object.fromEntries((unwrap(serials) as { serial: string; variant_id: string }[]).map((s) => [s.serial, s.variant_id])),
    lots: Object.fromEntries((unwrap(lots) as unknown as { variant_id: string; lot_id: string; lots: { lot_number: string } | null }[])
      .filter((l) => l.lots).map((l) => [lotKey(l.variant_id, l.lots?.lot_number ?? ''), l.lot_id])),
    prescriptionItems: Object.fromEntries((unwrap(prescribed) as { variants: { id: string }[] }[])
      .flatMap((p) => p.variants.map((v) => [v.id, true as const]))),
  };
}

/** The packs' data for a store: the device's copy at once, then the server's when it answers (kept for offline). */
export function useShopPacks(supabase: StorewiseClient, db: PosDatabase | null, businessId: string | undefined,
  storeId: string | undefined): ShopPacks {
  const [packs, setPacks] = useState<ShopPacks>(noPacks);
  useEffect(() => {
    if (!db || !businessId || !storeId) return;
    let live = true;
    const key = `packs:${storeId}`;
    void getMeta<ShopPacks>(db, key).then((kept) => { if (live && kept) setPacks(kept); });
    fetchShopPacks(supabase, businessId, storeId).then((fresh) => {
      if (!live) return;
      setPacks(fresh);
      void setMeta(db, key, fresh);
    }, () => undefined);
    return () => { live = false; };
  }, [supabase, db, businessId, storeId]);
  return packs;
}
