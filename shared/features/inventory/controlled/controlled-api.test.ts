import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { controlledRegisterCsv, type RegisterRow } from './controlled-api';

/** The controlled register's CSV (ADR 0390): oldest first as a paper register reads, formula cells escaped. */
// The generated types call the text columns strings; the function answers null where there is none.
const row = (over: Partial<Record<keyof RegisterRow, unknown>>): RegisterRow => ({
  id: 1, occurred_at: '2026-11-28T10:00:00Z', kind: 'received', qty: 30, balance: 30, lot_number: null, actor_name: 'Noor Chemist',
  witness_name: null, prescription_number: null, receipt_number: null, note: null, ...over,
}) as unknown as RegisterRow;

describe('controlledRegisterCsv', () => {
  it('lists the rows oldest first with the balance, who, witness and prescription number', () => {
    const csv = controlledRegisterCsv([
      row({ id: 3, kind: 'destroyed', qty: -2, balance: 27, witness_name: 'Sam Witness', note: '=HYPERLINK("x")' }),
      row({ id: 2, kind: 'sold', qty: -1, balance: 29, prescription_number: 'RX-104230', receipt_number: 'RB1-000002' }),
      row({ id: 1 }),
    ]);
    const parsed = Papa.parse<string[]>(csv.trim()).data;
    expect(parsed[0]).toEqual(['date', 'kind', 'quantity', 'balance', 'lot', 'by', 'witness', 'prescription_number', 'receipt', 'note']);
    expect(parsed.slice(1).map((r) => [r[1], r[2], r[3], r[6], r[7]])).toEqual([
      ['received', '30', '30', '', ''], ['sold', '-1', '29', '', 'RX-104230'], ['destroyed', '-2', '27', 'Sam Witness', '']]);
    // A note a spreadsheet would run is written as text.
    expect(parsed[3]?.[9]).toBe('\'=HYPERLINK("x")');
  });
});
