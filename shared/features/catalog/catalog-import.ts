import { callWhileBusy as sharedCallWhileBusy, type CallAnswer } from '../../lib/call-while-busy';
import type { StorewiseClient } from '../../lib/supabase-client';
import { CatalogError } from './catalog-api';
import type { CsvRow } from './catalog-columns';

/**
 * A catalog file sent in parts (ADR 0180): import_catalog checks at most 500 rows and writes at most 25 per call,
 * so no call holds the database for long. The whole file is checked first (each part against the parts before it,
 * through the import id); only a file without errors is written, part after part, each part all or nothing.
 */
export const CHECK_PART_ROWS = 500;
export const WRITE_PART_ROWS = 25;

/** A problem with one row of the file (1-based, as the file's data rows are numbered). */
export interface RowError { row_index: number; message: string }

export interface ImportProgress { phase: 'checking' | 'importing'; done: number; total: number }

export interface ImportTarget {
  businessId: string;
  /** Opening stock goes to this store (none: rows with an opening quantity are refused). */
  storeId?: string;
  /** One id per file: the check's parts see each other through it. */
  importId: string;
  onProgress?: (progress: ImportProgress) => void;
  /** Waits before a call refused as too busy (429) is sent again; tests pass a fake. */
  pause?: (ms: number) => Promise<void>;
}

/**
 * Makes a call of the import (its check, write or preview) and answers its data; a 429 is sent again after a pause
 * (shared/lib/call-while-busy.ts), any other error is thrown as a CatalogError.
 */
export function callWhileBusy<T>(call: () => PromiseLike<CallAnswer<T>>, pause?: (ms: number) => Promise<void>): Promise<T | null> {
  return sharedCallWhileBusy(call, (error) => new CatalogError(error.message, error.code, error.hint), pause);
}

/** One part of the check or the write. */
async function callPart(supabase: StorewiseClient, target: ImportTarget, rows: CsvRow[], firstRow: number, dryRun: boolean): Promise<RowError[]> {
  const errors = await callWhileBusy(() => supabase.rpc('import_catalog', {
    _business_id: target.businessId, _rows: rows, _dry_run: dryRun, _import_id: target.importId, _first_row: firstRow,
    ...(target.storeId ? { _store_id: target.storeId } : {}),
  }), target.pause);
  return errors ?? [];
}

/**
 * Checks every part of the file from row `from` (0-based: after a stopped import, the rows not yet written), in
 * order; returns every row's error with the file's row numbers.
 */
export async function checkCatalogFile(supabase: StorewiseClient, target: ImportTarget, rows: CsvRow[], from = 0): Promise<RowError[]> {
  const errors: RowError[] = [];
  for (let start = from; start < rows.length; start += CHECK_PART_ROWS) {
    target.onProgress?.({ phase: 'checking', done: start, total: rows.length });
    errors.push(...await callPart(supabase, target, rows.slice(start, start + CHECK_PART_ROWS), start + 1, true));
  }
  target.onProgress?.({ phase: 'checking', done: rows.length, total: rows.length });
  return errors;
}

export interface WriteResult {
  /** Rows written (from the start of the file), whatever happened after them. */
  written: number;
  /** The failing row of the part that stopped the import (nothing of that part was written). */
  errors: RowError[];
}

/**
 * Writes the file from row `from` (0-based: rows already written are skipped when an import is resumed), part
 * after part; stops at the first part that fails. Throws only when nothing could be said about the part (network).
 */
export async function writeCatalogFile(supabase: StorewiseClient, target: ImportTarget, rows: CsvRow[], from = 0): Promise<WriteResult> {
  for (let start = from; start < rows.length; start += WRITE_PART_ROWS) {
    target.onProgress?.({ phase: 'importing', done: start, total: rows.length });
    let errors: RowError[];
    try {
      errors = await callPart(supabase, target, rows.slice(start, start + WRITE_PART_ROWS), start + 1, false);
    } catch (error) {
      throw Object.assign(error instanceof Error ? error : new Error(String(error)), { written: start });
    }
    if (errors.length > 0) return { written: start, errors };
  }
  target.onProgress?.({ phase: 'importing', done: rows.length, total: rows.length });
  return { written: rows.length, errors: [] };
}

/** How many rows an error thrown by writeCatalogFile says were written before it. */
export function writtenBefore(error: unknown, fallback: number): number {
  const written = (error as { written?: unknown } | null)?.written;
  return typeof written === 'number' ? written : fallback;
}
