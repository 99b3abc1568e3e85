import { z } from 'zod';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { CatalogItem } from './cart';
import { columnBlock, itemAt, type ColumnBlock } from './catalog-columns';

/**
 * The packed catalog's wire format (ADR 0445; migration 20261209300000_pos_catalog_packed_blocks.sql): the business's
 * catalog cut by the ids' first `bits` bits into blocks of about 8,192 variants, each block one json value of column
 * arrays, so a block is one answer of the Data API however many variants it holds (hosted Supabase caps rows at
 * 1,000, not bytes). Store prices and the store's default tax come apart (they are per store, the blocks per business).
 *
 * The envelopes are checked with zod; the columns only for being arrays of one length: a zod pass over 8,192 values
 * in 7 columns for each of 128 blocks would cost more than the JSON parse itself.
 */
const column = z.custom<unknown[]>((value) => Array.isArray(value), 'an array');

const listSchema = z.object({
  bits: z.number().int().min(0).max(12),
  default_tax_rate: z.coerce.number(),
  blocks: z.array(z.tuple([z.number().int().min(0), z.number(), z.number(), z.number().int().min(0)])),
});

const bodySchema = z.object({ ids: column, names: column, skus: column, codes: column, tax: column, kg: column, lots: column });

const blockSchema = z.object({
  bits: z.number().int().nullable(),
  n: z.number().int().optional(),
  body_rev: z.number().optional(),
  price_rev: z.number().optional(),
  body: bodySchema.nullable().optional(),
  prices: column.nullable().optional(),
});

const storePricesSchema = z.object({ ids: z.array(z.string()), prices: z.array(z.coerce.number()) });

export interface BlockRev { n: number; bodyRev: number; priceRev: number; items: number }
export interface BlockList { bits: number; defaultTaxRate: number; blocks: BlockRev[] }

/** A block as the register stores it (one IndexedDB record): its columns (catalog-columns.ts) and the store it is for. */
export interface StoredBlock extends ColumnBlock { storeId: string }

/** A block's answer: the whole block, or its prices alone (`body` null) when only prices moved. */
export type BlockAnswer =
  | { kind: 'block'; block: Omit<StoredBlock, 'storeId'> }
  | { kind: 'prices'; n: number; priceRev: number; prices: Float64Array }
  /** The business's catalog was cut anew since the list: the register loads again. */
  | { kind: 'recut' };

export interface StorePrices { ids: string[]; prices: number[] }

export interface BlockSource {
  list(): Promise<BlockList>;
  block(n: number, bits: number, body: boolean): Promise<BlockAnswer>;
  /** The prices alone of several blocks in one call (at most PRICE_BLOCKS_PER_CALL); none after a new cut. */
  prices(ns: number[], bits: number): Promise<Extract<BlockAnswer, { kind: 'prices' }>[]>;
  storePrices(): Promise<StorePrices>;
}

export const PRICE_BLOCKS_PER_CALL = 256;

const pricesSchema = z.array(z.object({ n: z.number().int(), price_rev: z.number(), prices: column }));

const strings = (values: unknown[]): string[] => values.map((v) => (typeof v === 'string' ? v : String(v ?? '')));
/**
 * A price column as doubles. A loop, not Float64Array.from with a mapping function: after a bulk price change at
 * 1,000,000 variants that took 70 ms of the register's main thread, most of it calling the function.
 */
function numbers(values: unknown[], none = 0): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i];
    out[i] = typeof v === 'number' ? v : v === null || v === undefined ? none : Number(v);
  }
  return out;
}

export function parseList(data: unknown): BlockList {
  const list = listSchema.parse(data);
  return { bits: list.bits, defaultTaxRate: list.default_tax_rate,
    blocks: list.blocks.map(([n, bodyRev, priceRev, items]) => ({ n, bodyRev, priceRev, items })) };
}

/** One block's answer, checked: every column as long as the ids, the prices too. */
export function parseBlock(data: unknown, bits: number): BlockAnswer {
  const answer = blockSchema.parse(data);
  if (answer.bits !== bits || answer.n === undefined) return { kind: 'recut' };
  const prices = numbers(answer.prices ?? []);
  const priceRev = answer.price_rev ?? 0;
  if (!answer.body) return { kind: 'prices', n: answer.n, priceRev, prices };
  const { ids, names, skus, codes, tax, kg } = answer.body;
  const size = ids.length;
  if ([names, skus, codes, tax, kg].some((c) => c.length !== size) || prices.length !== size) {
    throw new Error(`catalog block ${answer.n}: columns of different lengths`);
  }
  const block = columnBlock({ n: answer.n, bodyRev: answer.body_rev ?? 0, priceRev }, { ids: strings(ids), names: strings(names),
    skus: strings(skus), codes: strings(codes), prices, tax: tax.map((v) => (v === null || v === undefined ? null : Number(v))),
    kg: kg.map(Boolean) });
  return { kind: 'block', block };
}

/** The packed catalog through the Data API (three RPCs; see the migration). */
export function blockSource(supabase: StorewiseClient, storeId: string): BlockSource {
  const answer = ({ data, error }: { data: unknown; error: { message: string } | null }) => {
    if (error) throw new Error(error.message);
    return data;
  };
  return {
    list: async () => parseList(answer(await supabase.rpc('pos_catalog_blocks', { _store_id: storeId }))),
    block: async (n, bits, body) =>
      parseBlock(answer(await supabase.rpc('pos_catalog_block', { _store_id: storeId, _n: n, _bits: bits, _body: body })), bits),
    prices: async (ns, bits) => pricesSchema.parse(answer(await supabase.rpc('pos_catalog_block_prices', { _store_id: storeId, _bits: bits, _ns: ns })))
      .map((p) => ({ kind: 'prices' as const, n: p.n, priceRev: p.price_rev, prices: numbers(p.prices) })),
    storePrices: async () => storePricesSchema.parse(answer(await supabase.rpc('pos_catalog_store_prices', { _store_id: storeId }))),
  };
}

/** The store's view of a block: its own prices where it has them, its default tax where the product has none. */
export function blockItems(block: ColumnBlock, storePrices: Map<string, number>, defaultTaxRate: number): CatalogItem[] {
  return Array.from({ length: block.count }, (_, i) => itemAt(block, i, storePrices, defaultTaxRate));
}

export const storePriceMap = (p: StorePrices): Map<string, number> => new Map(p.ids.map((id, i) => [id, p.prices[i] ?? 0]));

/** The block an id falls in at `bits` bits (private.pos_pack_block_of): its first 32 bits' top `bits`. */
export const blockOf = (id: string, bits: number): number => (bits === 0 ? 0 : Number.parseInt(id.slice(0, 8), 16) >>> (32 - bits));
