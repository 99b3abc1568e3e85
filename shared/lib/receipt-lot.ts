import { z } from 'zod';

/**
 * A lot a sale line took, as a receipt prints it (ADR 0403): the register's receipt once the sale has posted, and
 * a reprint (sale_receipt). Shared by the register and the receipt page.
 */
export const receiptLotSchema = z.object({ lot_number: z.string(), expires_on: z.string().nullable(), qty: z.coerce.number() });
export type ReceiptLot = z.infer<typeof receiptLotSchema>;

/** "Lot A12 exp. 2026-12-10 x 3". */
export function formatReceiptLot(lot: ReceiptLot): string {
  return `Lot ${lot.lot_number}${lot.expires_on ? ` exp. ${lot.expires_on}` : ''} x ${lot.qty}`;
}
