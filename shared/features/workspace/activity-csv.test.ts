import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { activityCsv } from './activity-csv';
import type { ActivityEntry } from './workspace-api';

const entry: ActivityEntry = { id: 1, business_id: 'b', store_id: 's1', actor_id: 'u', actor_label: 'Olivia, "Owner"',
  actor_email: 'olivia@shop.test',
  kind: 'store.created', entity_type: 'store', entity_id: 's1', before: null, after: { name: '=SUM(A1)' },
  at: '2026-11-22T10:00:00Z' };

describe('activity CSV', () => {
  it('round-trips commas and quotes and names the store', () => {
    const parsed = Papa.parse<Record<string, string>>(activityCsv([entry], () => 'Downtown'), { header: true });
    expect(parsed.data[0]).toMatchObject({ person: 'olivia@shop.test (Olivia, "Owner")', person_email: 'olivia@shop.test',
      person_name: 'Olivia, "Owner"', person_id: 'u', kind: 'store.created', store: 'Downtown', before: '' });
  });

  it('names the account by its email even when the chosen name is someone else\'s; older entries through the team', () => {
    const renamed = Papa.parse<Record<string, string>>(activityCsv([{ ...entry, actor_label: 'Olivia Owner',
      actor_email: 'manager@shop.test' }], () => ''), { header: true });
    expect(renamed.data[0]?.person).toBe('manager@shop.test (Olivia Owner)');
    const older = Papa.parse<Record<string, string>>(activityCsv([{ ...entry, actor_email: null }], () => '',
      (id) => (id === 'u' ? 'olivia@shop.test' : null)), { header: true });
    expect(older.data[0]?.person_email).toBe('olivia@shop.test');
  });

  it('neutralises cells a spreadsheet would run as formulas', () => {
    const csv = activityCsv([{ ...entry, actor_label: '=cmd|calc', actor_email: null }], () => '');
    expect(csv).not.toMatch(/(^|,)=cmd/m);
    expect(csv).toContain("'=cmd|calc");
  });
});
