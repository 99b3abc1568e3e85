import { describe, expect, it } from 'vitest';
import { HeavyCallGate, TooManyHeavyCalls, isHeavyFunction } from './heavy-calls';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('HeavyCallGate', () => {
  it('runs one call per user at a time in order, lets maxWaiting wait, refuses the rest; users are independent', async () => {
    const gate = new HeavyCallGate({ maxWaiting: 2, retryAfterSeconds: 3 });
    const order: string[] = [];
    const hold = deferred();
    const first = gate.run('a', async () => { order.push('a1 start'); await hold.promise; order.push('a1 end'); });
    const waiting = [2, 3].map((i) => gate.run('a', async () => { order.push(`a${i}`); }));
    const refused = await gate.run('a', async () => 'ran').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TooManyHeavyCalls);
    expect((refused as TooManyHeavyCalls).status).toBe(429);
    expect((refused as TooManyHeavyCalls).retryAfterSeconds).toBe(3);
    await gate.run('b', async () => { order.push('b1'); });
    hold.resolve();
    await Promise.all([first, ...waiting]);
    expect(order).toEqual(['a1 start', 'b1', 'a1 end', 'a2', 'a3']);
    expect(gate.busyUsers).toBe(0);
  });

  it('hands the turn on when a call fails', async () => {
    const gate = new HeavyCallGate();
    const failed = gate.run('a', async () => { throw new Error('boom'); });
    const next = gate.run('a', async () => 42);
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe(42);
    expect(gate.busyUsers).toBe(0);
  });

  it('knows the heavy functions by name', () => {
    for (const name of ['import_catalog', 'post_sales', 'post_sale', 'post_refund', 'report_sales', 'report_sell_through', 'pos_catalog']) {
      expect(isHeavyFunction(name), name).toBe(true);
    }
    for (const name of ['my_workspaces', 'search_catalog', 'post_sales_x', 'xreport_sales', 'current_shift']) {
      expect(isHeavyFunction(name), name).toBe(false);
    }
  });
});
