/**
 * The service role (server-side jobs, imports) can write rows whose constraints call helpers in schema
 * private: a barcode insert runs private.barcode_is_valid through its CHECK constraint.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';

let stack: StackHandle;
let service: SupabaseClient;

beforeAll(async () => {
  stack = await startStack();
  service = createTestClient(stack, 'service');
});
afterAll(async () => stack?.stop());

describe('service role and schema private', () => {
  it('inserts a barcode whose check digit is validated in schema private', async () => {
    const { data: variant, error: readError } = await service.from('variants').select('id, business_id').limit(1).single();
    expect(readError).toBeNull();
    // 4006381333931 is a valid EAN-13 (check digit 1).
    const { data, error } = await service
      .from('barcodes')
      .insert({ business_id: variant!.business_id, variant_id: variant!.id, code: '4006381333931', kind: 'ean13' })
      .select('code')
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ code: '4006381333931' });
  });

  it('still refuses a wrong check digit with the constraint, not a permission error', async () => {
    const { data: variant } = await service.from('variants').select('id, business_id').limit(1).single();
    const { error } = await service
      .from('barcodes')
      .insert({ business_id: variant!.business_id, variant_id: variant!.id, code: '4006381333932', kind: 'ean13' });
    expect(error?.code).toBe('23514');
  });
});
