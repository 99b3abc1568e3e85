import { describe, expect, it } from 'vitest';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { approveWithPin } from './till-pins-api';

/** A client whose every call is refused with this error. */
const refusing = (error: { message: string; code?: string; details?: string }) =>
  ({ rpc: async () => ({ data: null, error, status: 400 }) }) as unknown as StorewiseClient;

describe('till PIN refusals as sentences', () => {
  it('words the manager\'s discount limit as the other screens do', async () => {
    await expect(approveWithPin(refusing({ message: 'this manager may approve discounts up to 50 percent' }), 's', 'u', '1234', 'discount', 60))
      .rejects.toThrow('This manager may approve discounts up to 50 percent. Ask the owner to approve a larger one.');
  });

  it('gives read-only maintenance with the admin\'s reason', async () => {
    const error = { code: 'PT503', message: 'Storewise is in read-only maintenance: changes wait until it ends.', details: 'Database upgrade.' };
    await expect(approveWithPin(refusing(error), 's', 'u', '1234', 'refund', 0))
      .rejects.toThrow('Storewise is in read-only maintenance: changes wait until it ends. Database upgrade.');
  });
});
