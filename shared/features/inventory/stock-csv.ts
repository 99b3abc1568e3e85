import Papa from 'papaparse';
import type { StorewiseClient } from '../../lib/supabase-client';
import { STOCK_CSV_FIELDS } from '../../../supabase/functions/_shared/export/csv-formats';
import { fetchStoreStock, type StockRow } from './inventory-api';

/**
 * A store's stock as CSV (papaparse; quantities only, no cost, so every role may export what it sees). Cells a
 * spreadsheet would run as a formula (= + - @ first) are escaped with an apostrophe; numbers stay numbers.
 */
export function stockCsv(rows: StockRow[]): string {
  return Papa.unparse({
    fields: [...STOCK_CSV_FIELDS],
    data: rows.map((r) => [r.sku, r.product_name, [r.option1, r.option2, r.option3].filter(Boolean).join(' / '), r.unit,
      Number(r.on_hand), r.reorder_point === null ? '' : Number(r.reorder_point), r.target_level === null ? '' : Number(r.target_level)]),
  }, { escapeFormulae: true, newline: '\r\n' });
}

/** Every page of the store's stock (the function returns at most 200 rows a call). */
export async function fetchAllStock(supabase: StorewiseClient, storeId: string): Promise<StockRow[]> {
  const all: StockRow[] = [];
  for (let page = 0; ; page += 1) {
    const { rows, total } = await fetchStoreStock(supabase, storeId, '', page, 200);
    all.push(...rows);
    if (rows.length < 200 || all.length >= total) return all;
  }
}
