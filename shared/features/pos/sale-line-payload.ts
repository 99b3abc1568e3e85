import type { CartLine } from './cart';
import { prescriptionPayload } from './prescriptions/prescription';

/**
 * A cart line as post_sale reads it: the item, quantity, the price the register showed and its discount, with the
 * serial, scale label, known lot and prescription the line carries. The outbox keeps this payload as it is, so a sale
 * made offline reaches the server with everything the register recorded.
 */
export function saleLinePayload(l: CartLine) {
  return {
    variant_id: l.item.variantId, qty: l.qty, unit_price: l.item.price, discount: l.discount,
    ...(l.serial ? { serial: l.serial } : {}), ...(l.scaleLabel ? { scale_label: l.scaleLabel } : {}),
    ...(l.lot?.id ? { lot_id: l.lot.id } : {}), ...(l.prescription ? { prescription: prescriptionPayload(l.prescription) } : {}),
  };
}
