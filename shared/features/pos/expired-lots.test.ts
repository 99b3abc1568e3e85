import { describe, expect, it } from 'vitest';
import { expiredLotLines, expiredLotText, needsLotApproval } from './expired-lots';

const line = (number: string, expiry?: string) => ({ lot: { id: null, number, ...(expiry ? { expiry } : {}) } });

describe('expired lots at the register', () => {
  it('finds the lines whose scanned lot expired before today, not on today or without an expiry', () => {
    const lines = [line('A', '2026-12-01'), line('B', '2026-12-02'), line('C'), {}, line('D', '2025-01-31')];
    expect(expiredLotLines(lines, '2026-12-02')).toEqual([{ number: 'A', expiry: '2026-12-01' }, { number: 'D', expiry: '2025-01-31' }]);
    expect(expiredLotText(expiredLotLines(lines, '2026-12-02'))).toBe('Lot A expired on 2026-12-01; Lot D expired on 2025-01-31');
  });

  it('a cashier needs an approval; an owner or manager is the override; an approval clears it', () => {
    const expired = [{ number: 'A', expiry: '2026-12-01' }];
    expect(needsLotApproval('cashier', expired, null)).toBe(true);
    expect(needsLotApproval('cashier', expired, { id: 'x' })).toBe(false);
    expect(needsLotApproval('manager', expired, null)).toBe(false);
    expect(needsLotApproval('owner', expired, undefined)).toBe(false);
    expect(needsLotApproval('cashier', [], null)).toBe(false);
  });
});
