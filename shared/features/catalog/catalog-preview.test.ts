import { describe, expect, it } from 'vitest';
import { rowsThatFit, summarizePreview, type ImportPreview, type PreviewRow } from './catalog-preview';

const row = (row_index: number, action: PreviewRow['action']): PreviewRow => ({ row_index, action, changes: {} });

describe('import preview', () => {
  const preview: ImportPreview = {
    plan: 'Starter', room: 2,
    rows: [row(1, 'new'), row(2, 'update'), row(3, 'new'), row(4, 'same'), row(5, 'new'), row(6, 'update'), row(7, 'new')],
  };

  it('counts new, updated and unchanged rows, and says the plan\'s limit once', () => {
    expect(summarizePreview(preview)).toEqual({ added: 4, updated: 2, unchanged: 1, overLimit: 'Your Starter plan allows 2 more items; this file adds 4.' });
    expect(summarizePreview({ ...preview, room: 1, rows: [row(1, 'new'), row(2, 'new')] }).overLimit).toBe('Your Starter plan allows 1 more item; this file adds 2.');
    expect(summarizePreview({ ...preview, room: 4 }).overLimit).toBeNull();
    expect(summarizePreview({ ...preview, room: null }).overLimit).toBeNull();
  });

  it('keeps every update and the first new items the plan has room for, in file order', () => {
    expect(rowsThatFit(preview)).toEqual([0, 1, 2, 3, 5]);
    expect(rowsThatFit({ ...preview, room: 0 })).toEqual([1, 3, 5]);
    expect(rowsThatFit({ ...preview, room: null })).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
