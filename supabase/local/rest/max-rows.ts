/**
 * PostgREST's db-max-rows: the most rows one read returns, whatever limit or Range asks for (hosted
 * Supabase sets it from [api] max_rows in supabase/config.toml, 1000 here). A larger table is paged.
 */
import type { RowRange } from './negotiate';

export const MAX_ROWS = 1000;

export function capRange(range: RowRange, maxRows = MAX_ROWS): RowRange {
  return { offset: range.offset, limit: Math.min(range.limit ?? maxRows, maxRows) };
}
