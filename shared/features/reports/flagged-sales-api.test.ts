import { describe, expect, it } from 'vitest';
import { describeReason, reviewNoteSchema } from './flagged-sales-api';

describe('describeReason', () => {
  it('puts a line reason in words with its line number', () => {
    expect(describeReason('price_mismatch:2')).toBe('line 2: sold at a price the catalog no longer had');
    expect(describeReason('discount_over_limit:1')).toBe('line 1: discount above the cashier\'s limit');
    expect(describeReason('expired_lot:3')).toBe('line 3: an expired lot sold without a manager\'s approval (the register was offline)');
    expect(describeReason('recalled_lot:1')).toMatch(/^line 1: a recalled lot sold/);
    expect(describeReason('prescription_missing:2')).toMatch(/^line 2: a prescription-only item sold without a valid prescription/);
  });

  it('drops an id detail and keeps the words', () => {
    expect(describeReason('negative_stock:6f1c0c1e-0000-4000-8000-000000000001')).toBe('stock went below zero');
    expect(describeReason('tenders_mismatch')).toBe('payments did not add up to the total');
  });

  it('shows an unknown reason readably rather than hiding it', () => {
    expect(describeReason('new_rule_x')).toBe('new rule x');
  });
});

describe('reviewNoteSchema', () => {
  it('needs 1 to 500 characters after trimming', () => {
    expect(reviewNoteSchema.safeParse({ note: '   ' }).success).toBe(false);
    expect(reviewNoteSchema.safeParse({ note: 'x'.repeat(501) }).success).toBe(false);
    expect(reviewNoteSchema.parse({ note: '  checked  ' })).toEqual({ note: 'checked' });
  });
});
