import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { activityCsv } from './activity-csv';
import type { ActivityEntry } from './workspace-api';

const entry: ActivityEntry = { id: 1, business_id: 'b', store_id: 's1', actor_id: 'u', actor_label: 'Olivia, "Owner"',
  kind: 'store.created', entity_type: 'store', entity_id: 's1', before: null, after: { name: '=SUM(A1)' },
  at: '2026-11-22T10:00:00Z' };

describe('activity CSV', () => {
  it('round-trips commas and quotes and names the store', () => {
    const parsed = Papa.parse<Record<string, string>>(activityCsv([entry], () => 'Downtown'), { header: true });
    expect(parsed.data[0]).toMatchObject({ person: 'Olivia, "Owner"', kind: 'store.created', store: 'Downtown',
      before: '' });
  });

  it('neutralises cells a spreadsheet would run as formulas', () => {
    const csv = activityCsv([{ ...entry, actor_label: '=cmd|calc' }], () => '');
    expect(csv).not.toMatch(/(^|,)=cmd/m);
    expect(csv).toContain("'=cmd|calc");
  });
});
