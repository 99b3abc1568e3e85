// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/pos.sql: sale_receipt()
import { z } from 'zod';
import { receiptLotSchema, type ReceiptLot } from '../../lib/receipt-lot';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { ReceiptData } from './receipt';
import { lotKey, type ShopPacks } from './shop-packs';

/**
 * The lots the server picked for a sale's lines (FEFO, ADR 0360), printed on the receipt once the sale has posted
 * (ADR 0403). The register queues a sale and shows its receipt at once; lots are known only from the server, so a
 * receipt made offline names none (a lot the register named from a DataMatrix is on the line already).
 */
const answerSchema = z.object({ lines: z.array(z.object({ lots: z.array(receiptLotSchema).default([]) })) });

/** Whether the server will pick lots for one of these lines: a lot-tracked item held here, with no lot named. */
export function awaitsLots(packs: ShopPacks, lines: { variantId: string; lotNamed: boolean }[]): boolean {
  const held = Object.keys(packs.lots ?? {});
  return lines.some((l) => !l.lotNamed && held.some((key) => key.startsWith(lotKey(l.variantId, ''))));
}

/** Each line's lots from sale_receipt, in line order; null while the sale has not reached the server. */
export async function fetchReceiptLots(supabase: StorewiseClient, saleId: string): Promise<ReceiptLot[][] | null> {
  const { data, error } = await supabase.rpc('sale_receipt', { _sale_id: saleId });
  if (error || !data) return null;
  return answerSchema.parse(data).lines.map((l) => l.lots);
}

/** The receipt with the server's lots on the lines that had none named; it no longer waits for them. */
export function withLots(receipt: ReceiptData, lots: ReceiptLot[][]): ReceiptData {
  return {
    ...receipt, awaitLots: false,
    lines: receipt.lines.map((line, i) => (line.lotNamed || !lots[i]?.length ? line : { ...line, lots: lots[i] })),
  };
}
