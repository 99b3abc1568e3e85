import { z } from 'zod';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { CsvRow } from './catalog-columns';
import { callWhileBusy, CHECK_PART_ROWS, type ImportTarget } from './catalog-import';

/**
 * What a catalog file would do, from public.preview_catalog_import (part after part, as the check): each row a new
 * item, an update (old -> new per field) or unchanged, and the plan's room for new items.
 */
const change = z.object({ old: z.union([z.string(), z.number(), z.null()]), new: z.union([z.string(), z.number()]) });
const previewAnswer = z.object({
  plan: z.string(),
  room: z.number().int().nullable(),
  rows: z.array(z.object({
    row_index: z.number().int(),
    action: z.enum(['new', 'update', 'same']),
    changes: z.record(z.string(), change),
  })),
});

export type PreviewRow = z.infer<typeof previewAnswer>['rows'][number];
export type FieldChange = z.infer<typeof change>;

export interface ImportPreview {
  plan: string;
  /** How many more items the plan allows (null: no limit). */
  room: number | null;
  rows: PreviewRow[];
}

/** The preview of rows `from` onwards, in parts of 500 (a 429 is sent again after a pause, as the check does). */
export async function previewCatalogFile(supabase: StorewiseClient, target: ImportTarget, rows: CsvRow[], from = 0): Promise<ImportPreview> {
  const result: ImportPreview = { plan: '', room: null, rows: [] };
  for (let start = from; start < rows.length; start += CHECK_PART_ROWS) {
    const part = previewAnswer.parse(await callWhileBusy(() => supabase.rpc('preview_catalog_import', {
      _business_id: target.businessId, _rows: rows.slice(start, start + CHECK_PART_ROWS), _first_row: start + 1,
    }), target.pause));
    // The room is the plan's as the first part saw it: later parts write nothing, so it is the same.
    if (start === from) Object.assign(result, { plan: part.plan, room: part.room });
    result.rows.push(...part.rows);
  }
  return result;
}

export interface PreviewSummary {
  added: number;
  updated: number;
  unchanged: number;
  /** Set when the file adds more items than the plan allows: the sentence to show, once. */
  overLimit: string | null;
}

/** The counts a person reads before importing, and the plan's one message when the new items do not fit. */
export function summarizePreview(preview: ImportPreview): PreviewSummary {
  const count = (action: PreviewRow['action']) => preview.rows.filter((r) => r.action === action).length;
  const added = count('new');
  const over = preview.room !== null && added > preview.room;
  return {
    added, updated: count('update'), unchanged: count('same'),
    overLimit: over
      ? `Your ${preview.plan} plan allows ${preview.room} more item${preview.room === 1 ? '' : 's'}; this file adds ${added}.`
      : null,
  };
}

/**
 * The rows that fit the plan: every update and unchanged row, and new items in file order until the room is used.
 * Returns the kept rows' positions in the file (0-based), so messages keep the file's row numbers.
 */
export function rowsThatFit(preview: ImportPreview): number[] {
  let room = preview.room ?? Number.POSITIVE_INFINITY;
  const kept: number[] = [];
  for (const row of preview.rows) {
    if (row.action === 'new') {
      if (room <= 0) continue;
      room -= 1;
    }
    kept.push(row.row_index - 1);
  }
  return kept;
}
